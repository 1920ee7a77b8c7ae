// The Sudoku model of a constraint solver, for comparing cdcl with a search that does not
// learn (docs/history.md, "Native Sudoku propagation"): one integer variable per cell,
// domain-consistent all-different (Régin 1994) on every row, column and box, and one of
// Gecode's variable-selection heuristics, by depth-first search or with Luby restarts.
//
// Build (Debian/Ubuntu: apt-get install libgecode-dev):
//   g++ -O2 -o gecode-sudoku scripts/gecode/sudoku.cpp -lgecodesearch -lgecodeint \
//       -lgecodekernel -lgecodesupport -lgecodeminimodel
// Run: ./gecode-sudoku afc|size|chb|action dfs|rbs SECONDS < puzzles.txt
// Puzzles: one per line, n² symbols (n = b²), `.` or `0` blank, 1-9 then A = 10, B = 11, …
// as in benches/data/hard/gecode-25x25-6.txt; `#` lines are skipped.
#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>

using namespace Gecode;

namespace {
enum class Branching { Afc, Size, Chb, Action };

class Sudoku : public Space {
 public:
  IntVarArray cells;

  Sudoku(const std::string& puzzle, int box, Branching branching)
      : cells(*this, static_cast<int>(puzzle.size()), 1, box * box) {
    const int n = box * box;
    Matrix<IntVarArray> grid(cells, n, n);
    for (int i = 0; i < n; i++) {
      distinct(*this, grid.row(i), IPL_DOM);
      distinct(*this, grid.col(i), IPL_DOM);
    }
    for (int r = 0; r < n; r += box)
      for (int c = 0; c < n; c += box)
        distinct(*this, grid.slice(c, c + box, r, r + box), IPL_DOM);
    for (int k = 0; k < static_cast<int>(puzzle.size()); k++) {
      const char s = puzzle[k];
      int digit = 0;
      if (s >= '1' && s <= '9') digit = s - '0';
      if (s >= 'A' && s <= 'Z') digit = s - 'A' + 10;
      if (digit > 0) rel(*this, cells[k], IRT_EQ, digit);
    }
    switch (branching) {
      case Branching::Afc:
        branch(*this, cells, INT_VAR_AFC_SIZE_MAX(0.99), INT_VAL_MIN());
        break;
      case Branching::Size:
        branch(*this, cells, INT_VAR_SIZE_MIN(), INT_VAL_MIN());
        break;
      case Branching::Chb:
        branch(*this, cells, INT_VAR_CHB_SIZE_MAX(), INT_VAL_MIN());
        break;
      case Branching::Action:
        branch(*this, cells, INT_VAR_ACTION_SIZE_MAX(0.99), INT_VAL_MIN());
        break;
    }
  }
  Sudoku(Sudoku& other) : Space(other) { cells.update(*this, other.cells); }
  Space* copy() override { return new Sudoku(*this); }
};
}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: gecode-sudoku afc|size|chb|action dfs|rbs SECONDS < puzzles\n";
    return 2;
  }
  const std::string name = argv[1], how = argv[2];
  const Branching branching = name == "size"     ? Branching::Size
                              : name == "chb"    ? Branching::Chb
                              : name == "action" ? Branching::Action
                                                 : Branching::Afc;
  const double seconds = std::atof(argv[3]);
  std::string line;
  int index = 0;
  while (std::getline(std::cin, line)) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    index++;
    const int n = static_cast<int>(std::lround(std::sqrt(line.size())));
    const int box = static_cast<int>(std::lround(std::sqrt(n)));
    if (box * box * n != static_cast<int>(line.size())) {
      std::cerr << "line " << index << ": " << line.size() << " symbols, not b^4\n";
      return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    Search::TimeStop stop(static_cast<unsigned long>(seconds * 1000));
    Search::Options options;
    options.stop = &stop;
    Sudoku* root = new Sudoku(line, box, branching);
    Sudoku* solution = nullptr;
    Search::Statistics statistics;
    if (how == "rbs") {
      options.cutoff = Search::Cutoff::luby(100);
      RBS<Sudoku, DFS> engine(root, options);
      solution = engine.next();
      statistics = engine.statistics();
    } else {
      DFS<Sudoku> engine(root, options);
      solution = engine.next();
      statistics = engine.statistics();
    }
    delete root;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "puzzle " << index << " " << name << "/" << how << ": "
              << (solution ? "solved" : "stopped") << " in " << elapsed << " s, "
              << statistics.node << " nodes, " << statistics.fail << " failures\n";
    delete solution;
  }
  return 0;
}
