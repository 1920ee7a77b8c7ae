#!/bin/bash
# A real run of a sharded `sudosat compare` on Slurm, on one throwaway machine: sets up a
# single-node Slurm cluster (munge, slurmctld, slurmd; Debian's slurm-wlm), submits
# compare-array.sbatch on a small study of the shipped fixtures (3 shards), waits, and
# checks the merged report against an unsharded run of the same study: the same runs
# (instance, entry, repeat, outcome, check) and the same solved counts; times aside.
#
# Needs root: it installs packages when missing and writes /etc/slurm/slurm.conf (an
# existing one is put back at the end). Meant for a container or VM without systemd;
# everything else lives in a fresh temporary directory, removed at the end unless KEEP=1.
#
# Usage: scripts/slurm/single-node.sh [SUDOSAT_BINARY]
#   Without a binary it builds one (cargo build --release) from this checkout.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
start=$(date +%s)
say() { printf '[%3ss] %s\n' "$(($(date +%s) - start))" "$*"; }
die() { echo "single-node.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (it installs Slurm and writes /etc/slurm)"

if [ $# -ge 1 ]; then
    sudosat=$(readlink -f "$1")
else
    say "building sudosat (cargo build --release)"
    (cd "$root" && cargo build --release --quiet --bin sudosat)
    sudosat=$root/target/release/sudosat
fi
[ -x "$sudosat" ] || die "$sudosat: not an executable"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
say "$(slurmctld -V), $(munged -V 2>&1 | head -1)"

work=$(mktemp -d)
pids=()
conf=/etc/slurm/slurm.conf
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ -f /run/munge/munged.pid ]; then
        munged_pid=$(cat /run/munge/munged.pid)
        kill "$munged_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$munged_pid" 2>/dev/null || break; sleep 0.1; done
    fi
    if [ -f "$work/slurm.conf.saved" ]; then mv "$work/slurm.conf.saved" "$conf"; else rm -f "$conf"; fi
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

host=$(hostname -s)
cpus=$(nproc)
memory=$(($(free -m | awk '/^Mem:/ {print $2}') * 9 / 10))
mkdir -p /etc/slurm "$work/slurm/state" "$work/slurm/spool" "$work/slurm/log"
if [ -f "$conf" ]; then cp "$conf" "$work/slurm.conf.saved"; fi
cat >"$conf" <<EOF
ClusterName=single
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/log/slurmctld.log
SlurmdLogFile=$work/slurm/log/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

install -d -o munge -g munge -m 755 /run/munge
runuser -u munge -- /usr/sbin/munged
munge -n | unmunge >/dev/null || die "munge does not work"
slurmctld -D >"$work/slurm/log/ctld.out" 2>&1 &
pids+=($!)
slurmd -D >"$work/slurm/log/d.out" 2>&1 &
pids+=($!)
for _ in $(seq 150); do
    [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
    sleep 0.2
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || die "the node did not come up (logs in $work/slurm/log)"
say "Slurm up: node $host, $cpus CPUs, partition debug"

# The study: 10 puzzles (9×9) × 2 entries × 2 repeats = 40 runs, in 3 shards.
study=(--solvers dpll,dlx --repeat 2 --timeout 60
    "$root/tests/fixtures/debian-medium.txt" "$root/tests/fixtures/thesis-9x9.txt")
out=$work/study
SUDOSAT=$sudosat "$here/compare-array.sbatch" submit 3 "$out" "${study[@]}" | tee "$work/submitted"
merge=$(awk '{print $NF}' "$work/submitted")
for _ in $(seq 600); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 0.5
done
[ -z "$(squeue -h)" ] || die "jobs still queued after 5 minutes: $(squeue -h)"
say "array and merge job $merge done; shard logs:"
for log in "$out"/logs/shard-*.out; do sed -n 1p "$log"; done
[ -f "$out/merged.json" ] || { cat "$out/logs/merge.out" >&2; die "the merge wrote nothing"; }
sed -n 1,2p "$out/logs/merge.out"

say "unsharded run of the same study"
"$sudosat" compare -q "${study[@]}" --report "$work/whole" >/dev/null

# The same runs (instance, entry, repeat, outcome, checked) and the same outcome counts.
runs_of() { cut -d, -f3,6,9,10,11 "$1" | sort; }
counts_of() { awk -F, '$2 == "" {print $1, $4, $5, $6, $7, $8, $9, $10}' "$1"; }
if diff <(runs_of "$work/whole/runs.csv") <(runs_of "$out/report/runs.csv") >"$work/diff" &&
    diff <(counts_of "$work/whole/summary.csv") <(counts_of "$out/report/summary.csv") >>"$work/diff"; then
    say "merged report = unsharded run: $(($(wc -l <"$out/report/runs.csv") - 1)) runs agree"
    echo "solver runs solved no_solution stopped timeout failed wrong"
    counts_of "$out/report/summary.csv"
else
    cat "$work/diff" >&2
    die "the merged report differs from the unsharded run"
fi

# A lost shard: the merge refuses naming it; shard 2 resubmitted alone completes the study.
rm "$out/shards/shard-2.csv" "$out/shards/shard-2.meta.json"
if "$sudosat" compare --from-csv "$out/shards" --json "$work/partial.json" 2>"$work/refused"; then
    die "a merge without shard 2 was not refused"
fi
say "without shard 2: $(cat "$work/refused")"
SHARDS=2 SUDOSAT=$sudosat "$here/compare-array.sbatch" submit 3 "$out" "${study[@]}"
for _ in $(seq 600); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 0.5
done
sed -n 1p "$out/logs/merge.out"
diff <(runs_of "$work/whole/runs.csv") <(runs_of "$out/report/runs.csv") >&2 ||
    die "the merge after resubmitting shard 2 differs from the unsharded run"
say "shard 2 resubmitted alone and merged again: the same $(($(wc -l <"$out/report/runs.csv") - 1)) runs"
say "done"
