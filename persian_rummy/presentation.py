"""The game in words: how cards are written (:class:`Style`), an action told as a sentence
(:func:`narrate`, :func:`describe`), the table as text (:func:`styled_table`), the end of a
deal and of a game (:func:`round_end_text`, :func:`result_text`), the score sheet
(:func:`score_sheet`) and untrusted text made safe to print (:func:`visible`).

The command line prints these; the AI adapters render their text with them, and the
pictures of :mod:`persian_rummy.svg` say the last action and the result in the same words.

>>> from persian_rummy import GameState, play
>>> state = GameState.from_position(["9d", "5s 6s", "Qh", "2d"], "2c 7s", melds=["Js@0 Jh@0 Jd@0 Jc@0"])
>>> taken = play(state, "take 1")
>>> "East " + describe(state, DrawDiscard(1), taken, Style())
'East takes 7♠ from the discard pile (the 7♠ must be melded or laid off now, R14)'
>>> over = play(taken, "meld 5s 6s 7s")
>>> round_end_text(over)
'East goes out (R18).'
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Literal, TextIO

from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards, Pass
from persian_rummy.cards import Card, Suit
from persian_rummy.errors import PersianRummyError
from persian_rummy.melds import Meld, MeldKind
from persian_rummy.scoring import RoundScore, score_round, winner
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES, GameState, RoundEnd, team_of
from persian_rummy.view import PlayerView

__all__ = [
    "Style",
    "addressed",
    "describe",
    "narrate",
    "result_text",
    "round_end_text",
    "score_sheet",
    "styled_table",
    "visible",
]

#: A card as the library's messages write it (6s, Th, Jk), as a word of its own.
_CARD_IN_TEXT: Final = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][shdc]|Jk)(?![A-Za-z0-9])")


class Style:
    """How the command line writes cards: suit symbols or letters, with or without colour.

    >>> Style(colour=False).cards(Card.parse(text) for text in ("Th", "Jk"))
    'T♥ Jk'
    >>> Style(colour=True).card(Card.parse("Qd"))
    '\\x1b[31mQ♦\\x1b[0m'
    >>> Style(colour=False, symbols=False).card(Card.parse("Qd"))
    'Qd'
    """

    def __init__(self, *, colour: bool = False, symbols: bool = True) -> None:
        self.colour = colour
        self.symbols = symbols

    @classmethod
    def for_stream(cls, stream: TextIO, choice: str = "auto") -> Style:
        """The style for ``stream``: colour if ``choice`` is ``"always"``, or ``"auto"`` on a
        terminal with ``NO_COLOR`` unset; symbols if the stream's encoding has them.

        >>> import io
        >>> Style.for_stream(io.StringIO()).colour
        False
        """
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            "♠♥♦♣".encode(encoding)
            symbols = True
        except (UnicodeEncodeError, LookupError):
            symbols = False
        if choice == "always":
            colour = True
        elif choice == "never":
            colour = False
        else:
            colour = bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")
        return cls(colour=colour, symbols=symbols)

    def card(self, card: Card) -> str:
        """One card as text.

        >>> Style().card(Card.parse("4c"))
        '4♣'
        """
        text = card.symbol if self.symbols and not card.is_joker else str(card)
        if not self.colour:
            return text
        if card.is_joker:
            return f"\x1b[35m{text}\x1b[0m"
        if card.natural_suit in (Suit.HEARTS, Suit.DIAMONDS):
            return f"\x1b[31m{text}\x1b[0m"
        return text

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces; ``-`` for none.

        >>> Style().cards([])
        '-'
        """
        items = list(cards)
        return " ".join(self.card(card) for card in items) if items else "-"

    def in_text(self, text: str) -> str:
        """``text`` (a message of the library's, which writes cards as ``6s``) with its cards
        written as this style writes them, as the screen shows them.

        >>> Style().in_text("R17: seat 2 does not hold 6s or Jk")
        'R17: seat 2 does not hold 6♠ or Jk'
        >>> Style(symbols=False).in_text("R17: 6s")
        'R17: 6s'
        """
        if not self.symbols and not self.colour:
            return text
        return _CARD_IN_TEXT.sub(lambda match: self.card(Card.parse(match[0])), text)

    def bold(self, text: str) -> str:
        """Bold text, when colour is on.

        >>> Style().bold("x")
        'x'
        """
        return f"\x1b[1m{text}\x1b[0m" if self.colour else text


#: The verb of each kind of action: for a seat's name, for "you", and in the past tense.
_VERBS: Final[dict[type[Action], tuple[str, str, str]]] = {
    DrawStock: ("draws", "draw", "drew"),
    DrawDiscard: ("takes", "take", "took"),
    MeldCards: ("melds", "meld", "melded"),
    LayOff: ("lays off", "lay off", "laid off"),
    Discard: ("discards", "discard", "discarded"),
    Pass: ("passes", "pass", "passed"),
}
_FORMS: Final = ("seat", "you", "past")


def narrate(
    action: Action,
    cards: Sequence[Card] = (),
    *,
    card: Callable[[Card], str] = str,
    form: Literal["seat", "you", "past"] = "seat",
    target: Meld | None = None,
) -> str:
    """What ``action`` does, in words, without its subject: ``takes 7s 9c from the discard
    pile``. ``cards`` are the cards a draw moved, where they are shown (none: a card drawn
    from the stock that the reader may not see, R27); ``card`` writes one card. ``form`` is
    the verb's: for a seat's name (``takes``), for the player addressed (``take``) or what a
    seat did (``took``). ``target``, the meld before a lay-off, names its owner and its
    cards; without it, its number.

    >>> from persian_rummy import Card, Meld
    >>> narrate(DrawDiscard(1), [Card.parse("7s"), Card.parse("9c")])
    'takes 7s 9c from the discard pile'
    >>> narrate(DrawStock(), form="past")
    'drew from the stock'
    >>> narrate(Discard(Card.parse("Kd")), card=lambda card: card.symbol, form="you")
    'discard K♦'
    >>> narrate(LayOff(Card.parse("7c"), 0), target=Meld.parse("7s 7h 7d", seat=2))
    "lays off 7c on South's 7s 7h 7d (meld #0)"
    >>> narrate(LayOff(Card.parse("7c"), 0), form="past")
    'laid off 7c on meld #0'
    """
    verb = _VERBS[type(action)][_FORMS.index(form)]

    def written(values: Iterable[Card]) -> str:
        return " ".join(card(value) for value in values)

    if isinstance(action, DrawStock):
        return f"{verb} {written(cards)} from the stock" if cards else f"{verb} from the stock"
    if isinstance(action, DrawDiscard):
        taken = written(cards) if cards else f"the card at index {action.index} and all above it"
        return f"{verb} {taken} from the discard pile"
    if isinstance(action, MeldCards):
        return f"{verb} {written(action.cards)}"
    if isinstance(action, LayOff):
        on = f"meld #{action.meld}"
        if target is not None:
            on = f"{SEAT_NAMES[target.owner]}'s {written(target.cards)} ({on})"
        return f"{verb} {card(action.card)} on {on}"
    if isinstance(action, Discard):
        return f"{verb} {card(action.card)}"
    return verb


def describe(
    before: GameState,
    action: Action,
    after: GameState,
    style: Style,
    *,
    reveal: bool = True,
    used_by: Action | None = None,
    you: bool = False,
) -> str:
    """One action in words (:func:`narrate`), with what the rules make of it: the card taken
    that must be used (R14), a meld's kind and points (R24), the credit of a lay-off (R16).
    ``reveal`` says whether to name a card drawn from the stock (hidden from the other
    players, R27). For a discard-pile draw, ``used_by`` is the next action, which melds or
    lays off the card taken (R14), when it is known. The verb is for a seat's name
    (``takes``), or with ``you`` for the player at the terminal (``take``).

    >>> from persian_rummy import GameState, play
    >>> state = GameState.from_position(["4s 9d", "5s 6s Kd", "Qh Qd", "2c 2d"], "4c 7s 9c 2h")
    >>> after = play(state, "take 1")
    >>> describe(state, DrawDiscard(1), after, Style())
    'takes 7♠ 9♣ 2♥ from the discard pile (the 7♠ must be melded or laid off now, R14)'
    >>> describe(state, DrawDiscard(1), after, Style(), used_by=Action.parse("meld 5s 6s 7s"))
    'takes 7♠ 9♣ 2♥ from the discard pile (the 7♠ to be melded at once, R14)'
    >>> describe(state, DrawDiscard(1), after, Style(), you=True)
    'take 7♠ 9♣ 2♥ from the discard pile (the 7♠ must be melded or laid off now, R14)'
    """
    seat = before.current_player
    form: Literal["seat", "you"] = "you" if you else "seat"
    if isinstance(action, DrawStock):
        drawn = tuple(after.hands[seat] - before.hands[seat]) if reveal else ()
        return narrate(action, drawn, card=style.card, form=form)
    if isinstance(action, DrawDiscard):
        text = narrate(action, before.discard_pile[action.index :], card=style.card, form=form)
        if after.must_meld is not None:
            card = style.card(after.must_meld)
            if isinstance(used_by, LayOff):
                text += f" (the {card} to be laid off at once, R14)"
            elif isinstance(used_by, MeldCards):
                text += f" (the {card} to be melded at once, R14)"
            elif before.rules.pickup_use == "new_meld_only":
                text += f" (the {card} must be melded now, R14)"
            else:
                text += f" (the {card} must be melded or laid off now, R14)"
        return text
    if isinstance(action, MeldCards):
        meld = after.melds[-1] if after.melds and len(after.melds) > len(before.melds) else None
        points = sum(card.points for card in action.cards)
        kind = "run" if meld is not None and meld.kind is MeldKind.RUN else "set"
        extra = ""
        if meld is not None and meld.scores_double(before.rules.double_four_jokers):
            extra = f", four at once: doubled to {2 * points}, R24"
        return f"{narrate(action, card=style.card, form=form)} ({kind}, {points} points{extra})"
    if isinstance(action, LayOff):
        target = before.melds[action.meld]
        credit = TEAM_NAMES[team_of(seat)]
        return f"{narrate(action, card=style.card, form=form, target=target)}, credited to {credit}"
    if isinstance(action, Pass):
        return f"{narrate(action, form=form)} (the stock is empty)"
    return narrate(action, card=style.card, form=form)


def addressed(error: PersianRummyError, seat: int, style: Style | None = None) -> str:
    """``error``'s public reason (its ``reason``, which names no hidden card) in words
    for the player at ``seat`` who tried the action: ``you`` for that seat, the other seats by
    name, and the card the action named (the mover's own: tell it to the mover only).

    >>> from persian_rummy import GameState, play
    >>> state = GameState.from_position(["4s 9d", "5s 6s Kd", "Qh Qd", "2c 2d"], "4c 7s 9c 2h")
    >>> def refusal(action, seat):
    ...     try:
    ...         play(state, action, seat=seat)
    ...     except PersianRummyError as error:
    ...         return error.reason, addressed(error, seat)
    >>> refusal("draw", 2)
    ("R6: it is seat 1's turn, not seat 2's", "R6: it is East's turn, not yours")
    >>> after = play(state, "draw")
    >>> try:
    ...     play(after, "meld 5s 6s 7s", seat=1)
    ... except PersianRummyError as error:
    ...     print(error.reason, "|", addressed(error, 1))
    R15: seat 1 does not hold every card of the meld | R15: you do not hold 7♠
    """
    style = Style() if style is None else style
    reason = error.reason
    action = getattr(error, "action", None)
    state = getattr(error, "state", None)
    if isinstance(action, LayOff | Discard):
        reason = reason.replace("the card named", style.card(action.card))
    if isinstance(action, MeldCards) and "every card of the meld" in reason and state is not None:
        hand = state.hand if isinstance(state, PlayerView) else getattr(state, "hands", [()] * 4)[seat]
        held = list(hand)
        missing = []
        for card in action.cards:
            if card in held:
                held.remove(card)
            else:
                missing.append(card)
        if missing:
            reason = reason.replace("every card of the meld", style.cards(missing))
    reason = reason.replace(f"not seat {seat}'s", "not yours")
    # The mover ("seat 0", or "the player" of a reason that names no seat) is "you", the verb
    # after it agreeing ("seat 0 has already drawn" -> "you have already drawn"), and the
    # mover's "they" and "their" are "you" and "your".
    reason, addressed_to_you = re.subn(
        rf"\b(?:seat {seat}|the player)\b( (?:{'|'.join(_TO_YOU)})\b)?",
        lambda found: "you" + (" " + _TO_YOU[found[1].strip()] if found[1] else ""),
        reason,
    )
    if addressed_to_you:
        reason = re.sub(r"\bthey\b", "you", re.sub(r"\btheir\b", "your", reason))
    reason = re.sub(r"\bseat ([0-3])\b", lambda found: SEAT_NAMES[int(found[1])], reason)
    return style.in_text(reason)


#: A verb after a seat, said to that seat (the modal verbs "must" and "may" stay as they are).
_TO_YOU: Final = {
    "has": "have",
    "does": "do",
    "is": "are",
    "was": "were",
    "holds": "hold",
    "must": "must",
    "may": "may",
    "can": "can",
    "cannot": "cannot",
    "would": "would",
}


def round_end_text(state: GameState | PlayerView) -> str:
    """Why a finished deal ended, as a sentence: who went out (R18), the passes once the
    stock was empty (R20) or the turns without progress (R21).

    >>> from persian_rummy import GameState, play
    >>> state = GameState.from_position(["9d", "5s 6s", "Qh", "2d"], "2c 7s")
    >>> round_end_text(play(play(state, "take 1"), "meld 5s 6s 7s"))
    'East goes out (R18).'
    """
    end = state.round_end
    if end is RoundEnd.WENT_OUT and state.went_out is not None:
        return f"{SEAT_NAMES[state.went_out]} goes out (R18)."
    if end is RoundEnd.PASSED:
        return "The stock is empty and the players passed: the deal ends without anyone going out (R20)."
    return "Eight turns went by with no progress: the deal ends without anyone going out (R21)."


def result_text(state: GameState | PlayerView, *, rule: bool = False) -> str:
    """The result of a finished game (R26), without a full stop: the winners and the scores,
    or the draw (which names its rule). ``rule`` names the rule after a win too.

    >>> from persian_rummy import GameState, Rules, play
    >>> state = GameState.from_position(["9d", "5s 6s", "Qh", "2d"], "2c 7s", rules=Rules(deals=1))
    >>> over = play(play(state, "take 1"), "meld 5s 6s 7s")
    >>> result_text(over)
    'East-West win, 41 to -19'
    >>> result_text(over, rule=True)
    'East-West win, 41 to -19 (R26)'
    """
    team = winner(state)
    if team is None:
        return f"The game is a draw, {state.scores[0]} all (R26)"
    text = f"{TEAM_NAMES[team]} win, {state.scores[team]} to {state.scores[1 - team]}"
    return f"{text} (R26)" if rule else text


def score_sheet(state: GameState | PlayerView, style: Style) -> str:
    """The itemised score sheet of a finished deal (R22-R25), with the running totals; for a
    view, from the hands revealed at the end of the deal.

    >>> from persian_rummy import GameState, play
    >>> state = GameState.from_position(["9d", "5s 6s", "Qh", "2d"], "2c 7s", melds=["Js@0 Jh@0 Jd@0 Jc@0"])
    >>> print(score_sheet(play(play(state, "take 1"), "meld 5s 6s 7s"), Style()))
    Score sheet, deal 1
                   melded laid off doubles in hand going out   deal  total
      North-South      40        0      40     -19         0     61     61
      East-West        18        0       0      -2        25     41     41

    It is 71 characters wide: it fits an 80-column terminal.
    """
    rows = [
        style.bold(f"Score sheet, deal {state.deal_number}"),
        " " * 15 + f"{'melded':>6}{'laid off':>9}{'doubles':>8}{'in hand':>8}{'going out':>10}{'deal':>7}{'total':>7}",
    ]
    score: RoundScore
    for score in score_round(state):
        rows.append(
            f"  {TEAM_NAMES[score.team]:<13}{score.melded:>6}{score.laid_off:>9}{score.doubles:>8}"
            f"{-score.in_hand:>8}{score.going_out:>10}{score.total:>7}{state.scores[score.team]:>7}"
        )
    return "\n".join(rows)


def styled_table(position: PlayerView | GameState, style: Style) -> str:
    """The table as text, as a view's seat sees it (or everything, for a state), its cards
    written in ``style`` and its header in bold.

    >>> from persian_rummy import new_game
    >>> print(styled_table(new_game(1).view(2), Style()))  # doctest: +NORMALIZE_WHITESPACE
    Deal 1 of 2 · North dealt · North-South 0, East-West 0 · stock 27
      North  7 cards
      East   7 cards   <- to draw
      South  7 cards   (you)
      West   7 cards
      Discard pile (index: card, bottom to top): 0:2♠
      Melds: none
      Your hand: 9♠ K♠ J♥ 4♦ 9♦ 7♣ K♣
    """
    return position.text(card=style.card, bold=style.bold)


#: Character categories a terminal may act on instead of showing: controls (escape, bell,
#: carriage return), formats (bidirectional overrides), line and paragraph separators,
#: surrogates, private use and unassigned code points.
_INVISIBLE: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def visible(text: str) -> str:
    """``text`` from an untrusted source (a record's names and comments) made safe to print:
    every character a terminal could act on instead of showing is written as its escape.

    >>> print(visible("Ann\\x1b[2J\\x07 \\u202eevil"))
    Ann\\x1b[2J\\x07 \\u202eevil
    """
    if text.isprintable():
        return text
    return "".join(
        char
        if unicodedata.category(char) not in _INVISIBLE
        else char.encode("unicode_escape", "backslashreplace").decode("ascii")
        for char in text
    )
