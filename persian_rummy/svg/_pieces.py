"""The pieces of a picture that are drawn again and again, each cached once drawn: a card
(face up or down) at a place, a text, a seat's label, a meld, a card of the discard pile,
the stock, the meld legend; with the sizes and the default colours they are drawn in
(internal; :mod:`persian_rummy.svg` lays them out)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from html import escape
from typing import Final

from persian_rummy.cards import Card, Suit
from persian_rummy.errors import InvalidStateError, excerpt
from persian_rummy.melds import Meld
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES, team_of
from persian_rummy.svg._theme import Theme, recolour, theme_of

WIDTH: Final = 1000

CARD_W: Final = 46

CARD_H: Final = 66

SMALL_W: Final = 40

SMALL_H: Final = 58

TEAM_COLOURS: Final = ("#1565c0", "#e65100")

_TEAM_LIGHT: Final = ("#e3f2fd", "#fff3e0")

FELT: Final = "#2e7d4f"

_RED: Final = "#c62828"

_BLACK: Final = "#1b1b1b"

_MARK: Final = "#00e5ff"  # the cards of the last action

_MUST: Final = "#ffb300"  # the card taken from the discard pile that must be melded (R14)

FONT: Final = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

# Suit symbols drawn on a 10 x 10 box, so the picture needs no font with suit glyphs.
_SUIT_PATHS: Final = (
    # spades
    '<path d="M5 0C7.6 2.6 10 4.3 10 6.4 10 7.9 8.9 8.9 7.6 8.9 6.8 8.9 6.1 8.5 5.7 7.9 '
    "5.8 8.8 6.2 9.5 6.9 10H3.1C3.8 9.5 4.2 8.8 4.3 7.9 3.9 8.5 3.2 8.9 2.4 8.9 1.1 8.9 0 7.9 0 6.4 "
    '0 4.3 2.4 2.6 5 0Z"/>',
    # hearts
    '<path d="M5 9.6C2.2 7.2 0 5.4 0 3.1 0 1.3 1.3 0 2.9 0 3.9 0 4.6 .6 5 1.4 5.4 .6 6.1 0 7.1 0 '
    '8.7 0 10 1.3 10 3.1 10 5.4 7.8 7.2 5 9.6Z"/>',
    # diamonds
    '<path d="M5 0 8.8 5 5 10 1.2 5Z"/>',
    # clubs
    '<circle cx="5" cy="2.6" r="2.4"/><circle cx="2.5" cy="6.1" r="2.4"/>'
    '<circle cx="7.5" cy="6.1" r="2.4"/><path d="M4.4 5H5.6L6.7 10H3.3Z"/>',
)

_STAR: Final = '<path d="M5 0 6.2 3.6 10 3.7 7 6 8.1 9.6 5 7.5 1.9 9.6 3 6 0 3.7 3.8 3.6Z"/>'


@functools.cache
def defs_piece() -> str:
    symbols = "".join(
        f'<symbol id="pr-suit-{letter}" viewBox="0 0 10 10">{path}</symbol>'
        for letter, path in zip("shdc", _SUIT_PATHS, strict=True)
    )
    symbols += f'<symbol id="pr-star" viewBox="0 0 10 10">{_STAR}</symbol>'
    back = (
        '<pattern id="pr-back" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#283f8c"/><rect width="4" height="8" fill="#3553b0"/></pattern>'
    )
    return f"<defs>{symbols}{back}</defs>"


# The pieces drawn again and again (a card at a place, a label) are kept once drawn: a server
# draws a picture per seat after every action, and most of each picture is what it drew before.
_PIECES: Final = 8192


@functools.lru_cache(maxsize=_PIECES)
def text_piece(x: float, y: float, content: str, *, size: float = 13, fill: str = _BLACK, anchor: str = "start", weight: str = "normal", extra: str = "") -> str:  # fmt: skip
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}" text-anchor="{anchor}" '
        f'font-weight="{weight}"{extra}>{escape(content)}</text>'
    )


def card(
    value: Card | str,
    x: float = 0,
    y: float = 0,
    *,
    small: bool = False,
    credit: int | None = None,
    laid_off: bool = False,
    highlight: bool = False,
    marked: bool = False,
    colors: Theme | Mapping[str, str] | None = None,
) -> str:
    """One face-up card as an SVG ``<g class="card" data-card="...">`` element, its top-left
    corner at ``(x, y)``.

    The rank and the suit are drawn in the top-left corner, so overlapping cards stay
    readable. ``credit`` draws a badge with the initial of the seat credited with the card,
    in its team's colour (R16); ``laid_off`` marks a card laid off after the meld was made
    with a dashed border; ``highlight`` outlines the card in gold (the card that must be
    melded, R14); ``marked`` outlines it in cyan (a card the last action moved). ``colors``
    is a :class:`Theme` or a mapping of its roles to colours (see :func:`table`).

    >>> card("Qs").startswith('<g class="card" data-card="Qs"')
    True
    >>> 'class="credit"' in card("7c", credit=1, laid_off=True)
    True
    """
    value = Card.parse(value)
    if credit is not None and credit not in range(4):
        raise InvalidStateError(f"R3: a card is credited to a seat 0-3, not {excerpt(credit)}")
    return recolour(card_piece(value, x, y, small, credit, laid_off, highlight, marked), theme_of(colors))


@functools.lru_cache(maxsize=_PIECES)
def card_piece(value: Card, x: float, y: float, small: bool, credit: int | None, laid_off: bool, highlight: bool, marked: bool) -> str:  # fmt: skip
    width, height = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
    classes = "card" + (" must-meld" if highlight else "") + (" marked" if marked else "")
    if value.is_joker:
        colour, rank, symbol = "#6a1b9a", "JK", "pr-star"
        title = "joker"
    else:
        suit = value.natural_suit
        colour = _RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK
        rank, symbol = ("10" if value.natural_rank == 10 else value.natural_rank.letter), f"pr-suit-{suit.letter}"
        title = value.symbol
    if credit is not None:
        title += f", credited to {SEAT_NAMES[credit]}" + (" (laid off)" if laid_off else "")
    border = 'stroke="#555" stroke-width="1.4" stroke-dasharray="3 2"' if laid_off else 'stroke="#9e9e9e"'
    parts = [
        f'<g class="{classes}" data-card="{value}" transform="translate({x:g},{y:g})">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" rx="4" fill="#fffdf7" {border}/>',
        text_piece(
            3 if len(rank) == 2 else 5, 14, rank, size=12.5 if len(rank) == 2 else 14, fill=colour, weight="bold"
        ),
        f'<use href="#{symbol}" x="4" y="18" width="12" height="12" fill="{colour}"/>',
        # A second small index at the top right stays visible when cards overlap vertically.
        f'<use href="#{symbol}" x="{width - 14:g}" y="4" width="10" height="10" fill="{colour}"/>',
        f'<use href="#{symbol}" x="{width / 2 - 4:g}" y="{height / 2 - 2:g}" width="{width / 2:g}" '
        f'height="{width / 2:g}" fill="{colour}" opacity="0.9"/>',
    ]
    if credit is not None:
        team = team_of(credit)
        parts.append(
            f'<g class="credit" data-seat="{credit}"><circle cx="10" cy="{height - 11}" r="8" '
            f'fill="{TEAM_COLOURS[team]}"/>'
            + text_piece(10, height - 7, SEAT_NAMES[credit][0], size=10, fill="#fff", anchor="middle", weight="bold")
            + "</g>"
        )
    if marked and highlight:
        # Both: the cyan ring inside, the gold one around it and drawn last, so neither hides
        # the other (the card taken that must be melded at once, R14).
        parts.append(
            f'<rect x="-1.5" y="-1.5" width="{width + 3}" height="{height + 3}" rx="4.5" fill="none" '
            f'stroke="{_MARK}" stroke-width="2"/>'
        )
        parts.append(
            f'<rect x="-4.5" y="-4.5" width="{width + 9}" height="{height + 9}" rx="7" fill="none" '
            f'stroke="{_MUST}" stroke-width="3"/>'
        )
    elif highlight:
        parts.append(
            f'<rect x="-3" y="-3" width="{width + 6}" height="{height + 6}" rx="6" fill="none" '
            f'stroke="{_MUST}" stroke-width="3"/>'
        )
    elif marked:
        parts.append(
            f'<rect x="-2.5" y="-2.5" width="{width + 5}" height="{height + 5}" rx="5" fill="none" '
            f'stroke="{_MARK}" stroke-width="2.5"/>'
        )
    parts.append("</g>")
    return "".join(parts)


@functools.lru_cache(maxsize=_PIECES)
def back_piece(x: float, y: float, *, small: bool = False) -> str:
    width, height = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
    return (
        f'<g class="card back" transform="translate({x:g},{y:g})"><rect width="{width}" height="{height}" rx="4" '
        f'fill="url(#pr-back)" stroke="#fff" stroke-width="1.5"/></g>'
    )


@functools.lru_cache(maxsize=_PIECES)
def seat_label_piece(seat: int, x: float, y: float, count: int, *, to_move: bool, status: str, anchor: str) -> str:
    team = team_of(seat)
    name = f"{SEAT_NAMES[seat]} ({seat}) · {count} card{'s' if count != 1 else ''}"
    width = 7.2 * len(name) + 16
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    fill = "#ffe082" if to_move else _TEAM_LIGHT[team]
    out = [
        f'<g class="seat" data-seat="{seat}" data-to-move="{str(to_move).lower()}">',
        f'<rect x="{left:g}" y="{y - 15:g}" width="{width:g}" height="21" rx="10" fill="{fill}" '
        f'stroke="{TEAM_COLOURS[team]}" stroke-width="{2.5 if to_move else 1.2}"/>',
        text_piece(left + width / 2, y, name, size=12.5, anchor="middle", weight="bold", fill=TEAM_COLOURS[team]),
    ]
    if status:
        status_x = left + width + 8 if anchor != "end" else left - 8
        out.append(
            text_piece(
                status_x,
                y,
                status,
                size=12.5,
                fill="#fff59d",
                anchor="start" if anchor != "end" else "end",
                weight="bold",
            )
        )
    out.append("</g>")
    return "".join(out)


@functools.lru_cache(maxsize=_PIECES)
def meld_piece(meld: Meld, number: int, x: float, y: float, step: float, doubled: bool, marked: int | None) -> tuple[str, float]:  # fmt: skip
    """A meld's cards, each with its credit badge, and its number (the ``MELD`` of a lay-off).
    ``marked`` is the position of a card the last action put there (every card for -1)."""
    parts = [f'<g class="meld" data-meld="{number}">', text_piece(x, y + 12, f"#{number}", size=11, fill="#e8f5e9")]
    left = x + 22
    for position, (value, seat, flag) in enumerate(zip(meld.cards, meld.seats, meld.laid_off, strict=True)):
        mark = marked == -1 or marked == position
        parts.append(card(value, left + position * step, y, small=True, credit=seat, laid_off=flag, marked=mark))
    right = left + (len(meld.cards) - 1) * step + SMALL_W
    if doubled:
        parts.append(text_piece(right + 3, y + 12, "×2", size=11, fill="#fff59d", weight="bold"))
        right += 20
    parts.append("</g>")
    return "".join(parts), right


def stock_piece(size: int, x: float, y: float) -> str:
    """The stock: three card backs (a dashed place when it is empty) and its count."""
    if size:
        pile = (
            f'<g class="stock" data-count="{size}">'
            + back_piece(x + 6, y + 18)
            + back_piece(x + 3, y + 15)
            + back_piece(x, y + 12)
            + "</g>"
        )
    else:
        pile = (
            f'<g class="stock" data-count="0"><rect x="{x:g}" y="{y + 12:g}" width="{CARD_W}" '
            f'height="{CARD_H}" rx="4" fill="none" stroke="#a5d6a7" stroke-dasharray="4 3"/></g>'
        )
    count = f"{size} card{'s' if size != 1 else ''}"
    return (
        text_piece(x, y, "Stock", size=12, fill="#e8f5e9", weight="bold")
        + pile
        + text_piece(x + CARD_W / 2 + 3, y + CARD_H + 36, count, size=12, fill="#fff", anchor="middle")
    )


@functools.lru_cache(maxsize=_PIECES)
def pile_card_piece(index: int, value: Card, x: float, top: float, marked: bool) -> str:
    """A card of the discard pile at its place, with its index above it (R13)."""
    index_text = text_piece(x + 4, top - 4, str(index), size=10.5, fill="#fff59d", extra=' class="pile-index"')
    return index_text + card_piece(value, x, top, False, None, False, False, marked)


@functools.lru_cache(maxsize=256)
def meld_legend_piece(count: int, x: float, y: float) -> str:
    """The melds' heading and the legend of the credit colours (R16) and of a laid-off card."""
    parts = [text_piece(x, y, f"Melds ({count})", size=12, fill="#e8f5e9", weight="bold")]
    legend_x = x + 80
    for team in (0, 1):
        parts.append(
            f'<circle cx="{legend_x + 6:g}" cy="{y - 4:g}" r="6" fill="{TEAM_COLOURS[team]}"/>'
            + text_piece(legend_x + 16, y, f"credited to {TEAM_NAMES[team]}", size=11, fill="#e8f5e9")
        )
        legend_x += 170
    parts.append(text_piece(legend_x, y, "dashed border: laid off", size=11, fill="#e8f5e9"))
    return "".join(parts)
