"""A table: one game played by four seats (people or bots), with its secret tokens.

The table holds the authoritative :class:`~persian_rummy.GameState`; it applies each action
for the seat that sent it (``play(..., seat=...)``), numbers the accepted actions (``seq``,
counted over the whole game) and deals the next deal as soon as one ends (R7). What each
seat is sent is built here (:meth:`Table.frame`): its own :class:`~persian_rummy.PlayerView`,
its picture (:func:`persian_rummy.svg.table`) and its legal actions, never another hand (R27).

>>> table = Table.new(seats=("human", "greedy", "greedy", "greedy"), seed=7)
>>> table.seq, table.state.deal_number, table.bots[0] is None, table.bots[1] is not None
(0, 1, True, True)
>>> frame = table.frame(0)
>>> frame["type"], frame["seat"], frame["view"]["seat"], "".join(frame["picture"]).startswith("<svg")
('state', 0, 0, True)
>>> table.frame(None)["view"] is None  # a spectator sees the public table only
True
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii
from typing import Any, Final

import attrs

from persian_rummy.actions import Action
from persian_rummy.arena import deal_seed
from persian_rummy.bots import Bot, make_bot
from persian_rummy.dealing import new_game, next_deal
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import NotationError
from persian_rummy.record import GameRecord, dumps
from persian_rummy.rules import Rules
from persian_rummy.scoring import score_round
from persian_rummy.serialization import views_to_json
from persian_rummy.state import PLAYERS, SEAT_NAMES, TEAM_NAMES, GameState, Phase
from persian_rummy.svg import seat_tables

__all__ = ["HUMAN", "StateFrame", "Table", "new_token"]

#: The seat kind of a person (any other kind is a bot's name, see :func:`~persian_rummy.bots.make_bot`).
HUMAN: Final = "human"
#: The longest player name a table accepts.
MAX_NAME: Final = 40
#: The largest value of a bot's knob (``mc:samples=8``) a table accepts.
MAX_KNOB: Final = 32


def new_token() -> str:
    """A fresh unguessable token (128 random bits, URL-safe text) for a seat or spectator link.

    >>> len(new_token()), new_token() != new_token()
    (22, True)
    """
    return secrets.token_urlsafe(16)


def _check_names(names: Sequence[str]) -> tuple[str, ...]:
    if len(names) != PLAYERS:
        raise NotationError(f"R3: a table has 4 player names, not {len(names)}")
    cleaned = []
    for name in names:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            raise NotationError(f"a player name is 1-{MAX_NAME} printable characters, not {name!r}")
        cleaned.append(name.strip())
    return tuple(cleaned)


@attrs.define(eq=False)
class Table:
    """One game at one table. Build it with :meth:`new` (a fresh game) or :meth:`resume`
    (replaying the accepted actions of a stored game).

    Its fields are the attributes below. The server expires the tables nobody plays
    (:attr:`played`, :attr:`created`) and the idle ones (:attr:`touched`).

    >>> table = Table.new(seats=("greedy",) * 4, seed=1)
    >>> while table.state.phase is not Phase.GAME_OVER:
    ...     seat = table.state.current_player
    ...     _ = table.apply(seat, table.bots[seat](table.state.view(seat)))
    >>> table.finished, table.seq == sum(len(deal) for deal in table.deals), len(table.deals)
    (True, True, 2)
    """

    #: The table's id, in its links and the database.
    id: str
    #: The :class:`~persian_rummy.Rules` of the game.
    rules: Rules
    #: The seed that shuffles every deal (:func:`~persian_rummy.arena.deal_seed`); it never
    #: leaves the server.
    seed: int
    #: The first deal's dealer (R4).
    dealer: int
    #: ``"human"`` or a bot's name, per seat.
    seats: tuple[str, ...]
    #: The name shown for each seat.
    names: tuple[str, ...]
    #: The bot playing each bot seat (``None`` for people).
    bots: tuple[Bot | None, ...]
    #: The game as it stands.
    state: GameState
    #: The actions of each deal so far.
    deals: list[list[Action]]
    #: The number of actions accepted so far, every deal's.
    seq: int = 0
    #: The last state of the latest finished deal (every hand is public then, R23), shown with
    #: its score sheet.
    ended: GameState | None = None
    #: The address of the client that created the table (``""`` when not known).
    owner: str = ""
    #: When the table was created, in seconds since the epoch.
    created: float = attrs.field(factory=time.time)
    #: When an action was last played at the table, in seconds since the epoch.
    touched: float = attrs.field(factory=time.time)
    #: Whether a person (not a bot) has played at the table.
    played: bool = False

    @classmethod
    def new(
        cls,
        *,
        seats: Sequence[str],
        rules: Rules = Rules(),
        names: Sequence[str] = SEAT_NAMES,
        seed: int | None = None,
        dealer: int | None = None,
        table_id: str | None = None,
    ) -> Table:
        """A fresh table: ``seats`` gives ``"human"`` or a bot name for each seat 0-3; the seed
        and the first dealer are drawn at random unless given. Raises
        :class:`~persian_rummy.NotationError` for a bad seat kind or name.

        >>> Table.new(seats=("human", "nobody", "greedy", "greedy"))
        Traceback (most recent call last):
        ...
        persian_rummy.errors.NotationError: 'nobody' is not a bot (expected one of random, greedy, montecarlo, mc, neural)
        """
        if len(seats) != PLAYERS:
            raise NotationError(f"R3: a table has 4 seats, not {len(seats)}")
        # 128 bits, as the library asks of a secret seed: nobody can search the seeds for a deal.
        seed = secrets.randbits(128) if seed is None else seed
        dealer = secrets.randbelow(PLAYERS) if dealer is None else dealer
        state = new_game(deal_seed(seed, 1), dealer=dealer, rules=rules)
        return cls(
            table_id or secrets.token_hex(8),
            rules,
            seed,
            dealer,
            tuple(seats),
            _check_names(names),
            _make_bots(seats, seed),
            state,
            [[]],
        )

    @classmethod
    def resume(
        cls,
        *,
        table_id: str,
        seats: Sequence[str],
        rules: Rules,
        names: Sequence[str],
        seed: int,
        dealer: int,
        actions: Sequence[tuple[int, str]],
    ) -> Table:
        """The table after replaying the stored ``(seat, action text)`` pairs in order (what
        the server does on start for every unfinished game).

        >>> table = Table.new(seats=("greedy",) * 4, seed=5, dealer=0, table_id="t")
        >>> _ = table.apply(1, "draw")
        >>> again = Table.resume(table_id="t", seats=table.seats, rules=table.rules, names=table.names,
        ...                      seed=5, dealer=0, actions=[(1, "draw")])
        >>> again.state == table.state, again.seq
        (True, 1)
        """
        table = cls.new(seats=seats, rules=rules, names=names, seed=seed, dealer=dealer, table_id=table_id)
        for seat, text in actions:
            table.apply(seat, Action.parse(text))
        return table

    @property
    def finished(self) -> bool:
        """Whether the game is over (R7, R26).

        >>> Table.new(seats=("human",) * 4).finished
        False
        """
        return self.state.phase is Phase.GAME_OVER

    def apply(self, seat: int, action: Action | str) -> GameState:
        """Play ``action`` for ``seat`` and return the state it leads to: the next deal's first
        state when the action ends a deal that is not the last. Raises what
        :func:`~persian_rummy.play` raises (a seat not to move, an illegal action), changing
        nothing. Same as :meth:`check` then :meth:`commit`.

        >>> from persian_rummy import NotYourTurnError
        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> try:
        ...     table.apply(2, "draw")
        ... except NotYourTurnError as error:
        ...     print(error.reason)  # what the server relays: no card, no position
        R6: it is seat 1's turn, not seat 2's
        """
        action, after = self.check(seat, action)
        return self.commit(action, after)

    def check(self, seat: int, action: Action | str) -> tuple[Action, GameState]:
        """The action (parsed) and the state it leads to, if ``seat`` may play it now; raises
        what :func:`~persian_rummy.play` raises. The table does not change (the server stores
        the action between this and :meth:`commit`).

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> action, after = table.check(1, "draw")
        >>> action, after.phase.name, table.seq
        (DrawStock(), 'MELD', 0)
        """
        if isinstance(action, str):
            action = Action.parse(action)
        return action, play(self.state, action, seat=seat)

    def commit(self, action: Action, after: GameState) -> GameState:
        """Record ``action``, checked by :meth:`check` on the current state, leading to ``after``;
        deal the next deal if it ended one (R7). Returns the new current state.

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> table.commit(*table.check(1, "draw")).phase.name, table.seq
        ('MELD', 1)
        """
        self.played = self.played or self.bots[self.state.current_player] is None
        self.touched = time.time()
        self.deals[-1].append(action)
        self.seq += 1
        self.state = after
        if after.phase is Phase.ROUND_OVER:
            self.ended = after
            self.state = next_deal(after, deal_seed(self.seed, after.deal_number + 1))
            self.deals.append([])
        return self.state

    def record(self) -> GameRecord:
        """The full game record so far (with the seed: for the server only; seats get
        :meth:`record_text`).

        >>> len(Table.new(seats=("human",) * 4).record().deals)
        1
        """
        return GameRecord.from_actions(
            [(deal_seed(self.seed, number), actions) for number, actions in enumerate(self.deals, 1)],
            dealer=self.dealer,
            rules=self.rules,
            players=self.names,
        )

    def record_text(self, seat: int) -> str:
        """The game record as ``seat`` saw it (:meth:`~persian_rummy.record.GameRecord.redact`):
        no seed, and every card the seat has not seen written ``??``.

        >>> text = Table.new(seats=("human",) * 4, seed=3).record_text(0)
        >>> "[Seed" in text, "[Viewer 0]" in text
        (False, True)
        """
        return dumps(self.record().redact(seat))

    def frame(
        self, seat: int | None, state: GameState | None = None, last: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``state`` frame for ``seat`` (``None``: a spectator) on ``state`` (default: the
        current state): the seat's view as JSON, the picture, its legal actions when it is to
        move, the score sheet once the deal is over, and ``last`` (the public event that led
        here). A spectator's frame has no view and a picture with every hand face down.

        >>> frame = Table.new(seats=("human",) * 4, seed=1, dealer=0).frame(1)
        >>> frame["turn"], frame["legal"][:2], frame["sheet"]
        (1, ['draw'], None)
        """
        frame: dict[str, Any] = json.loads(self.frame_text(seat, state, last))
        return frame

    def frame_text(self, seat: int | None, state: GameState | None = None, last: dict[str, Any] | None = None) -> str:
        """:meth:`frame` as the JSON text the server sends.

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> json.loads(table.frame_text(1)) == table.frame(1), table.frame_text(None).startswith('{"type":"state"')
        (True, True)
        """
        return self.frame_texts((seat,), state, last)[0]

    def frame_texts(
        self, seats: Sequence[int | None], state: GameState | None = None, last: dict[str, Any] | None = None
    ) -> list[str]:
        """:meth:`frame_text` for each of ``seats`` on one position (:meth:`frames`, each
        written whole).

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> texts = table.frame_texts([0, 1, 2, 3, None])
        >>> [json.loads(text)["seat"] for text in texts]
        [0, 1, 2, 3, None]
        >>> texts == [table.frame_text(seat) for seat in [0, 1, 2, 3, None]]
        True
        """
        return [frame.text() for frame in self.frames(seats, state, last)]

    def frames(
        self, seats: Sequence[int | None], state: GameState | None = None, last: dict[str, Any] | None = None
    ) -> list[StateFrame]:
        """The state frames of ``seats`` on one position, written together: what the frames
        share (the pictures' header, centre, labels and face-down hands, the score sheet) is
        drawn and put into JSON once for them all (:func:`~persian_rummy.svg.seat_tables`),
        and the views go in as :meth:`~persian_rummy.PlayerView.to_json` writes them
        (:func:`~persian_rummy.serialization.views_to_json`: what they share, once).

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> north, watcher = table.frames([0, None])
        >>> json.loads(north.text())["seat"], len(north.pieces) > 20
        (0, True)
        """
        state = self.state if state is None else state
        sheet = None
        if not state.phase.is_live:
            sheet = [
                {"team": score.team, "name": TEAM_NAMES[score.team], "melded": score.melded,
                 "laid_off": score.laid_off, "doubles": score.doubles, "in_hand": score.in_hand,
                 "going_out": score.going_out, "total": score.total}
                for score in score_round(state)
            ]  # fmt: skip
        public = {
            "deal": state.deal_number,
            "deals": state.rules.deals,
            "phase": state.phase.value,
            "turn": state.current_player,
            "scores": list(state.scores),
            "names": list(self.names),
            "seats": list(self.seats),
            "last": last,
        }
        # The frames' fields in order: type, seq, seat, the public fields, picture, legal, sheet, view.
        middle = _dumps(public)[1:-1]
        sheet_text = _dumps(sheet)
        views = {seat: state.view(seat) for seat in seats if seat is not None}
        view_texts = dict(zip(views, views_to_json(list(views.values())), strict=True))
        frames = []
        for seat, picture in zip(seats, seat_tables(state, seats), strict=True):
            legal, view_text = "[]", "null"  # a spectator's
            if seat is not None:
                view_text = view_texts[seat]
                if views[seat].is_to_move:
                    legal = _dumps([str(action) for action in legal_actions(views[seat])])
            frames.append(
                StateFrame(
                    f'{{"type":"state","seq":{self.seq},"seat":{"null" if seat is None else seat},{middle},"picture":[',
                    picture,
                    f'],"legal":{legal},"sheet":{sheet_text},"view":{view_text}}}',
                )
            )
        return frames


@attrs.frozen
class StateFrame:
    """One seat's (or the spectators') state frame, as :meth:`Table.frames` writes it: the
    JSON text before the picture (``head``), the picture's pieces (``pieces``, SVG text) and
    the JSON text after it (``tail``).

    :meth:`text` writes the frame for a connection. The ``picture`` field is a list whose
    items are the picture's pieces in order, each either a string (the piece's SVG text) or
    a number: the index of an equal piece in the last picture that connection was sent. A
    connection's first frame, and :meth:`text` without ``sent``, has every piece written out;
    after it, a piece the connection already holds costs a few bytes instead of the hundreds
    or thousands its SVG text takes (most of a picture stays as it was from one action to the
    next). The picture is ``"".join`` of the pieces
    (:class:`~persian_rummy.server.client.Pictures` rebuilds it from the numbers).

    >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
    >>> before = table.frames([0])[0]
    >>> _ = table.apply(1, legal_actions(table.state)[0])
    >>> after = table.frames([0])[0]
    >>> picture = json.loads(after.text(before.pieces))["picture"]
    >>> [piece for piece in picture if isinstance(piece, str)] == [
    ...     piece for piece in after.pieces if piece not in before.pieces
    ... ]
    True
    """

    head: str
    pieces: tuple[str, ...]
    tail: str

    def text(self, sent: Sequence[str] | None = None) -> str:
        """The frame's JSON text; with ``sent`` (the pieces of the last picture the connection
        was sent), each piece found there as its index in that picture."""
        if sent is None:
            return self.head + ",".join(map(_json_piece, self.pieces)) + self.tail
        items = []
        where: dict[str, int] | None = None
        held = len(sent)
        for number, piece in enumerate(self.pieces):
            if number < held and sent[number] is piece:  # most often: the same piece, in its place
                items.append(str(number))
                continue
            if where is None:
                where = {piece: number for number, piece in enumerate(sent)}
            found = where.get(piece)
            items.append(_json_piece(piece) if found is None else str(found))
        return self.head + ",".join(items) + self.tail


# One encoder for every frame (json.dumps with options builds a new one at each call).
_dumps: Final = json.JSONEncoder(separators=(",", ":")).encode


# A picture's pieces (a card of the pile at its place, a meld, a hand, a label) come back action
# after action: their JSON is kept, up to about 16 MiB of text (then forgotten all at once).
# Threads that race store equal texts, and at worst miscount the size a little.
_KEPT_LIMIT: Final = 2**24
_KEPT: dict[str, str] = {}
_kept_size = 0


def _json_piece(piece: str) -> str:
    """A piece of a picture as a JSON string (as ``json.dumps`` writes it), kept for the
    other pictures of the position and for later ones."""
    global _kept_size
    text = _KEPT.get(piece)
    if text is None:
        text = encode_basestring_ascii(piece)
        if _kept_size > _KEPT_LIMIT:
            _KEPT.clear()
            _kept_size = 0
        _KEPT[piece] = text
        _kept_size += len(piece) + len(text)
    return text


def _make_bots(seats: Sequence[str], seed: int) -> tuple[Bot | None, ...]:
    bots: list[Bot | None] = []
    for seat, kind in enumerate(seats):
        if not isinstance(kind, str):
            raise NotationError(f"a seat is 'human' or a bot's name, not {kind!r}")
        if kind != HUMAN and any(int(value) > MAX_KNOB for value in re.findall(r"=\s*(\d{1,100})", kind)):
            # A bot's knobs set its work per move: a stranger must not make the server think for hours.
            raise NotationError(f"a bot's knobs at a table are at most {MAX_KNOB}, not {kind[:80]!r}")
        bots.append(None if kind == HUMAN else make_bot(kind, seed + seat))
    return tuple(bots)
