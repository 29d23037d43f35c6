"""Every rule of the specification is cited by at least one test name (R1-R27).

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

_RULE_LINE = re.compile(r"^\s*-\s*R(\d+)\.", re.MULTILINE)
_CITATION = re.compile(r"(?:^|_)r(\d+)(?=_|$)")


def specified_rules() -> frozenset[int]:
    if RULES_FILE.is_file():
        found = frozenset(int(number) for number in _RULE_LINE.findall(RULES_FILE.read_text(encoding="utf-8")))
        assert found, f"no rule found in {RULES_FILE.name}"
        return found
    return KNOWN_RULES


def cited_test_names() -> set[str]:
    names: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def cited(name: str) -> set[int]:
    return {int(number) for number in _CITATION.findall(name.lower())}


def test_r1_r27_every_rule_is_cited_by_a_test_name() -> None:
    rules = specified_rules()
    citations: set[int] = set()
    for name in cited_test_names():
        citations |= cited(name)
    missing = sorted(rules - citations)
    assert not missing, "rules no test name cites: " + ", ".join(f"R{number}" for number in missing)


def test_r1_r27_the_fallback_list_matches_the_rules_file_when_present() -> None:
    assert specified_rules() == KNOWN_RULES


def test_r1_citations_are_read_from_names() -> None:
    assert cited("test_r13_deep_draw_takes_everything_above") == {13}
    assert cited("test_r7_r25_every_knob") == {7, 25}
    assert cited("test_r1_r27_every_rule") == {1, 27}
    assert cited("test_rules_text") == set()
    assert cited("test_r2x_not_a_rule") == set()


def test_r1_r27_a_missing_rules_file_falls_back_to_the_known_list(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys.modules[__name__], "RULES_FILE", tmp_path / "RULES.md")
    assert specified_rules() == KNOWN_RULES
    (tmp_path / "RULES.md").write_text("- R1. one\n- R2. two\n", encoding="utf-8")
    assert specified_rules() == {1, 2}
