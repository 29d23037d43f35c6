"""A table: one game played by four seats (people or bots), with its secret tokens.

The table holds the authoritative :class:`~persian_rummy.Game`; it plays each action for the
seat that sent it (``game.play(..., seat=...)``), numbers the accepted actions (``seq``,
counted over the whole game) and keeps the game's log in words (a :class:`LogEntry` per
action, deal and score); the game deals the next deal as soon as one ends (R7). What each seat
is sent is built here, as typed frames (:meth:`Table.state_frames`) each written as JSON once
(:meth:`Table.frames`): its own :class:`~persian_rummy.PlayerView`, its legal actions and
the log as it may read it, never another hand (R27); the page draws the table from them.

>>> table = Table.new(seats=("human", "greedy", "greedy", "greedy"), seed=7)
>>> table.seq, table.state.deal_number, table.bots[0] is None, table.bots[1] is not None
(0, 1, True, True)
>>> seat, watcher = table.frame_values([0, None])
>>> seat["type"], seat["seat"], seat["view"]["seat"], watcher["view"]["hand"]  # a spectator sees no hand
('state', 0, 0, None)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Sequence
from itertools import islice
from typing import Any, Final, cast, overload

import attrs

from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards
from persian_rummy.bots import Bot
from persian_rummy.cards import Card
from persian_rummy.engine import legal_actions
from persian_rummy.errors import NotationError
from persian_rummy.game import Game
from persian_rummy.melds import credits
from persian_rummy.presentation import describe, narrate, result_text, round_end_text
from persian_rummy.record import GameRecord, dumps
from persian_rummy.rules import Rules
from persian_rummy.scoring import score_round
from persian_rummy.serialization import make_converter
from persian_rummy.server.protocol import HUMAN, PROTOCOL, WEB_STYLE, StateFrame, encode_frame, encode_value
from persian_rummy.server.seats import seat_bot
from persian_rummy.server.storage import StoredTable, TableRow
from persian_rummy.state import PLAYERS, SEAT_NAMES, TEAM_NAMES, GameState, Phase
from persian_rummy.view import PlayerView

# HUMAN, PROTOCOL and WEB_STYLE live in the protocol's module; they are still importable from here.
__all__ = [
    "HUMAN",
    "PROTOCOL",
    "WEB_STYLE",
    "LogEntry",
    "LogTexts",
    "Table",
    "new_token",
    "offer_text",
    "rematch_token",
]

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


def rematch_token(token: str) -> str:
    """The token of a seat at the rematch of the game ``token`` opens a seat of: a keyed hash
    of it (whoever holds the seat's link can find it again, on any worker; nobody else can,
    and the database keeps only its digest).

    >>> rematch_token("abcdefgh12345678") == rematch_token("abcdefgh12345678"), len(rematch_token("x" * 22))
    (True, 22)
    """
    digest = hmac.new(token.encode("utf-8", "surrogatepass"), b"persian-rummy rematch", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")


def _check_names(names: Sequence[str]) -> tuple[str, ...]:
    if len(names) != PLAYERS:
        raise NotationError(f"R3: a table has 4 player names, not {len(names)}")
    cleaned = []
    for name in names:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            raise NotationError(f"a player name is 1-{MAX_NAME} printable characters, not {name!r}")
        cleaned.append(name.strip())
    return tuple(cleaned)


@attrs.frozen
class LogEntry:
    """One entry of a table's log: an action (``kind`` ``"action"``, with its mover's
    ``seat``), a deal's heading (``"deal"``), its score (``"score"``) or a hint a seat asked
    for (``"hint"``, with that ``seat``); ``seq`` is the number of actions accepted when it was
    written. An action's mover reads ``own_text`` and
    ``own_cards`` (a card drawn from the stock is named to its drawer only, R27), everyone
    else ``text`` and ``cards``. :meth:`value` is the entry in a frame.

    >>> entry = LogEntry("action", 1, 1, "Ann draws from the stock", seat=1, action="draw",
    ...                  own_text="You draw 7♣ from the stock", own_cards=("7c",))
    >>> entry.value(2)["text"], entry.value(1)["cards"]
    ('Ann draws from the stock', ['7c'])
    """

    #: ``"action"``, ``"deal"`` (a deal's heading), ``"score"`` (a deal's score) or ``"hint"``.
    kind: str
    #: The number of actions accepted when the entry was written (an action's own number).
    seq: int
    #: The deal it belongs to (1 for the first).
    deal: int
    #: The entry in words, for everyone (an action: for everyone but its mover).
    text: str
    #: An action's mover (or a hint's asker); ``None`` for a heading or a score.
    seat: int | None = None
    #: An action's text as everyone reads it (``"draw"`` for a draw from the stock).
    action: str = ""
    #: The cards the action shows to everyone (the library's notation).
    cards: tuple[str, ...] = ()
    #: An action in words for its mover (``"You draw 7♣ from the stock"``).
    own_text: str = ""
    #: The cards the action shows to its mover.
    own_cards: tuple[str, ...] = ()

    def value(self, reader: int | None) -> dict[str, Any]:
        """The entry as ``reader`` (a seat; ``None`` for the spectators) reads it, ready for JSON.

        >>> LogEntry("deal", 0, 1, "Deal 1 of 2").value(None)
        {'kind': 'deal', 'seq': 0, 'deal': 1, 'text': 'Deal 1 of 2'}
        """
        if self.seat is None:
            return {"kind": self.kind, "seq": self.seq, "deal": self.deal, "text": self.text}
        own = reader == self.seat
        return {
            "kind": self.kind,
            "seq": self.seq,
            "deal": self.deal,
            "seat": self.seat,
            "action": self.action,
            "text": self.own_text if own else self.text,
            "cards": list(self.own_cards if own else self.cards),
        }

    def texts(self) -> tuple[int | None, str, str]:
        """The entry's mover (``None`` for a heading or a score) and its JSON text for everyone
        and for its mover (``""`` for a heading or a score: the same), as :attr:`Table.log`
        lists them.

        >>> LogEntry("score", 9, 1, "Deal 1: ...").texts()
        (None, '{"kind":"score","seq":9,"deal":1,"text":"Deal 1: ..."}', '')
        """
        public = encode_value(self.value(None))
        return self.seat, public, "" if self.seat is None else encode_value(self.value(self.seat))


class LogTexts(Sequence[tuple[int | None, str, str]]):
    """A table's log as JSON texts (:meth:`LogEntry.texts`), written when read: what
    :attr:`Table.log` gives, for programs that read the log as text.

    >>> texts = Table.new(seats=("human",) * 4, seed=1, dealer=0).log
    >>> len(texts), texts[0][0], texts[-1][1][:16]
    (1, None, '{"kind":"deal","')
    """

    def __init__(self, entries: Sequence[LogEntry]) -> None:
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> tuple[int | None, str, str]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[int | None, str, str]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int | None, str, str] | list[tuple[int | None, str, str]]:
        if isinstance(index, slice):
            return [entry.texts() for entry in self._entries[index]]
        return self._entries[index].texts()


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
    #: ``"human"`` or a bot's name, per seat.
    seats: tuple[str, ...]
    #: The name shown for each seat.
    names: tuple[str, ...]
    #: The bot playing each bot seat (``None`` for people).
    bots: tuple[Bot | None, ...]
    #: The game as it stands (:class:`~persian_rummy.Game`): its seed never leaves the server.
    game: Game
    #: The address of the client that created the table (``""`` when not known).
    owner: str = ""
    #: When the table was created, in seconds since the epoch.
    created: float = attrs.field(factory=time.time)
    #: When an action was last played at the table, in seconds since the epoch.
    touched: float = attrs.field(factory=time.time)
    #: Whether a person (not a bot) has played at the table.
    played: bool = False
    #: The game in words: an entry for each action, deal and score (:class:`LogEntry`).
    entries: list[LogEntry] = attrs.field(factory=list)
    #: The number of actions accepted so far, every deal's.
    seq: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.seq = len(self.game.actions)

    @property
    def log(self) -> LogTexts:
        """The log as JSON texts: for each entry, its mover (``None`` for a deal's heading or
        score), its text for everyone and for its mover (``""``: the same).

        >>> mover, public, own = Table.new(seats=("human",) * 4, seed=1, dealer=0).log[0]
        >>> mover, json.loads(public)["text"], own
        (None, 'Deal 1 of 2: East is first to play (North deals)', '')
        """
        return LogTexts(self.entries)

    @property
    def rules(self) -> Rules:
        """The :class:`~persian_rummy.Rules` of the game.

        >>> Table.new(seats=("human",) * 4, rules=Rules(deals=1)).rules.deals
        1
        """
        return self.game.rules

    @property
    def seed(self) -> int:
        """The seed that shuffles every deal (:func:`~persian_rummy.deal_seed`); it never leaves
        the server.

        >>> Table.new(seats=("human",) * 4, seed=5).seed
        5
        """
        return cast(int, self.game.seed)  # a table's seed is a whole number (new, resume)

    @property
    def dealer(self) -> int:
        """The first deal's dealer (R4).

        >>> Table.new(seats=("human",) * 4, dealer=2).dealer
        2
        """
        return self.game.dealer

    @property
    def state(self) -> GameState:
        """The game's current state (the next deal's first as soon as a deal ends, R7).

        >>> Table.new(seats=("human",) * 4, dealer=3).state.current_player
        0
        """
        return self.game.state

    @property
    def deals(self) -> tuple[tuple[Action, ...], ...]:
        """The actions of each deal so far.

        >>> Table.new(seats=("human",) * 4).deals
        ((),)
        """
        return self.game.deals

    @property
    def ended(self) -> GameState | None:
        """The last state of the latest deal the game followed with another (every hand is
        public then, R23), shown with its score sheet; ``None`` before the first has ended.

        >>> Table.new(seats=("human",) * 4).ended is None
        True
        """
        ends = self.game.deal_ends
        if ends and ends[-1].phase is Phase.GAME_OVER:
            ends = ends[:-1]
        return ends[-1] if ends else None

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
        persian_rummy.errors.NotationError: a seat is 'human', a level (easy, medium, hard, expert) or a bot (random, greedy, montecarlo, mc, neural, expert; mc:samples=8), not 'nobody'
        """
        if len(seats) != PLAYERS:
            raise NotationError(f"R3: a table has 4 seats, not {len(seats)}")
        # 128 bits, as the library asks of a secret seed: nobody can search the seeds for a deal.
        seed = secrets.randbits(128) if seed is None else seed
        dealer = secrets.randbelow(PLAYERS) if dealer is None else dealer
        game = Game.new(seed, rules=rules, dealer=dealer)
        table = cls(table_id or secrets.token_hex(8), tuple(seats), _check_names(names), _make_bots(seats, rules), game)
        table._note_deal(game.state)
        return table

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

    @classmethod
    def from_stored(cls, stored: StoredTable) -> Table:
        """The table a database read back (:class:`~persian_rummy.server.storage.StoredTable`),
        replayed to its last stored action: the one way from rows to a live table (:meth:`row`
        is the way back).

        >>> from persian_rummy.server.storage import StoredAction
        >>> table = Table.new(seats=("human",) * 4, seed=5, dealer=0, table_id="t")
        >>> _ = table.apply(1, "draw")
        >>> again = Table.from_stored(StoredTable(table.row(), (StoredAction(1, 1, "draw"),)))
        >>> again.state == table.state, again.seq, again.created == table.created
        (True, 1, True)
        """
        row = stored.row
        table = cls.resume(
            table_id=row.id, seats=row.seats, rules=row.rules, names=row.names, seed=row.seed, dealer=row.dealer,
            actions=[(action.seat, action.action) for action in stored.actions],
        )  # fmt: skip
        table.owner, table.created = row.owner, row.created
        return table

    def row(self, rematch_of: str | None = None) -> TableRow:
        """The table as its database keeps it (:class:`~persian_rummy.server.storage.TableRow`),
        the rematch of the game at ``rematch_of`` if given.

        >>> row = Table.new(seats=("human",) * 4, seed=5, dealer=2, table_id="t").row()
        >>> row.id, row.seed, row.dealer, row.seats[0]
        ('t', 5, 2, 'human')
        """
        return TableRow(
            self.id, self.rules, self.seed, self.dealer, self.seats, self.names, self.owner, self.created, rematch_of
        )

    @property
    def finished(self) -> bool:
        """Whether the game is over (R7, R26).

        >>> Table.new(seats=("human",) * 4).finished
        False
        """
        return self.game.is_over

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

    def check(self, seat: int, action: Action | str) -> tuple[Action, Game]:
        """The action (parsed) and the game it leads to, if ``seat`` may play it now; raises
        what :func:`~persian_rummy.play` raises. The table does not change (the server stores
        the action between this and :meth:`commit`).

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> action, after = table.check(1, "draw")
        >>> action, after.state.phase.name, table.seq
        (DrawStock(), 'MELD', 0)
        """
        if isinstance(action, str):
            action = Action.parse(action)
        return action, self.game.play(action, seat=seat)

    def commit(self, action: Action, after: Game) -> GameState:
        """Record ``action``, checked by :meth:`check` on the current game, leading to
        ``after`` (which has dealt the next deal if the action ended one, R7). Returns the new
        current state.

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> table.commit(*table.check(1, "draw")).phase.name, table.seq
        ('MELD', 1)
        """
        self.played = self.played or self.bots[self.state.current_player] is None
        self.touched = time.time()
        before, self.game = self.game, after
        self.seq += 1
        reached = after.after  # the deal's last state, if the action ended it
        self._narrate(before.state, action, reached)
        if not reached.phase.is_live:
            self._note_score(reached)
        if reached is not after.state:  # the next deal was dealt
            self._note_deal(after.state)
        return after.state

    def note_hint(self, seat: int, action: Action) -> LogEntry:
        """Write in the log that ``seat``, to move, asked for a hint and was shown ``action``
        (named to that seat only; everyone reads that a hint was taken). Returns the entry.

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0, names=("N", "Ann", "S", "W"))
        >>> entry = table.note_hint(1, Action.parse("draw"))
        >>> entry.value(0)["text"], entry.value(1)["text"]
        ('Ann asks for a hint', 'You ask for a hint: draw from the stock')
        """
        offer = offer_text(self.state.view(seat), action)
        entry = LogEntry(
            "hint", self.seq, self.state.deal_number, f"{self.names[seat]} asks for a hint", seat=seat,
            own_text=f"You ask for a hint: {offer}",
        )  # fmt: skip
        self.entries.append(entry)
        return entry

    def record(self) -> GameRecord:
        """The full game record so far (with the seed: for the server only; seats get
        :meth:`record_text`).

        >>> len(Table.new(seats=("human",) * 4).record().deals)
        1
        """
        return self.game.record(players=self.names)

    def record_text(self, seat: int) -> str:
        """The game record as ``seat`` saw it (:meth:`~persian_rummy.record.GameRecord.redact`):
        no seed, and every card the seat has not seen written ``??``.

        >>> text = Table.new(seats=("human",) * 4, seed=3).record_text(0)
        >>> "[Seed" in text, "[Viewer 0]" in text
        (False, True)
        """
        return dumps(self.record().redact(seat))

    def frames(
        self, seats: Sequence[int | None], state: GameState | None = None, log: tuple[int, int] | None = None
    ) -> list[str]:
        """The state frames of ``seats`` (:meth:`state_frames`), each as the JSON text sent.

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> table.frames([2])[0][:60]
        '{"type":"state","protocol":2,"seq":0,"seat":2,"deal":1,"deal'
        """
        return [encode_frame(frame) for frame in self.state_frames(seats, state, log)]

    def frame_values(
        self, seats: Sequence[int | None], state: GameState | None = None, log: tuple[int, int] | None = None
    ) -> list[dict[str, Any]]:
        """The state frames of ``seats`` (:meth:`state_frames`), each as a value ready for JSON.

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> east, watcher = table.frame_values([1, None])
        >>> east["protocol"], east["turn"], east["legal"][:1], east["sheet"], east["view"]["seat"]
        (2, 1, ['draw'], None, 1)
        >>> watcher["view"]["hand"], watcher["legal"], [entry["text"] for entry in watcher["log"]]
        (None, [], ['Deal 1 of 2: East is first to play (North deals)'])
        """
        return [frame.value() for frame in self.state_frames(seats, state, log)]

    def state_frames(
        self, seats: Sequence[int | None], state: GameState | None = None, log: tuple[int, int] | None = None
    ) -> list[StateFrame]:
        """The state frames (:class:`~persian_rummy.server.protocol.StateFrame`, protocol
        :data:`~persian_rummy.server.protocol.PROTOCOL`) of ``seats`` (``None``: the
        spectators) on ``state`` (default: the current state), built together, what they
        share built once: each seat's view as :meth:`~persian_rummy.PlayerView.to_json` writes
        it, its legal actions when it is to move (``legal``, and in words: ``legal_text``), the
        score sheet once the deal is over, each team's points on the table, and the entries
        ``log`` (a slice of :attr:`entries`, default all) as that seat may read them. A
        spectator's view has no hand and no seat (R27).

        >>> east, = Table.new(seats=("human",) * 4, seed=1, dealer=0).state_frames([1])
        >>> east.seat, east.legal[:1], east.public["turn"]
        (1, ('draw',), 1)
        """
        state = self.state if state is None else state
        public = self._public(state)
        entries = self.entries[slice(*log) if log is not None else slice(None)]
        views = {seat: state.view(seat) for seat in seats if seat is not None}
        shown: dict[int | None, dict[str, Any]] = {seat: _view_value(view) for seat, view in views.items()}
        if None in seats:
            # The public table: any seat's view without its seat and hand (R27).
            any_view = next(iter(shown.values()), None) or _view_value(state.view(0))
            shown[None] = {**any_view, "seat": None, "hand": None}
        frames = []
        for seat in seats:
            legal: tuple[str, ...] = ()
            legal_text: tuple[str, ...] = ()
            if seat is not None and views[seat].is_to_move:
                actions = legal_actions(views[seat])
                legal = tuple(str(action) for action in actions)
                legal_text = tuple(offer_text(views[seat], action) for action in actions)
            log_values = tuple(entry.value(seat) for entry in entries)
            frames.append(StateFrame(self.seq, seat, public, legal, legal_text, log_values, shown[seat]))
        return frames

    def _public(self, state: GameState) -> dict[str, Any]:
        """What every frame on ``state`` says alike: the deal, the turn, the scores, each
        team's points on the table, the seats and, once the deal is over, its score sheet."""
        sheet = None
        if not state.phase.is_live:
            sheet = [
                {"team": score.team, "name": TEAM_NAMES[score.team], "melded": score.melded,
                 "laid_off": score.laid_off, "doubles": score.doubles, "in_hand": score.in_hand,
                 "going_out": score.going_out, "total": score.total}
                for score in score_round(state)
            ]  # fmt: skip
        on_table = [0, 0]
        for meld in state.melds:
            points = credits(meld)
            on_table[0] += points[0] + points[2]
            on_table[1] += points[1] + points[3]
        return {
            "deal": state.deal_number,
            "deals": state.rules.deals,
            "phase": state.phase.value,
            "turn": state.current_player,
            "scores": list(state.scores),
            "on_table": on_table,
            "names": list(self.names),
            "seats": list(self.seats),
            "sheet": sheet,
        }

    def _narrate(self, before: GameState, action: Action, after: GameState) -> None:
        """Add ``action`` (``before`` -> ``after``) to :attr:`entries`, in words for the others
        and for its mover (who sees the card drawn from the stock, R27)."""
        seat = before.current_player
        cards: list[Card] = []
        own_cards: list[Card] = []
        if isinstance(action, DrawStock):
            own_cards = list(after.hands[seat] - before.hands[seat])
        elif isinstance(action, DrawDiscard):
            cards = list(before.discard_pile[action.index :])
        elif isinstance(action, MeldCards):
            cards = list(action.cards)
        elif isinstance(action, LayOff | Discard):
            cards = [action.card]
        text = describe(before, action, after, WEB_STYLE, reveal=False)
        own_text = describe(before, action, after, WEB_STYLE, you=True)
        self.entries.append(
            LogEntry(
                "action",
                self.seq,
                before.deal_number,
                f"{self.names[seat]} {text}",
                seat=seat,
                action="draw" if isinstance(action, DrawStock) else str(action),
                cards=tuple(map(str, cards)),
                own_text=f"You {own_text}",
                own_cards=tuple(map(str, own_cards or cards)),
            )
        )

    def _note_deal(self, state: GameState) -> None:
        first, dealer = SEAT_NAMES[state.current_player], SEAT_NAMES[state.dealer]
        heading = f"Deal {state.deal_number} of {state.rules.deals}: {first} is first to play ({dealer} deals)"
        self.entries.append(LogEntry("deal", self.seq, state.deal_number, heading))

    def _note_score(self, state: GameState) -> None:
        deal = " and ".join(f"{TEAM_NAMES[score.team]} {score.total}" for score in score_round(state))
        text = f"{round_end_text(state)} Deal {state.deal_number}: {deal}. Totals: "
        text += f"{TEAM_NAMES[0]} {state.scores[0]}, {TEAM_NAMES[1]} {state.scores[1]}."
        if state.phase is Phase.GAME_OVER:
            text += f" Game over: {result_text(state)}."
        self.entries.append(LogEntry("score", self.seq, state.deal_number, text))


def offer_text(view: PlayerView, action: Action) -> str:
    """A legal action of ``view`` in words for the player who may play it.

    >>> view = Table.new(seats=("human",) * 4, seed=14, dealer=1).state.view(2)
    >>> offer_text(view, Action.parse("take 0")), offer_text(view, Action.parse("draw"))
    ('take 2♦ from the discard pile', 'draw from the stock')
    """
    if isinstance(action, DrawDiscard):
        return narrate(action, view.discard_pile[action.index :], card=WEB_STYLE.card, form="you")
    target = view.melds[action.meld] if isinstance(action, LayOff) else None
    return narrate(action, card=WEB_STYLE.card, form="you", target=target)


# Views to JSON-ready values, with the library's own hooks (cards, hands and melds as text).
_CONVERTER: Final = make_converter()
# The keys a view's JSON begins with (its format's name and version), as the library writes them.
_VIEW_HEADER: Final = dict(islice(json.loads(Game.new(0).view(0).to_json()).items(), 2))


def _view_value(view: PlayerView) -> dict[str, Any]:
    """A view as :meth:`~persian_rummy.PlayerView.to_json` writes it, as a value."""
    return {**_VIEW_HEADER, **_CONVERTER.unstructure(view, PlayerView)}


def _make_bots(seats: Sequence[str], rules: Rules) -> tuple[Bot | None, ...]:
    # Given the rules, a bot trained for other rules (neural) is refused when the table is made.
    # Each bot's seed is its seat's number, never the table's seed, which shuffles the deck: a
    # bot draws each choice's randomness from its seed and what its seat has seen
    # (worlds.seat_seed), so a resumed table's bots choose as the first ones would have.
    bots: list[Bot | None] = []
    for seat, kind in enumerate(seats):
        if not isinstance(kind, str):
            raise NotationError(f"a seat is 'human' or a bot's name, not {kind!r}")
        if kind != HUMAN and any(int(value) > MAX_KNOB for value in re.findall(r"=\s*(\d{1,100})", kind)):
            # A bot's knobs set its work per move: a stranger must not make the server think for hours.
            raise NotationError(f"a bot's knobs at a table are at most {MAX_KNOB}, not {kind[:80]!r}")
        # Never make_bot itself: a seat kind is never a policy file's path (server.seats).
        bots.append(seat_bot(kind, seat, rules))
    return tuple(bots)
