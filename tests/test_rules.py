"""The Rules knobs: defaults, validation, presets and their text (R7, R10, R14, R19, R20, R24, R25)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from persian_rummy import PRESETS, InvalidRulesError, NotationError, Rules

ALTERNATIVES: dict[str, list[Any]] = {
    "deals": [1, 3, 10],
    "ace_in_runs": ["high_or_low"],
    "top_card_must_meld": [False],
    "pickup_use": ["new_meld_only"],
    "last_card_discard": ["goes_out", "forbidden"],
    "stock_out_end": ["first_pass"],
    "double_four_jokers": [False],
    "going_out_bonus": [0, 50],
}

BAD_VALUES: list[tuple[str, Any, str]] = [
    ("deals", 0, "R7"),
    ("deals", -1, "R7"),
    ("deals", 2.0, "R7"),
    ("deals", True, "R7"),
    ("deals", "2", "R7"),
    ("ace_in_runs", "low", "R10"),
    ("ace_in_runs", "High", "R10"),
    ("top_card_must_meld", 1, "R14"),
    ("top_card_must_meld", "True", "R14"),
    ("pickup_use", "anything", "R14"),
    ("last_card_discard", "stays", "R19"),
    ("last_card_discard", None, "R19"),
    ("stock_out_end", "never", "R20"),
    ("double_four_jokers", 0, "R24"),
    ("going_out_bonus", -25, "R25"),
    ("going_out_bonus", 25.0, "R25"),
    ("going_out_bonus", False, "R25"),
]


def test_r7_r10_r14_r19_r20_r24_r25_defaults_are_the_specification() -> None:
    rules = Rules()
    assert rules.deals == 2
    assert rules.ace_in_runs == "high"
    assert rules.top_card_must_meld is True
    assert rules.pickup_use == "meld_or_lay_off"
    assert rules.last_card_discard == "stays_in"
    assert rules.stock_out_end == "all_pass"
    assert rules.double_four_jokers is True
    assert rules.going_out_bonus == 25
    assert set(ALTERNATIVES) == set(attrs.fields_dict(Rules))


@pytest.mark.parametrize(
    ("name", "value"), [(name, value) for name, values in ALTERNATIVES.items() for value in values]
)
def test_r7_r25_every_knob_accepts_its_alternatives(name: str, value: Any) -> None:
    rules = Rules(**{name: value})
    assert getattr(rules, name) == value
    assert rules != Rules()


@pytest.mark.parametrize(("name", "value", "rule"), BAD_VALUES)
def test_r7_r25_every_knob_rejects_bad_values_naming_the_rule(name: str, value: Any, rule: str) -> None:
    with pytest.raises(InvalidRulesError) as caught:
        Rules(**{name: value})
    assert str(caught.value).startswith(f"{rule}: {name}")
    assert isinstance(caught.value, ValueError)


def test_r7_rules_are_frozen_and_evolve_validates() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.deals = 3  # type: ignore[misc]
    with pytest.raises(InvalidRulesError):
        attrs.evolve(rules, deals=0)


def test_r10_r19_r20_presets() -> None:
    assert PRESETS["persian"] == Rules()
    rum = PRESETS["500_rum"]
    assert (rum.ace_in_runs, rum.last_card_discard, rum.stock_out_end) == ("high_or_low", "goes_out", "first_pass")
    for name, rules in PRESETS.items():
        assert Rules.parse(name) == rules


@pytest.mark.parametrize(
    "rules",
    [Rules(), *PRESETS.values()]
    + [Rules(**{name: value}) for name, values in ALTERNATIVES.items() for value in values]
    + [
        Rules(
            deals=3,
            ace_in_runs="high_or_low",
            top_card_must_meld=False,
            pickup_use="new_meld_only",
            last_card_discard="forbidden",
            stock_out_end="first_pass",
            double_four_jokers=False,
            going_out_bonus=0,
        )
    ],
)
def test_r7_r25_rules_text_round_trips(rules: Rules) -> None:
    assert Rules.parse(str(rules)) == rules
    assert eval(repr(rules), {"Rules": Rules}) == rules


def test_r7_rules_text_lists_only_knobs_that_differ() -> None:
    assert str(Rules()) == "default"
    assert Rules.parse("default") == Rules() == Rules.parse("") == Rules.parse("   ")
    assert str(Rules(deals=3, going_out_bonus=50)) == "deals=3 going_out_bonus=50"
    assert Rules.parse("last_card_discard=goes_out, going_out_bonus=50") == Rules(
        last_card_discard="goes_out", going_out_bonus=50
    )
    assert Rules.parse("top_card_must_meld=false double_four_jokers=False") == Rules(
        top_card_must_meld=False, double_four_jokers=False
    )


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("deals", NotationError),
        ("colour=red", NotationError),
        ("deals=two", NotationError),
        ("deals=2 deals=3", NotationError),
        ("top_card_must_meld=yes", NotationError),
        ("deals=0", InvalidRulesError),
        ("ace_in_runs=low", InvalidRulesError),
    ],
)
def test_r7_bad_rules_text_raises(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        Rules.parse(text)


def test_r7_rules_parse_rejects_non_text() -> None:
    with pytest.raises(NotationError):
        Rules.parse(None)  # type: ignore[arg-type]
