"""Position strings to plain fields and back (internal): the notation below the state and
the view, which build themselves from these fields. See :mod:`persian_rummy.position` for
the format."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from persian_rummy._bits import PLAYERS
from persian_rummy.cards import CARD_BY_TEXT, Card
from persian_rummy.errors import InvalidArgumentError, InvalidRulesError, NotationError, excerpt
from persian_rummy.hand import Hand
from persian_rummy.limits import POSITION_LIMIT, SCORE_LIMIT
from persian_rummy.melds import Meld
from persian_rummy.rules import Rules

_FIELDS: Final = ("turn", "phase", "must", "dealer", "deal", "scores", "passes", "idle", "progress", "out", "rules")


def _cards_text(cards: tuple[Card, ...] | Hand) -> str:
    return "".join(map(str, cards)) or "-"


def _meld_text(meld: Meld) -> str:
    placed = "".join(
        f"{card}+{seat}" if flag else str(card)
        for card, seat, flag in zip(meld.cards, meld.seats, meld.laid_off, strict=True)
    )
    return f"{meld.owner}:{placed}"


def format_fields(value: Any) -> str:
    """The position string of a state or a view, from its fields (a view has ``hand_sizes``)."""
    if not hasattr(value, "hand_sizes"):  # a state
        hands = "/".join(_cards_text(hand) for hand in value.hands)
        stock = _cards_text(value.stock)
        seat = ""
    else:
        shown = value.revealed_hands
        hands = "/".join(
            _cards_text(value.hand)
            if index == value.seat
            else _cards_text(shown[index])
            if shown is not None
            else f"?{size}"
            for index, size in enumerate(value.hand_sizes)
        )
        stock = f"?{value.stock_size}"
        seat = f" seat={value.seat}"
    melds = "/".join(_meld_text(meld) for meld in value.melds) or "-"
    must = "-" if value.must_meld is None else str(value.must_meld)
    out = "-" if value.went_out is None else str(value.went_out)
    rules = str(value.rules).replace(" ", ",")
    return (
        f"{hands} {stock} {_cards_text(value.discard_pile)} {melds}{seat} turn={value.current_player} "
        f"phase={value.phase.value} must={must} dealer={value.dealer} deal={value.deal_number} "
        f"scores={value.scores[0]},{value.scores[1]} passes={value.consecutive_passes} idle={value.idle_turns} "
        f"progress={int(value.turn_progress)} out={out} rules={rules}"
    )


def _parse_cards(text: str, what: str) -> tuple[Card, ...]:
    if text == "-":
        return ()
    if len(text) % 2:
        raise NotationError(f"{what} {excerpt(text)} is not cards written two characters each (like 4s5sJk), or '-'")
    cards = []
    for start in range(0, len(text), 2):
        card = CARD_BY_TEXT.get(text[start : start + 2])
        if card is None:
            raise NotationError(f"{what}: {excerpt(text[start : start + 2])} is not a card (like 4s, Th or Jk)")
        cards.append(card)
    return tuple(cards)


def _number(text: str, what: str) -> int:
    # No counter of a valid state reaches SCORE_LIMIT: refuse longer numbers before int().
    if text.isascii() and text.isdigit() and len(text) <= _DIGITS:
        return int(text)
    raise NotationError(f"{what} must be a whole number below {SCORE_LIMIT}, not {excerpt(text)}")


_DIGITS: Final = len(str(SCORE_LIMIT))


def _seat(text: str, what: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise NotationError(f"R3: {what} must be a seat 0-3, not {excerpt(text)}")
    return int(text)


def _integer(text: str, what: str) -> int:
    digits = text[1:] if text.startswith("-") else text
    return -_number(digits, what) if text.startswith("-") else _number(digits, what)


def _parse_meld(text: str) -> Meld:
    owner, colon, body = text.partition(":")
    if not colon:
        raise NotationError(f"the meld {excerpt(text)} does not start with its seat and ':' (like 0:7s7h7d)")
    seat = _seat(owner, f"the seat of the meld {excerpt(text)}")
    cards: list[Card] = []
    seats: list[int] = []
    flags: list[bool] = []
    index = 0
    while index < len(body):
        card = CARD_BY_TEXT.get(body[index : index + 2])
        if card is None:
            raise NotationError(
                f"the meld {excerpt(text)}: {excerpt(body[index : index + 2])} is not a card (like 4s, Th or Jk)"
            )
        index += 2
        if body[index : index + 1] == "+":
            cards.append(card)
            seats.append(_seat(body[index + 1 : index + 2], f"the seat after '+' in the meld {excerpt(text)}"))
            flags.append(True)
            index += 2
        else:
            cards.append(card)
            seats.append(seat)
            flags.append(False)
    if not cards:
        raise NotationError(f"the meld {excerpt(text)} has no cards")
    try:
        meld = Meld(cards, seats, flags)
    except InvalidArgumentError as error:
        raise NotationError(f"the meld {excerpt(text)} is not a meld: {error}") from None
    if meld.owner != seat:
        raise NotationError(f"the meld {excerpt(text)} has no card laid down by seat {seat}")
    return meld


def _split(text: str, kind: str) -> tuple[list[str], dict[str, str], int]:
    if not isinstance(text, str):
        raise NotationError(f"expected a {kind} position string, not {type(text).__name__}")
    if len(text) > POSITION_LIMIT:
        raise NotationError(f"a {kind} position string has at most {POSITION_LIMIT} characters, not {len(text)}")
    words = text.split(" ")
    if len(words) < 5:
        raise NotationError(
            f"a {kind} position string has hands, stock, pile, melds and named fields separated by "
            f"single spaces, not {excerpt(text.strip()[:80])}"
        )
    names = ("seat", *_FIELDS) if kind == "view" else _FIELDS
    if len(words) != 4 + len(names):
        raise NotationError(f"a {kind} position string has {4 + len(names)} fields, not {len(words)}")
    fields: dict[str, str] = {}
    for word, name in zip(words[4:], names, strict=True):
        key, equals, value = word.partition("=")
        if key != name or not equals:
            raise NotationError(f"expected the field {name}=... in a {kind} position string, not {excerpt(word[:40])}")
        fields[name] = value
    seat = _seat(fields["seat"], "seat") if kind == "view" else -1
    return words[:4], fields, seat


def _common(fields: dict[str, str], phases: Mapping[str, Any]) -> dict[str, object]:
    phase = phases.get(fields["phase"])
    if phase is None:
        raise NotationError(f"phase must be one of {', '.join(phases)}, not {excerpt(fields['phase'])}")
    must_text = fields["must"]
    must = None if must_text == "-" else CARD_BY_TEXT.get(must_text)
    if must_text != "-" and must is None:
        raise NotationError(f"must must be a card (like 7h) or '-', not {excerpt(must_text)}")
    first, comma, second = fields["scores"].partition(",")
    if not comma:
        raise NotationError(f"scores must be two whole numbers like 82,-30, not {excerpt(fields['scores'])}")
    progress = fields["progress"]
    if progress not in ("0", "1"):
        raise NotationError(f"progress must be 0 or 1, not {excerpt(progress)}")
    try:
        rules = Rules.parse(fields["rules"].replace(",", " "))
    except InvalidRulesError as error:
        raise NotationError(f"rules: {error}") from None
    return {
        "current_player": _seat(fields["turn"], "turn"),
        "dealer": _seat(fields["dealer"], "dealer"),
        "phase": phase,
        "must_meld": must,
        "deal_number": _number(fields["deal"], "deal"),
        "scores": (_integer(first, "scores"), _integer(second, "scores")),
        "rules": rules,
        "consecutive_passes": _number(fields["passes"], "passes"),
        "idle_turns": _number(fields["idle"], "idle"),
        "turn_progress": progress == "1",
        "went_out": None if fields["out"] == "-" else _seat(fields["out"], "out"),
    }


def _hand(text: str, seat: int) -> Hand:
    try:
        return Hand(_parse_cards(text, f"the hand of seat {seat}"))
    except (NotationError, InvalidArgumentError) as error:
        raise NotationError(f"the hand of seat {seat}: {error}") from None


def _hand_texts(words: list[str], kind: str) -> list[str]:
    hand_texts = words[0].split("/")
    if len(hand_texts) != PLAYERS:
        raise NotationError(f"R3: a {kind} has 4 hands separated by '/', not {len(hand_texts)}")
    return hand_texts


def _table(words: list[str]) -> dict[str, object]:
    # The discard pile and the melds, written alike for states and views.
    pile = _parse_cards(words[2], "the discard pile")
    melds = () if words[3] == "-" else tuple(_parse_meld(part) for part in words[3].split("/"))
    return {"discard_pile": pile, "melds": melds}


def parse_state_fields(text: str, phases: Mapping[str, Any]) -> dict[str, object]:
    """The fields of a state from its position string (``phases``: the phases by value);
    raises :class:`~persian_rummy.NotationError`. The state checks them."""
    words, fields, _ = _split(text, "state")
    hands = tuple(_hand(part, seat) for seat, part in enumerate(_hand_texts(words, "position")))
    stock = _parse_cards(words[1], "the stock")
    return {"hands": hands, "stock": stock, **_table(words), **_common(fields, phases)}


def parse_view_fields(text: str, phases: Mapping[str, Any]) -> dict[str, object]:
    """The fields of a view from its position string (``phases``: the phases by value);
    raises :class:`~persian_rummy.NotationError`. The view checks them."""
    words, fields, seat = _split(text, "view")
    hand_texts = _hand_texts(words, "view")
    hidden = [part.startswith("?") for part in hand_texts]
    if hidden[seat]:
        raise NotationError(f"R27: a view shows the viewer's own hand (seat {seat})")
    if any(hidden) and not all(hidden[index] for index in range(PLAYERS) if index != seat):
        raise NotationError("R27: a view hides the other three hands while the round is played, or shows them all")
    sizes: list[int] = []
    shown: list[Hand] = []
    for index, part in enumerate(hand_texts):
        if hidden[index]:
            sizes.append(_number(part[1:], f"the size of the hand of seat {index}"))
        else:
            shown.append(_hand(part, index))
            sizes.append(len(shown[-1]))
    if not words[1].startswith("?"):
        raise NotationError("R27: a view never shows the stock (write its size, like ?27)")
    stock_size = _number(words[1][1:], "the size of the stock")
    revealed = None if any(hidden) else tuple(shown)
    own = shown[0] if revealed is None else revealed[seat]
    return {
        "seat": seat,
        "hand": own,
        "hand_sizes": tuple(sizes),
        "stock_size": stock_size,
        **_table(words),
        "revealed_hands": revealed,
        **_common(fields, phases),
    }
