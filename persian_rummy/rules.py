"""The rule variants of Persian Rummy: every knob of the rules specification, validated.

>>> Rules()
Rules(deals=2, ace_in_runs='high', top_card_must_meld=True, pickup_use='meld_or_lay_off', last_card_discard='stays_in', stock_out_end='all_pass', double_four_jokers=True, going_out_bonus=25)
>>> str(Rules(deals=1, ace_in_runs="high_or_low"))
'deals=1 ace_in_runs=high_or_low'
>>> Rules.parse("deals=1 ace_in_runs=high_or_low") == Rules(deals=1, ace_in_runs="high_or_low")
True
"""

from __future__ import annotations

from typing import Any, Final, Literal

import attrs

from persian_rummy.errors import InvalidRulesError, NotationError, excerpt
from persian_rummy.limits import BONUS_LIMIT, DEALS_LIMIT, POSITION_LIMIT
from persian_rummy.melds import AceInRuns
from persian_rummy.serialization import from_json, register_format, to_json

__all__ = ["PRESETS", "Rules"]

PickupUse = Literal["meld_or_lay_off", "new_meld_only"]
LastCardDiscard = Literal["stays_in", "goes_out", "forbidden"]
StockOutEnd = Literal["all_pass", "first_pass"]

#: The idle turns in a row that end a round (R21).
IDLE_LIMIT: Final = 8
_INT_KNOBS: Final = frozenset({"deals", "going_out_bonus"})
_BOOL_KNOBS: Final = frozenset({"top_card_must_meld", "double_four_jokers"})
_CHOICES: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "ace_in_runs": ("R10", ("high", "high_or_low")),
    "pickup_use": ("R14", ("meld_or_lay_off", "new_meld_only")),
    "last_card_discard": ("R19", ("stays_in", "goes_out", "forbidden")),
    "stock_out_end": ("R20", ("all_pass", "first_pass")),
}


def _choice(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    rule, choices = _CHOICES[attribute.name]
    if value not in choices:
        raise InvalidRulesError(
            f"{rule}: {attribute.name} must be one of {', '.join(map(repr, choices))}, not {excerpt(value)}"
        )


def _flag(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not bool:
        rule = "R14" if attribute.name == "top_card_must_meld" else "R24"
        raise InvalidRulesError(f"{rule}: {attribute.name} must be True or False, not {excerpt(value)}")


def _deals(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not int or not 1 <= value <= DEALS_LIMIT:
        raise InvalidRulesError(f"R7: deals must be a whole number from 1 to {DEALS_LIMIT}, not {excerpt(value)}")


def _bonus(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not int or not 0 <= value <= BONUS_LIMIT:
        raise InvalidRulesError(
            f"R25: going_out_bonus must be a whole number from 0 to {BONUS_LIMIT}, not {excerpt(value)}"
        )


@attrs.frozen(cache_hash=True)
class Rules:
    """The knobs of the rules, each defaulting to the specification's choice; the knobs are
    the attributes below, each with the rule it changes.

    Bad values raise :class:`~persian_rummy.InvalidRulesError`. ``str`` lists the knobs that
    differ from the defaults and :meth:`parse` reads that back.

    >>> Rules(last_card_discard="goes_out").last_card_discard
    'goes_out'
    >>> Rules(pickup_use="anything")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidRulesError: R14: pickup_use must be one of 'meld_or_lay_off', 'new_meld_only', not 'anything'
    """

    #: How many deals make a game (2) (R7).
    deals: int = attrs.field(default=2, validator=_deals)
    #: ``"high"`` (Q-K-A only) or ``"high_or_low"`` (A-2-3 too, never wrapping) (R10).
    ace_in_runs: AceInRuns = attrs.field(default="high", validator=_choice)
    #: Whether the top card of the discard pile, taken alone, must be melded at once like a deeper
    #: card (True); False lets it be taken freely (R14).
    top_card_must_meld: bool = attrs.field(default=True, validator=_flag)
    #: How the card taken from the discard pile must be used by the next action:
    #: ``"meld_or_lay_off"`` or ``"new_meld_only"`` (R14).
    pickup_use: PickupUse = attrs.field(default="meld_or_lay_off", validator=_choice)
    #: What discarding one's last card does: ``"stays_in"`` (the player stays in with an empty
    #: hand), ``"goes_out"`` (it ends the round like going out) or ``"forbidden"`` (R19).
    last_card_discard: LastCardDiscard = attrs.field(default="stays_in", validator=_choice)
    #: With an empty stock, the round ends after four passes in a row (``"all_pass"``) or at the
    #: first pass (``"first_pass"``) (R20).
    stock_out_end: StockOutEnd = attrs.field(default="all_pass", validator=_choice)
    #: Whether four jokers melded at once score double (160) (R24).
    double_four_jokers: bool = attrs.field(default=True, validator=_flag)
    #: The bonus for the team of the player who goes out (25) (R25).
    going_out_bonus: int = attrs.field(default=25, validator=_bonus)

    @property
    def ace_low(self) -> bool:
        """Whether runs may play the ace low, A-2-3 (``ace_in_runs="high_or_low"``, R10): the
        one place the knob's value is read.

        >>> Rules().ace_low, Rules(ace_in_runs="high_or_low").ace_low
        (False, True)
        """
        return self.ace_in_runs == "high_or_low"

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse knobs written as ``name=value`` pairs separated by spaces or commas; knobs not
        named keep their defaults. ``"default"`` or an empty text gives the defaults, and a
        preset's name (see :data:`PRESETS`) gives that preset.

        >>> Rules.parse("last_card_discard=goes_out, going_out_bonus=50").going_out_bonus
        50
        >>> Rules.parse("500_rum") == PRESETS["500_rum"]
        True
        """
        if not isinstance(text, str):
            raise NotationError(f"expected the text of rules, not {excerpt(text)}")
        if len(text) > POSITION_LIMIT:
            raise NotationError(f"a rules text has at most {POSITION_LIMIT} characters, not {len(text)}")
        stripped = text.strip()
        if stripped in PRESETS:
            return PRESETS[stripped]
        if stripped == "default":
            return _DEFAULT
        values: dict[str, Any] = {}
        fields = attrs.fields_dict(cls)
        for token in stripped.replace(",", " ").split():
            name, equals, value = token.partition("=")
            if not equals or name not in fields:
                raise NotationError(
                    f"{excerpt(token)} is not a rules knob (expected name=value, one of {', '.join(fields)})"
                )
            if name in values:
                raise NotationError(f"the rules knob {name} is given twice")
            if name in _INT_KNOBS:
                if not (value.isascii() and value.isdigit() and len(value) <= 9):
                    raise NotationError(f"{name} takes a whole number, not {excerpt(value)}")
                values[name] = int(value)
            elif name in _BOOL_KNOBS:
                if value not in ("True", "False", "true", "false"):
                    raise NotationError(f"{name} takes True or False, not {excerpt(value)}")
                values[name] = value in ("True", "true")
            else:
                values[name] = value
        return cls(**values)

    def to_json(self) -> str:
        """The rules as JSON, with a format version (see :mod:`persian_rummy.serialization`).

        >>> Rules.from_json(Rules(going_out_bonus=50).to_json()).going_out_bonus
        50
        """
        return to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> Rules:
        """Read rules from their JSON; raises :class:`~persian_rummy.NotationError` (saying
        where) for anything that is not the JSON of valid rules.

        >>> Rules.from_json('{"format": "persian-rummy rules", "version": 1, "deals": 0}')
        Traceback (most recent call last):
        ...
        persian_rummy.errors.NotationError: the JSON does not describe rules: R7: deals must be a whole number from 1 to 1000, not 0 @ $
        """
        return from_json(text, cls)

    @property
    def pass_limit(self) -> int:
        """The passes in a row that end a round once the stock is empty (R20): 4 under
        ``stock_out_end="all_pass"``, 1 under ``"first_pass"``.

        >>> Rules().pass_limit, Rules(stock_out_end="first_pass").pass_limit
        (4, 1)
        """
        return 1 if self.stock_out_end == "first_pass" else 4

    @property
    def idle_limit(self) -> int:
        """The idle turns in a row (no stock draw, no card added to the table) that end a
        round (R21): 8, under every variant.

        >>> Rules().idle_limit
        8
        """
        return IDLE_LIMIT

    def __str__(self) -> str:
        default = _DEFAULT
        parts = [
            f"{field.name}={getattr(self, field.name)}"
            for field in attrs.fields(Rules)
            if getattr(self, field.name) != getattr(default, field.name)
        ]
        return " ".join(parts) if parts else "default"


register_format(Rules, "persian-rummy rules", "rules")
_DEFAULT: Final = Rules()

#: Named rule sets. ``"persian"`` is the specification's default; ``"500_rum"`` plays the
#: stock-out, last-card and ace the common 500 Rum way (R10, R19, R20).
PRESETS: Final[dict[str, Rules]] = {
    "persian": _DEFAULT,
    "500_rum": Rules(ace_in_runs="high_or_low", last_card_discard="goes_out", stock_out_end="first_pass"),
}
