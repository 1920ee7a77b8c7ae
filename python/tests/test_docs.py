"""The examples of the module's docstrings and of the guide page docs/python.md run as
they are shown (doctest), at the top of the repository."""

import doctest
import inspect

import pytest

import sudosat
from conftest import ROOT

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def documented():
    """Every public object of the module with a docstring: functions, classes, and the
    methods and properties of the classes."""
    yield "sudosat", sudosat
    for name in sudosat.__all__:
        obj = getattr(sudosat, name)
        if not (inspect.isclass(obj) or callable(obj)):
            continue
        yield name, obj
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and getattr(member, "__doc__", None):
                    yield f"{name}.{attr}", member


def examples():
    parser = doctest.DocTestParser()
    for name, obj in documented():
        doc = inspect.getdoc(obj) or ""
        if ">>>" in doc:
            yield pytest.param(parser.get_doctest(doc, {"sudosat": sudosat, **{n: getattr(sudosat, n) for n in sudosat.__all__}}, name, None, 0), id=name)


@pytest.mark.parametrize("test", list(examples()))
def test_docstring_examples(test):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.failures == 0, f"{test.name}: {runner.failures} example(s) failed (output above)"


def test_every_public_function_and_class_is_documented_with_an_example():
    bare = [
        name
        for name, obj in documented()
        if "." not in name and name not in {"Stopped", "Study"} and ">>>" not in (inspect.getdoc(obj) or "")
    ]
    assert bare == []


def test_the_guide_page_runs():
    page = ROOT / "docs" / "python.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS, verbose=False)
    assert result.attempted > 20, "the guide's examples were not found"
    assert result.failed == 0
