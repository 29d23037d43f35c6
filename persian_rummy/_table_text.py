"""The table as plain text (internal): what ``print(state)`` and ``print(view)`` show, and
the styled table of :mod:`persian_rummy.presentation`, with its colours and suit symbols.

It reads only fields that a :class:`~persian_rummy.GameState` and a
:class:`~persian_rummy.PlayerView` share, and is handed the hands to show, so it imports
neither and both can use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from persian_rummy._bits import team_of
from persian_rummy._phase import SharedFields
from persian_rummy.cards import Card
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld, credits


def _plain(text: str) -> str:
    return text


def cards_text(cards: Iterable[Card], card: Callable[[Card], str] = str) -> str:
    """Cards separated by spaces; ``-`` for none."""
    items = [card(value) for value in cards]
    return " ".join(items) if items else "-"


def meld_text(meld: Meld, seat_names: Sequence[str], card: Callable[[Card], str] = str) -> str:
    """A meld with its credits: ``7s 7h 7d (North) + laid off 7c by East`` (R16)."""
    original = [value for value, flag in zip(meld.cards, meld.laid_off, strict=True) if not flag]
    text = f"{cards_text(original, card)} ({seat_names[meld.owner]})"
    extra = [
        f"{card(value)} by {seat_names[seat]}"
        for value, seat, flag in zip(meld.cards, meld.seats, meld.laid_off, strict=True)
        if flag
    ]
    if extra:
        text += " + laid off " + ", ".join(extra)
    return text


def _scores(position: SharedFields, team_names: Sequence[str]) -> str:
    """The game's scores; while a deal is played with melds on the table, each team's points
    in them beside (the deal is scored when it ends, R23, so the scores alone would stay 0-0
    however much is melded)."""
    scores = position.scores
    on_table = melded_points(position)
    if on_table is None:
        return f"{team_names[0]} {scores[0]}, {team_names[1]} {scores[1]}"
    return ", ".join(f"{team_names[team]} {scores[team]} (+{on_table[team]} melded)" for team in (0, 1))


def melded_points(position: SharedFields) -> tuple[int, int] | None:
    """Each team's points on the table while a deal with melds is played (laid-off cards, R16,
    and doubles, R24, counted as the deal's score will count them), else ``None``: shown beside
    the game's scores, which change only when the deal is scored (R23)."""
    if not position.phase.is_live or not position.melds:
        return None
    on_table = [0, 0]
    for meld in position.melds:
        first_melded, second_melded, first_laid, second_laid = credits(meld)
        on_table[0] += first_melded + first_laid
        on_table[1] += second_melded + second_laid
        if meld.scores_double(position.rules.double_four_jokers):  # a set of four melded at once (R24)
            on_table[team_of(meld.owner)] += meld.points
    return on_table[0], on_table[1]


def format_table(
    position: SharedFields,
    *,
    hands: Sequence[Hand | None],
    sizes: Sequence[int],
    stock: int,
    viewer: int | None,
    seat_names: Sequence[str],
    team_names: Sequence[str],
    card: Callable[[Card], str] = str,
    bold: Callable[[str], str] = _plain,
) -> str:
    """The table written from the fields a state and a view share and the hands to show, one
    line per seat: ``hands[seat]`` is shown, or only its size when ``None`` (a hidden hand,
    R27); ``viewer`` is the seat whose view this is, if any."""
    lines = [
        bold(
            f"Deal {position.deal_number} of {position.rules.deals} · {seat_names[position.dealer]} dealt · "
            f"{_scores(position, team_names)} · stock {stock}"
        )
    ]
    for seat in range(len(seat_names)):
        line = f"  {seat_names[seat]:<6} {sizes[seat]} card{'s' if sizes[seat] != 1 else ' '}"
        hand = hands[seat]
        if hand is not None and seat != viewer:
            line += f"  {cards_text(hand, card)}"
        if position.phase.is_live and seat == position.current_player:
            line += "   <- " + ("to draw" if position.phase.name == "DRAW" else "to meld, lay off or discard")
        elif seat == viewer:
            line += "   (you)"
        if position.went_out == seat:
            line += "   went out"
        lines.append(line.rstrip())
    pile = " ".join(f"{index}:{card(value)}" for index, value in enumerate(position.discard_pile)) or "empty"
    lines.append(f"  Discard pile (index: card, bottom to top): {pile}")
    if position.melds:
        lines.append("  Melds:")
        lines.extend(f"    #{number} {meld_text(meld, seat_names, card)}" for number, meld in enumerate(position.melds))
    else:
        lines.append("  Melds: none")
    if viewer is not None:
        hand = hands[viewer]
        lines.append(f"  Your hand: {cards_text(hand or (), card)}")
        if position.must_meld is not None and viewer == position.current_player:
            lines.append(f"  You must meld or lay off the {card(position.must_meld)} now (R14).")
    elif position.must_meld is not None:
        lines.append(
            f"  {seat_names[position.current_player]} must meld or lay off the {card(position.must_meld)} now (R14)."
        )
    return "\n".join(lines)
