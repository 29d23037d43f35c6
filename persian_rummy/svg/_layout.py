"""The layout of a picture of the table: where each seat's hand, label and the centre go,
the header, the score sheet, and the pictures assembled from the cached pieces
(:mod:`persian_rummy.svg._pieces`) for a state, a view or every seat at once (internal;
:mod:`persian_rummy.svg` is the public module)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from persian_rummy._table_text import melded_points
from persian_rummy.actions import Discard, DrawDiscard, DrawStock, LayOff, MeldCards
from persian_rummy.cards import Card
from persian_rummy.errors import ArgumentTypeError, InvalidStateError, excerpt
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld
from persian_rummy.presentation import narrate, result_text
from persian_rummy.scoring import score_round
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES, GameState, Phase
from persian_rummy.svg._pieces import (
    CARD_H,
    CARD_W,
    FELT,
    FONT,
    SMALL_H,
    SMALL_W,
    TEAM_COLOURS,
    WIDTH,
    back_piece,
    card_piece,
    defs_piece,
    meld_legend_piece,
    meld_piece,
    pile_card_piece,
    seat_label_piece,
    stock_piece,
    text_piece,
)
from persian_rummy.svg._theme import DEFAULT_THEME, Theme, recolour, theme_of
from persian_rummy.view import Observation, PlayerView


def _spacing(count: int, room: float, card_size: float, preferred: float) -> float:
    if count <= 1:
        return preferred
    return max(6.0, min(preferred, (room - card_size) / (count - 1)))


# East's and West's hands: columns of at most _SIDE_ROWS cards, each card showing its rank and
# suit above the next (_SIDE_STEP_Y) and beside the next column (_SIDE_STEP_X), so a long hand
# grows sideways into a grid instead of squeezing its cards together or down into South's.
_SIDE_ROWS: Final = 9

_SIDE_STEP_X: Final = 26

_SIDE_STEP_Y: Final = 32


def _side_shape(count: int) -> tuple[int, int]:
    """The columns and rows of a side hand of ``count`` cards, the columns as even as can be."""
    if count == 0:
        return 0, 0
    columns = -(-count // _SIDE_ROWS)
    return columns, -(-count // columns)


def _side_width(count: int) -> float:
    columns, _ = _side_shape(count)
    return 0 if columns == 0 else CARD_W + (columns - 1) * _SIDE_STEP_X


def _side_height(count: int) -> float:
    _, rows = _side_shape(count)
    return 0 if rows == 0 else CARD_H + (rows - 1) * _SIDE_STEP_Y


def _status(phase: Phase, seat: int, went_out: int | None, current: int) -> str:
    if phase is Phase.DRAW:
        return "to draw" if seat == current else ""
    if phase is Phase.MELD:
        return "to meld, lay off or discard" if seat == current else ""
    if went_out == seat:
        return "went out"
    return ""


def _symbol(value: Card) -> str:
    return "joker" if value.is_joker else value.symbol


def _last_text(last: Observation) -> str:
    """What the last action did, in words: ``West took T♣ 7♣ from the discard pile``."""
    return f"{SEAT_NAMES[last.seat]} {narrate(last.action, last.cards, card=_symbol, form='past')}"


def _meld_mark(last: Observation | None, melds: Sequence[Meld], number: int) -> int | None:
    """Which card of meld ``number`` the last action put on the table (-1: the whole meld)."""
    if last is None:
        return None
    action = last.action
    if isinstance(action, MeldCards) and number == len(melds) - 1 and sorted(action.cards) == sorted(melds[-1].cards):
        return -1
    if isinstance(action, LayOff) and number == action.meld:
        meld = melds[number]
        for position in reversed(range(len(meld))):
            if meld.laid_off[position] and meld.seats[position] == last.seat and meld.cards[position] == action.card:
                return position
    return None


def _score_sheet(state: GameState | PlayerView, x: float, y: float) -> tuple[str, float]:
    """The itemised score of a finished deal (R22-R25) and the running totals, with the
    result after the last deal (R26); returns the SVG and the y below it."""
    columns = ("melded", "laid off", "doubles", "in hand", "going out", "deal", "total")
    first, step = 110.0, 64.0
    width = first + step * len(columns) + 12
    over = state.phase is Phase.GAME_OVER
    bottom = y + (104 if over else 82)
    parts = [
        '<g class="score-sheet">',
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{bottom - y:g}" rx="6" fill="#fffdf7" stroke="#9e9e9e"/>',
        text_piece(x + 10, y + 18, f"Score sheet, deal {state.deal_number}", size=12.5, weight="bold"),
    ]
    for column, name in enumerate(columns):
        parts.append(text_piece(x + first + step * (column + 1), y + 36, name, size=11, anchor="end", fill="#555"))
    for row, score in enumerate(score_round(state)):
        line_y = y + 54 + 18 * row
        values = (score.melded, score.laid_off, score.doubles, -score.in_hand, score.going_out, score.total)
        parts.append(
            f'<g class="score-row" data-team="{score.team}">'
            + text_piece(x + 10, line_y, TEAM_NAMES[score.team], size=12, weight="bold", fill=TEAM_COLOURS[score.team])
            + "".join(
                text_piece(x + first + step * (column + 1), line_y, str(value), size=12, anchor="end")
                for column, value in enumerate((*values, state.scores[score.team]))
            )
            + "</g>"
        )
    if over:
        result = result_text(state, rule=True)
        parts.append(text_piece(x + 10, y + 96, result, size=12.5, weight="bold", extra=' class="result"'))
    parts.append("</g>")
    return "".join(parts), bottom


def table(
    position: GameState | PlayerView,
    *,
    title: str | None = None,
    last: Observation | None = None,
    spectator: bool = False,
    colors: Theme | Mapping[str, str] | None = None,
) -> str:
    """The table as an SVG document (a string), for a state or for one player's view.

    A :class:`~persian_rummy.GameState` shows every hand; a
    :class:`~persian_rummy.PlayerView` shows the viewer's hand and card backs for the other
    hands (every hand once the round is over, R23: ``revealed_hands``). ``title``
    replaces the first line of the header. ``last``, the action that led to ``position``
    as an :class:`~persian_rummy.Observation` (who played it, and the cards a draw took),
    is said in the header and its cards are outlined in cyan (the card
    discarded, the meld made, the card laid off, the cards drawn when they are face up).
    At the end of a deal the score sheet is shown below the melds.
    ``spectator=True`` draws a view's own hand face down too, for someone who watches the
    table and holds no hand (public information only, R27). ``colors`` overrides the
    colours: a :class:`Theme`, or a mapping of some of its roles to colours (the others keep
    the library's), as python-chess's ``colors=``.

    >>> from persian_rummy import GameState, Observation, play
    >>> state = GameState.from_position(["4s 9d", "5s 6s Kd", "Qh Qd", "2c 2d"], "4c 7s 9c 2h")
    >>> picture = table(state)
    >>> picture.count('class="card"'), picture.count('data-card="7s"')
    (13, 1)
    >>> 'data-card="Kd"' in table(state.view(0))
    False
    >>> after = play(state, "take 1")
    >>> picture = table(after, last=Observation.parse("E take 1 = 7s 9c 2h"))
    >>> 'East took 7♠ 9♣ 2♥ from the discard pile' in picture, picture.count('marked"')
    (True, 3)
    >>> cards_in(table(state.view(0), spectator=True))  # the discard pile only
    ['4c', '7s', '9c', '2h']
    >>> 'fill="#203040"' in table(state, colors={"felt": "#203040"})
    True
    """
    return "".join(table_parts(position, title=title, last=last, spectator=spectator, colors=colors))


class _Layout(NamedTuple):
    """Where the parts of a picture go, worked out from the hands' sizes (North's row at the
    top, the side hands' grids at the edges, the centre between them)."""

    header_height: int
    north_label_y: float
    north_y: float
    side_label_y: float
    side_y: float
    centre_left: float
    centre_right: float


@functools.lru_cache(maxsize=256)
def _layout(has_last: bool, north: int, west: int, east: int) -> _Layout:
    # Vertically: the header, North's label and hand (no band for an empty hand), the side
    # labels level with North's cards' bottom, then the centre and the side hands, then South.
    header_height = 58 if has_last else 40
    north_label_y = header_height + 24
    north_y = north_label_y + 12
    below_north = north_y + (CARD_H if north else 0)
    side_label_y = below_north - 6 if north else below_north + 22
    # Horizontally: West's and East's hands at the edges, the centre between them.
    centre_left = max(100.0, 22 + _side_width(west) + 32)
    centre_right = min(WIDTH - 100.0, WIDTH - 22 - _side_width(east) - 32)
    return _Layout(header_height, north_label_y, north_y, side_label_y, side_label_y + 14, centre_left, centre_right)


def table_parts(
    position: GameState | PlayerView,
    *,
    title: str | None = None,
    last: Observation | None = None,
    spectator: bool = False,
    colors: Theme | Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """:func:`table`'s picture as the pieces it is joined from, in order: the header's, each
    hand's cards, the seats' labels, the centre (stock, discard pile and melds) and the score
    sheet. Pictures of one position share most of their pieces as the very same strings (the
    centre, every face-down hand, the labels, a face-up hand), so a program that sends
    each seat its own picture can encode each distinct piece once, as the table server does.
    ``colors`` as for :func:`table`.

    >>> from persian_rummy import new_game
    >>> state = new_game(1)
    >>> north, south = table_parts(state.view(0)), table_parts(state.view(2))
    >>> "".join(north) == table(state.view(0))
    True
    >>> shared = {id(piece) for piece in north} & {id(piece) for piece in south}
    >>> sum(len(piece) for piece in north if id(piece) in shared) > len("".join(north)) // 2
    True
    """
    if isinstance(position, PlayerView):
        view = position
        revealed = view.revealed_hands
        hands: list[Hand | None] = [
            revealed[seat] if revealed else (view.hand if seat == view.seat and not spectator else None)
            for seat in range(4)
        ]
        sizes = list(view.hand_sizes)
        stock_size = view.stock_size
        if title is None:
            title = _title(position, " · public table" if spectator else f" · seen by {SEAT_NAMES[view.seat]}")
    elif isinstance(position, GameState):
        hands = list(position.hands)
        sizes = [len(hand) for hand in position.hands]
        stock_size = len(position.stock)
        if title is None:
            title = _title(position, "")
    else:
        raise ArgumentTypeError(f"table() draws a GameState or a PlayerView, not {type(position).__name__}")
    if last is not None and not isinstance(last, Observation):
        raise ArgumentTypeError(f"table(last=...) takes an Observation, not {type(last).__name__}")
    # A hand shown is drawn as it is, a hidden one as its size in backs.
    counts = [size if hand is None else len(hand) for hand, size in zip(hands, sizes, strict=True)]
    theme = theme_of(colors)
    return _themed(_assemble(_shared(position, counts, sizes, stock_size, last), position, hands, title, last), theme)


def _themed(parts: tuple[str, ...], theme: Theme) -> tuple[str, ...]:
    """A picture's pieces in ``theme``'s colours (the very pieces, in the default theme)."""
    return parts if theme == DEFAULT_THEME else tuple(recolour(part, theme) for part in parts)


def seat_tables(
    state: GameState, seats: Sequence[int | None], *, colors: Theme | Mapping[str, str] | None = None
) -> list[tuple[str, ...]]:
    """The pictures of ``state`` as each of ``seats`` sees it, as their pieces: for each seat,
    ``table_parts(state.view(seat))``, and for ``None``, a spectator's
    ``table_parts(state.view(0), spectator=True)``. What the pictures share (the header, the
    centre, the labels, the hands each of them shows face down) is drawn once for them all,
    as the table server does after every action. ``colors`` as for :func:`table`.

    >>> from persian_rummy import new_game
    >>> state = new_game(1)
    >>> north, watcher = seat_tables(state, [0, None])
    >>> north == table_parts(state.view(0)), watcher == table_parts(state.view(0), spectator=True)
    (True, True)
    """
    if not isinstance(state, GameState):
        raise ArgumentTypeError(f"seat_tables() draws a GameState, not {type(state).__name__}")
    theme = theme_of(colors)
    seats = list(seats)
    for seat in seats:
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            raise InvalidStateError(f"R3: a picture is for a seat 0-3 or None (a spectator), not {excerpt(seat)}")
    sizes = [len(hand) for hand in state.hands]
    shared = _shared(state, sizes, sizes, len(state.stock), None)
    revealed = None if state.phase.is_live else state.hands
    pictures = []
    for seat in seats:
        hands = [revealed[other] if revealed else (state.hands[other] if other == seat else None) for other in range(4)]
        whose = " · public table" if seat is None else f" · seen by {SEAT_NAMES[seat]}"
        pictures.append(_themed(_assemble(shared, state, hands, _title(state, whose), None), theme))
    return pictures


class _Shared(NamedTuple):
    """What every viewer's picture of one position holds alike: where things go, the
    header's turn and scores, the seats' labels, the centre and the score sheet."""

    layout: _Layout
    counts: tuple[int, ...]
    south_y: float
    opening: tuple[str, str, str]
    header: tuple[str, ...]
    labels: tuple[str, ...]
    centre: tuple[str, ...]


def _shared(
    position: GameState | PlayerView,
    counts: Sequence[int],
    sizes: Sequence[int],
    stock_size: int,
    last: Observation | None,
) -> _Shared:
    layout = _layout(last is not None, counts[0], counts[3], counts[1])
    pile, melds = position.discard_pile, position.melds
    discarded = last is not None and isinstance(last.action, Discard) and pile[-1:] == (last.action.card,)
    meld_marks = None if last is None else tuple(_meld_mark(last, melds, number) for number in range(len(melds)))
    centre, y = _centre(stock_size, pile, melds, discarded, meld_marks, position.rules.double_four_jokers, layout)
    pieces = list(centre)
    if not position.phase.is_live:
        sheet, y = _score_sheet(position, layout.centre_left, y)
        pieces.append(sheet)
        y += 20
    # South below the centre and both side hands.
    south_y = max(y, layout.side_y + _side_height(counts[3]) + 20, layout.side_y + _side_height(counts[1]) + 20)
    south_label_y = south_y + (CARD_H + 26 if counts[2] else 16)
    return _Shared(
        layout,
        tuple(counts),
        south_y,
        _opening(south_label_y + 24),
        tuple(_header(position, last)),
        tuple(_labels(position, sizes, layout, south_label_y)),
        tuple(pieces),
    )


def _assemble(
    shared: _Shared,
    position: GameState | PlayerView,
    hands: Sequence[Hand | None],
    title: str,
    last: Observation | None,
) -> tuple[str, ...]:
    """One viewer's picture: the shared pieces, its title and the hands as it sees them."""
    return (
        *shared.opening,
        _header_band(shared.layout.header_height),
        text_piece(14, 17, title, size=13, fill="#fff", weight="bold"),
        *shared.header,
        *_hands(position, hands, last, shared),
        *shared.labels,
        *shared.centre,
        "</svg>",
    )


@functools.lru_cache(maxsize=256)
def _opening(height: float) -> tuple[str, str, str]:
    """The picture's first pieces: the ``<svg>`` element's start, the symbols, the felt."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:g}" '
        f'viewBox="0 0 {WIDTH} {height:g}" font-family="{FONT}" class="persian-rummy-table">',
        defs_piece(),
        f'<rect width="{WIDTH}" height="{height:g}" rx="10" fill="{FELT}"/>',
    )


def _title(position: GameState | PlayerView, whose: str) -> str:
    return f"Persian Rummy · deal {position.deal_number} of {position.rules.deals} · {SEAT_NAMES[position.dealer]} dealt{whose}"


def _turn(position: GameState | PlayerView) -> str:
    """Whose turn it is and what to do, or how the deal ended."""
    phase, current, must = position.phase, position.current_player, position.must_meld
    if phase is Phase.DRAW:
        return f"{SEAT_NAMES[current]} to draw"
    if phase is Phase.MELD:
        turn = f"{SEAT_NAMES[current]} to meld, lay off or discard"
        if must is not None:
            turn += f" · must meld {must.symbol if not must.is_joker else 'a joker'} first (R14)"
        return turn
    over = "Game" if phase is Phase.GAME_OVER else "Deal"
    if position.went_out is not None:
        return f"{over} over: {SEAT_NAMES[position.went_out]} went out"
    return f"{over} over: nobody went out"


def _header(position: GameState | PlayerView, last: Observation | None) -> list[str]:
    """The header below its first line (the title, which says whose view it is): whose turn,
    the card to meld, the last action, the scores."""
    header = [text_piece(14, 34, _turn(position), size=12.5, fill="#fff59d", extra=' class="turn"')]
    if last is not None:
        header.append(
            text_piece(14, 51, "Last: " + _last_text(last), size=12.5, fill="#fff", extra=' class="last-action"')
        )
    header.extend(_scores(*position.scores, melded_points(position)))
    return header


@functools.lru_cache(maxsize=2)
def _header_band(height: int) -> str:
    return f'<rect width="{WIDTH}" height="{height}" fill="#1b3d2a"/>'


@functools.lru_cache(maxsize=256)
def _scores(north_south: int, east_west: int, melded: tuple[int, int] | None = None) -> tuple[str, str]:
    """The two teams' running scores at the header's right, East-West's rightmost; while a
    deal with melds is played, each team's points on the table beside (``+30``)."""
    scores = (north_south, east_west)
    parts = []
    score_x: float = WIDTH - 14
    for team in (1, 0):
        label = f"{TEAM_NAMES[team]} {scores[team]}" + ("" if melded is None else f" +{melded[team]}")
        width = 7.6 * len(label) + 16
        parts.append(
            f'<g class="score" data-team="{team}"><rect x="{score_x - width:g}" y="8" width="{width:g}" height="24" '
            f'rx="12" fill="{TEAM_COLOURS[team]}"/>'
            + text_piece(score_x - width / 2, 25, label, size=13, fill="#fff", anchor="middle", weight="bold")
            + "</g>"
        )
        score_x -= width + 8
    return parts[0], parts[1]


def _hands(
    position: GameState | PlayerView, hands: Sequence[Hand | None], last: Observation | None, shared: _Shared
) -> list[str]:
    """The four hands, North's and South's in rows, West's and East's in grids; a hand not
    shown is its count of card backs."""
    # The cards the last action put in its player's hand (a draw), outlined where face up.
    drawn = last.seat if last is not None and isinstance(last.action, (DrawStock, DrawDiscard)) else None
    must = position.must_meld
    current = position.current_player
    layout = shared.layout
    parts: list[str] = []
    for seat in (0, 2, 3, 1):
        count, hand = shared.counts[seat], hands[seat]
        top = layout.north_y if seat == 0 else shared.south_y if seat == 2 else layout.side_y
        if hand is None:
            parts.append(_backs(seat, count, top))
        else:
            marked = last.cards if seat == drawn and last is not None else ()
            parts.append(_face_up(seat, hand, count, top, must if seat == current else None, marked))
    return parts


@functools.lru_cache(maxsize=1024)
def _face_up(seat: int, hand: Hand, count: int, top: float, must: Card | None, drawn: tuple[Card, ...]) -> str:
    """A hand drawn face up, as one piece, the cards ``drawn`` by the last action outlined."""
    cards = "".join(_faces(hand, _places(seat, count, top), must, Counter(drawn)))
    return f'<g class="hand" data-seat="{seat}">{cards}</g>'


@functools.lru_cache(maxsize=1024)
def _places(seat: int, count: int, top: float) -> tuple[tuple[float, float], ...]:
    """Where the cards of a hand of ``count`` cards go: North's and South's in a row, centred
    and squeezed to fit; West's and East's in columns at the edges."""
    if seat in (0, 2):
        step = _spacing(count, WIDTH - 2 * 120, CARD_W, 24)
        x = WIDTH / 2 - ((count - 1) * step + CARD_W) / 2
        return tuple((x + position * step, top) for position in range(count))
    x = 22 if seat == 3 else WIDTH - 22 - _side_width(count)
    _, rows = _side_shape(count)
    return tuple(
        (x + position // rows * _SIDE_STEP_X, top + position % rows * _SIDE_STEP_Y) for position in range(count)
    )


@functools.lru_cache(maxsize=1024)
def _backs(seat: int, count: int, top: float) -> str:
    """A hand drawn face down, as one piece."""
    return (
        f'<g class="hand" data-seat="{seat}">'
        + "".join(back_piece(x, y) for x, y in _places(seat, count, top))
        + "</g>"
    )


def _faces(hand: Hand, places: Sequence[tuple[float, float]], must: Card | None, marks: Counter[Card]) -> list[str]:
    """A hand's cards face up, one piece each; the first card that must be melded (R14) is
    outlined in gold, the cards the last action drew in cyan."""
    parts = []
    outlined = False
    for value, (x, y) in zip(hand, places, strict=True):
        mark = not outlined and must is not None and value == must
        outlined = outlined or mark
        drawn = marks[value] > 0
        if drawn:
            marks[value] -= 1
        parts.append(card_piece(value, x, y, False, None, False, mark, drawn))
    return parts


def _labels(position: GameState | PlayerView, sizes: Sequence[int], layout: _Layout, south_label_y: float) -> list[str]:
    """Each seat's name, card count and status, beside its hand."""
    phase, current, live = position.phase, position.current_player, position.phase.is_live
    places = (
        (0, WIDTH / 2, layout.north_label_y, "middle"),
        (1, WIDTH - 14, layout.side_label_y, "end"),
        (2, WIDTH / 2, south_label_y, "middle"),
        (3, 14, layout.side_label_y, "start"),
    )
    return [
        seat_label_piece(
            seat,
            x,
            label_y,
            sizes[seat],
            to_move=live and current == seat,
            status=_status(phase, seat, position.went_out, current),
            anchor=anchor,
        )
        for seat, x, label_y, anchor in places
    ]


@functools.lru_cache(maxsize=256)
def _centre(
    stock_size: int,
    pile: tuple[Card, ...],
    melds: tuple[Meld, ...],
    discarded: bool,
    meld_marks: tuple[int | None, ...] | None,
    double_four_jokers: bool,
    layout: _Layout,
) -> tuple[tuple[str, ...], float]:
    """The centre of the table: the stock, the discard pile with each card's index (R13),
    then the melds with their credits (R16); and the y below it. The same for every seat's
    picture of a position, so it is drawn once for them all; its pieces (a card of the pile
    at its place, a meld) are the same strings from one action to the next."""
    left, right = layout.centre_left, layout.centre_right
    y: float = layout.side_y + 20
    parts = [stock_piece(stock_size, left, y)]
    pile_left = left + 90
    parts.append(
        text_piece(
            pile_left,
            y,
            f"Discard pile ({len(pile)}), bottom to top · take INDEX takes a card and all above it",
            size=12,
            fill="#e8f5e9",
            weight="bold",
        )
    )
    pile_step = 30.0
    per_row = max(1, int((right - pile_left - CARD_W) // pile_step) + 1)
    parts.append('<g class="discard-pile">')
    for index, value in enumerate(pile):
        row, column = divmod(index, per_row)
        x = pile_left + column * pile_step
        top = y + 26 + row * (CARD_H + 24)
        parts.append(pile_card_piece(index, value, x, top, discarded and index == len(pile) - 1))
    parts.append("</g>")
    pile_rows = max(1, -(-len(pile) // per_row))
    y = y + 26 + pile_rows * (CARD_H + 24) + 14
    parts.append(meld_legend_piece(len(melds), left, y))
    y += 12
    x = left
    meld_step = 22.0
    for number, meld in enumerate(melds):
        width = 22 + (len(meld) - 1) * meld_step + SMALL_W + (20 if meld.four_at_once else 0)
        if x + width > right and x > left:
            x = left
            y += SMALL_H + 12
        mark = None if meld_marks is None else meld_marks[number]
        piece, meld_right = meld_piece(meld, number, x, y, meld_step, meld.scores_double(double_four_jokers), mark)
        parts.append(piece)
        x = meld_right + 18
    y += (SMALL_H if melds else 0) + 20
    return tuple(parts), y


def cards_in(picture: str) -> list[str]:
    """The face-up cards of a picture made by :func:`table`, in document order (for tests
    and tools that read pictures back).

    >>> from persian_rummy import GameState
    >>> cards_in(table(GameState.from_position(["4s", "", "", ""], "9c").view(0)))
    ['4s', '9c']
    """
    import xml.etree.ElementTree as ET

    root = ET.fromstring(picture)
    return [
        element.attrib["data-card"]
        for element in root.iter("{http://www.w3.org/2000/svg}g")
        if "data-card" in element.attrib
    ]
