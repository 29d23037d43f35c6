"""Position strings: a whole state (or a player's view) on one line, like a chess FEN.

A position string names every card and every counter of a :class:`~persian_rummy.GameState`,
so it parses back to an equal state: use it in tests, bug reports and puzzles.
``repr(state)`` is ``GameState.parse('<position>')`` and pastes back as code.

>>> from persian_rummy import GameState, new_game
>>> state = new_game(1)
>>> text = state.position()
>>> text  # doctest: +NORMALIZE_WHITESPACE
'3s6sTsQs3h8h8c/Js2dJdQdTcJkJk/9sKsJh4d9d7cKc/As4h6hAh5dTd3c
 5s7h9hKd5cJkAcKhQc2c5h4c9c2hQhJk4s7s6d7d3d6c8s8dThJcAd 2s -
 turn=1 phase=draw must=- dealer=0 deal=1 scores=0,0 passes=0 idle=0 progress=0 out=- rules=default'
>>> GameState.parse(text) == state
True

The fields, separated by single spaces (EBNF)::

    position = hands " " stock " " pile " " melds [ " seat=" seat ]
               " turn=" seat " phase=" phase " must=" ( card | "-" )
               " dealer=" seat " deal=" number " scores=" integer "," integer
               " passes=" number " idle=" number " progress=" ( "0" | "1" )
               " out=" ( seat | "-" ) " rules=" rules ;
    hands    = hand "/" hand "/" hand "/" hand ;      (* seats 0, 1, 2, 3 *)
    hand     = cards | hidden ;
    stock    = cards | hidden ;                       (* bottom to top: the last is drawn next *)
    pile     = cards ;                                (* bottom to top: the last is the top card *)
    cards    = "-" | card { card } ;                  (* no spaces: "4s5sJk" *)
    hidden   = "?" number ;                           (* views only: how many hidden cards *)
    card     = rank suit | "Jk" ;
    rank     = "2" | ... | "9" | "T" | "J" | "Q" | "K" | "A" ;
    suit     = "s" | "h" | "d" | "c" ;
    melds    = "-" | meld { "/" meld } ;              (* in table order: lay-offs name them 0, 1, ... *)
    meld     = seat ":" placed { placed } ;           (* the seat that laid the meld down *)
    placed   = card [ "+" seat ] ;                    (* "+s": laid off later, credited to seat s *)
    phase    = "draw" | "meld" | "round_over" | "game_over" ;
    seat     = "0" | "1" | "2" | "3" ;
    rules    = "default" | knob { "," knob } ;         (* Rules text, "," between knobs *)

``turn`` is ``current_player``, ``must`` the card that must be melded (R14), ``passes``,
``idle`` and ``progress`` the counters of R20-R21, ``out`` the seat that went out (R18).
Canonical strings list hands in canonical order; hands may be given in any order.

**Decision:** error messages do not include the position string. It names every hidden card
(the other hands and the stock order), and servers forward error messages to players (R27).
An :class:`~persian_rummy.IllegalActionError` carries the state itself: for a bug report,
``error.state.position()`` reproduces it exactly.

A view's position (:meth:`~persian_rummy.PlayerView.position`) has ``seat=`` after the melds,
writes each hidden hand and the stock as ``?`` and a count (``?7``), and shows every hand once
the round is over (they are public then, R23):

>>> new_game(1).view(2).position()  # doctest: +ELLIPSIS
'?7/?7/9sKsJh4d9d7cKc/?7 ?27 2s - seat=2 turn=1 phase=draw must=- ...'
"""

from __future__ import annotations

from typing import Final

from persian_rummy.cards import CARD_BY_TEXT, Card
from persian_rummy.errors import InvalidArgumentError, InvalidRulesError, NotationError
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS, GameState, Phase
from persian_rummy.view import PlayerView

__all__ = ["format_position", "parse_position", "parse_view_position"]

_PHASES: Final = {phase.value: phase for phase in Phase}
_FIELDS: Final = ("turn", "phase", "must", "dealer", "deal", "scores", "passes", "idle", "progress", "out", "rules")


def _cards_text(cards: tuple[Card, ...] | Hand) -> str:
    return "".join(map(str, cards)) or "-"


def _meld_text(meld: Meld) -> str:
    placed = "".join(
        f"{card}+{seat}" if flag else str(card)
        for card, seat, flag in zip(meld.cards, meld.seats, meld.laid_off, strict=True)
    )
    return f"{meld.owner}:{placed}"


def format_position(value: GameState | PlayerView) -> str:
    """The position string of a state or a view (see the module documentation).

    >>> from persian_rummy import GameState
    >>> format_position(GameState.from_position(["", "4s 5s", "", ""], "9h", melds=["7s@0 7h@0 7d@0 7c+1"]))  # doctest: +ELLIPSIS
    '-/4s5s/-/- 2s3s6s8s9s...JkJkJk 9h 0:7s7h7d7c+1 turn=1 phase=draw must=- dealer=0 ...'
    """
    if isinstance(value, GameState):
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
        raise NotationError(f"{what} {text!r} is not cards written two characters each (like 4s5sJk), or '-'")
    cards = []
    for start in range(0, len(text), 2):
        card = CARD_BY_TEXT.get(text[start : start + 2])
        if card is None:
            raise NotationError(f"{what}: {text[start : start + 2]!r} is not a card (like 4s, Th or Jk)")
        cards.append(card)
    return tuple(cards)


def _number(text: str, what: str) -> int:
    # No length cap: scores (and deals) have no upper bound, so a valid state's counters may
    # have many digits; int() refuses only past Python's digit limit (a ValueError).
    try:
        if text.isascii() and text.isdigit():
            return int(text)
    except ValueError:
        pass
    raise NotationError(f"{what} must be a whole number, not {text[:40]!r}")


def _seat(text: str, what: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise NotationError(f"R3: {what} must be a seat 0-3, not {text!r}")
    return int(text)


def _integer(text: str, what: str) -> int:
    digits = text[1:] if text.startswith("-") else text
    return -_number(digits, what) if text.startswith("-") else _number(digits, what)


def _parse_meld(text: str) -> Meld:
    owner, colon, body = text.partition(":")
    if not colon:
        raise NotationError(f"the meld {text!r} does not start with its seat and ':' (like 0:7s7h7d)")
    seat = _seat(owner, f"the seat of the meld {text!r}")
    cards: list[Card] = []
    seats: list[int] = []
    flags: list[bool] = []
    index = 0
    while index < len(body):
        card = CARD_BY_TEXT.get(body[index : index + 2])
        if card is None:
            raise NotationError(f"the meld {text!r}: {body[index : index + 2]!r} is not a card (like 4s, Th or Jk)")
        index += 2
        if body[index : index + 1] == "+":
            cards.append(card)
            seats.append(_seat(body[index + 1 : index + 2], f"the seat after '+' in the meld {text!r}"))
            flags.append(True)
            index += 2
        else:
            cards.append(card)
            seats.append(seat)
            flags.append(False)
    if not cards:
        raise NotationError(f"the meld {text!r} has no cards")
    try:
        meld = Meld(cards, seats, flags)
    except InvalidArgumentError as error:
        raise NotationError(f"the meld {text!r} is not a meld: {error}") from None
    if meld.owner != seat:
        raise NotationError(f"the meld {text!r} has no card laid down by seat {seat}")
    return meld


def _split(text: str, kind: str) -> tuple[list[str], dict[str, str], int]:
    if not isinstance(text, str):
        raise NotationError(f"expected a {kind} position string, not {type(text).__name__}")
    words = text.split(" ")
    if len(words) < 5:
        raise NotationError(
            f"a {kind} position string has hands, stock, pile, melds and named fields separated by "
            f"single spaces, not {text.strip()[:80]!r}"
        )
    names = ("seat", *_FIELDS) if kind == "view" else _FIELDS
    if len(words) != 4 + len(names):
        raise NotationError(f"a {kind} position string has {4 + len(names)} fields, not {len(words)}")
    fields: dict[str, str] = {}
    for word, name in zip(words[4:], names, strict=True):
        key, equals, value = word.partition("=")
        if key != name or not equals:
            raise NotationError(f"expected the field {name}=... in a {kind} position string, not {word[:40]!r}")
        fields[name] = value
    seat = _seat(fields["seat"], "seat") if kind == "view" else -1
    return words[:4], fields, seat


def _common(fields: dict[str, str]) -> dict[str, object]:
    phase = _PHASES.get(fields["phase"])
    if phase is None:
        raise NotationError(f"phase must be one of {', '.join(_PHASES)}, not {fields['phase']!r}")
    must_text = fields["must"]
    must = None if must_text == "-" else CARD_BY_TEXT.get(must_text)
    if must_text != "-" and must is None:
        raise NotationError(f"must must be a card (like 7h) or '-', not {must_text!r}")
    first, comma, second = fields["scores"].partition(",")
    if not comma:
        raise NotationError(f"scores must be two whole numbers like 82,-30, not {fields['scores']!r}")
    progress = fields["progress"]
    if progress not in ("0", "1"):
        raise NotationError(f"progress must be 0 or 1, not {progress!r}")
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


def parse_position(text: str) -> GameState:
    """Parse a state's position string (see the module documentation); same as
    :meth:`GameState.parse <persian_rummy.GameState.parse>`.

    Raises :class:`~persian_rummy.NotationError` for text that is not a position string and
    :class:`~persian_rummy.InvalidStateError` for a position that cannot occur.

    >>> parse_position("-/-/-/- - - - turn=0 phase=draw must=- dealer=0 deal=1 scores=0,0 passes=0 idle=0 progress=0 out=- rules=default")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidStateError: R1: the position must hold exactly the 56 cards of the deck; missing: 2s 3s ... Ac Jk
    """
    words, fields, _ = _split(text, "state")
    hand_texts = words[0].split("/")
    if len(hand_texts) != PLAYERS:
        raise NotationError(f"R3: a position has 4 hands separated by '/', not {len(hand_texts)}")
    hands = tuple(_hand(part, seat) for seat, part in enumerate(hand_texts))
    stock = _parse_cards(words[1], "the stock")
    pile = _parse_cards(words[2], "the discard pile")
    melds = () if words[3] == "-" else tuple(_parse_meld(part) for part in words[3].split("/"))
    state = GameState(hands, stock, pile, melds, **_common(fields))  # type: ignore[arg-type]
    state.validate()
    return state


def parse_view_position(text: str) -> PlayerView:
    """Parse a view's position string (see the module documentation); same as
    :meth:`PlayerView.parse <persian_rummy.PlayerView.parse>`.

    Raises :class:`~persian_rummy.NotationError` for text that is not a view's position
    string and :class:`~persian_rummy.InvalidStateError` for a view that cannot occur.

    >>> from persian_rummy import new_game
    >>> view = new_game(1).view(2)
    >>> parse_view_position(view.position()) == view
    True
    """
    words, fields, seat = _split(text, "view")
    hand_texts = words[0].split("/")
    if len(hand_texts) != PLAYERS:
        raise NotationError(f"R3: a view has 4 hands separated by '/', not {len(hand_texts)}")
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
    pile = _parse_cards(words[2], "the discard pile")
    melds = () if words[3] == "-" else tuple(_parse_meld(part) for part in words[3].split("/"))
    revealed = None if any(hidden) else tuple(shown)
    own = shown[0] if revealed is None else revealed[seat]
    view = PlayerView(
        seat,
        own,
        tuple(sizes),
        stock_size,
        pile,
        melds,
        revealed_hands=revealed,
        **_common(fields),  # type: ignore[arg-type]
    )
    view.validate()
    return view
