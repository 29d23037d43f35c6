"""Every rule of the specification is exercised by a test that names it (R1-R27).

A test exercises a rule when its name cites the rule (``test_r14_...``), it lives in a file
about the game rather than about the tests themselves (:data:`META_FILES`), it calls the
library, and it checks something (an ``assert`` or a ``pytest.raises``). A name alone is not
enough, and a test about something else (a text format, a protocol) does not carry a rule's
number in its name.

The rules live in ``RULES.md`` in the project's shared folder, next to the repository
(``../shared/RULES.md`` from the repository root). When that file is not there (an sdist, a
fresh clone), the check falls back to the rule numbers kept below, so it never skips.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
RULES_FILE = TESTS.parent.parent / "shared" / "RULES.md"
#: The rule numbers of RULES.md, for when the file is not beside the repository.
KNOWN_RULES = frozenset(range(1, 28))

#: Files whose tests are about the test suite or the package's shape, not the rules: their
#: test names cite no rule.
META_FILES = frozenset({"test_rule_coverage.py", "test_layers.py"})

_RULE_LINE = re.compile(r"^\s*-\s*R(\d+)\.", re.MULTILINE)
_CITATION = re.compile(r"(?:^|_)r(\d+)(?=_|$)")


def specified_rules() -> frozenset[int]:
    if RULES_FILE.is_file():
        found = frozenset(int(number) for number in _RULE_LINE.findall(RULES_FILE.read_text(encoding="utf-8")))
        assert found, f"no rule found in {RULES_FILE.name}"
        return found
    return KNOWN_RULES


def suite_tests() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every test function of the suite, with the name of its file."""
    found = []
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                found.append((path.name, node))
    return found


def _library_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("persian_rummy"):
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {alias.asname or alias.name for alias in node.names if alias.name.startswith("persian_rummy")}
    return names


def _is_check(node: ast.AST) -> bool:
    return isinstance(node, ast.Assert) or (isinstance(node, ast.Attribute) and node.attr == "raises")


def helpers() -> tuple[set[str], set[str]]:
    """The helper functions of the suite (any function in ``tests/`` that is not a test) that
    check something, and those that drive the library, directly or through other helpers."""
    bodies: dict[str, list[ast.AST]] = {}
    library: set[str] = set()
    for path in sorted(TESTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        library |= _library_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("test_"):
                bodies.setdefault(node.name, []).append(node)
    checking = {
        name for name, nodes in bodies.items() if any(_is_check(inner) for node in nodes for inner in ast.walk(node))
    }
    driving = {
        name
        for name, nodes in bodies.items()
        if any(isinstance(inner, ast.Name) and inner.id in library for node in nodes for inner in ast.walk(node))
    }
    while True:  # through helpers that call helpers
        called = {
            name: {inner.id for node in nodes for inner in ast.walk(node) if isinstance(inner, ast.Name)}
            for name, nodes in bodies.items()
        }
        more_checking = {name for name, names in called.items() if names & checking} | checking
        more_driving = {name for name, names in called.items() if names & driving} | driving
        if more_checking == checking and more_driving == driving:
            return checking, driving | library
        checking, driving = more_checking, more_driving


def exercises(
    path_name: str, node: ast.FunctionDef | ast.AsyncFunctionDef, checking: set[str], driving: set[str]
) -> bool:
    """Whether the test drives the library and checks something, itself or through the
    suite's helpers, in a file about the game."""
    names = {inner.id for inner in ast.walk(node) if isinstance(inner, ast.Name)}
    checks = any(_is_check(inner) for inner in ast.walk(node)) or bool(names & checking)
    return checks and bool(names & driving) and path_name not in META_FILES


def cited(name: str) -> set[int]:
    return {int(number) for number in _CITATION.findall(name.lower())}


def test_every_rule_is_exercised_by_a_test_that_names_it() -> None:
    rules = specified_rules()
    exercised: set[int] = set()
    checking, driving = helpers()
    for path_name, node in suite_tests():
        if exercises(path_name, node, checking, driving):
            exercised |= cited(node.name)
    missing = sorted(rules - exercised)
    assert not missing, "rules no test exercises: " + ", ".join(f"R{number}" for number in missing)


def test_tests_about_the_suite_cite_no_rule() -> None:
    citing = [
        f"{path_name}::{node.name}" for path_name, node in suite_tests() if path_name in META_FILES and cited(node.name)
    ]
    assert not citing, citing


def test_a_test_that_names_a_rule_does_something() -> None:
    # A rule's number in a name promises a check of the library; a test that asserts nothing
    # or never calls the library is mislabelled.
    idle = []
    checking, driving = helpers()
    for path_name, node in suite_tests():
        if cited(node.name) and not exercises(path_name, node, checking, driving):
            idle.append(f"{path_name}::{node.name}")
    assert not idle, idle


def test_the_exercise_check_needs_a_call_and_a_check() -> None:
    def parse(source: str) -> ast.FunctionDef:
        node = ast.parse(source).body[0]
        assert isinstance(node, ast.FunctionDef)
        return node

    driving, checking = {"play", "new_game", "play_out"}, {"check_state"}
    cases = [
        ("test_turns.py", "assert play(new_game(1), 'draw')", True),
        ("test_turns.py", "check_state(play_out(1))", True),  # through the suite's helpers
        ("test_turns.py", "play(new_game(1), 'draw')", False),  # checks nothing
        ("test_turns.py", "assert 1 + 1 == 2", False),  # never calls the library
        ("test_layers.py", "assert play(new_game(1))", False),  # a file about the suite
    ]
    for path_name, body, expected in cases:
        assert exercises(path_name, parse(f"def test_r12_x():\n    {body}"), checking, driving) is expected, body


def test_the_fallback_list_matches_the_rules_file_when_present() -> None:
    assert specified_rules() == KNOWN_RULES


def test_citations_are_read_from_names() -> None:
    assert cited("test_r13_deep_draw_takes_everything_above") == {13}
    assert cited("test_r7_r25_every_knob") == {7, 25}
    assert cited("test_r1_r27_every_rule") == {1, 27}
    assert cited("test_rules_text") == set()
    assert cited("test_r2x_not_a_rule") == set()


def test_a_missing_rules_file_falls_back_to_the_known_list(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys.modules[__name__], "RULES_FILE", tmp_path / "RULES.md")
    assert specified_rules() == KNOWN_RULES
    (tmp_path / "RULES.md").write_text("- R1. one\n- R2. two\n", encoding="utf-8")
    assert specified_rules() == {1, 2}
