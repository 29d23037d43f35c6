"""Every rule of the specification is exercised by a test that names it (R1-R27).

A test exercises a rule when its name cites the rule (``test_r14_...``), it lives in a file
about the game rather than about the tests themselves (:data:`META_FILES`), it calls the
library, and it checks something (an ``assert`` or a ``pytest.raises``). A name alone is not
enough, and a test about something else (a text format, a protocol) does not carry a rule's
number in its name.

The list of rules is read from the repository's own rules page, ``docs/rules.rst``, where
each rule opens a paragraph as ``**R14 - ...**``: the page ships with every clone and sdist,
so the check never depends on a file outside the repository.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
RULES_PAGE = TESTS.parent / "docs" / "rules.rst"

#: Files whose tests are about the test suite or the package's shape, not the rules: their
#: test names cite no rule.
META_FILES = frozenset({"test_rule_coverage.py", "test_layers.py"})

#: A rule's opening on the rules page: ``**R14 - the card taken must be melded at once.**``.
_RULE_HEADING = re.compile(r"^\*\*R(\d+) - ", re.MULTILINE)
_CITATION = re.compile(r"(?:^|_)r(\d+)(?=_|$)")


def specified_rules(page: Path = RULES_PAGE) -> frozenset[int]:
    """The numbers of the rules the rules page states."""
    found = frozenset(int(number) for number in _RULE_HEADING.findall(page.read_text(encoding="utf-8")))
    assert found, f"no rule heading found in {page.name}"
    return found


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


def test_the_rules_page_states_every_rule_once_in_order() -> None:
    numbers = [int(number) for number in _RULE_HEADING.findall(RULES_PAGE.read_text(encoding="utf-8"))]
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    assert len(numbers) >= 27


def test_citations_are_read_from_names() -> None:
    assert cited("test_r13_deep_draw_takes_everything_above") == {13}
    assert cited("test_r7_r25_every_knob") == {7, 25}
    assert cited("test_r1_r27_every_rule") == {1, 27}
    assert cited("test_rules_text") == set()
    assert cited("test_r2x_not_a_rule") == set()


def test_rule_headings_are_read_from_a_page(tmp_path: Path) -> None:
    page = tmp_path / "rules.rst"
    page.write_text("Intro R9 in prose.\n\n**R1 - one.** text\n\n**R2 - two.** text, see R5\n", encoding="utf-8")
    assert specified_rules(page) == {1, 2}
    page.write_text("no rules here\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="no rule heading"):
        specified_rules(page)
