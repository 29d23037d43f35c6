"""A table in play on this server, as one value: :class:`LiveTable` holds the
:class:`~persian_rummy.server.tables.Table` (the game, its log, what each seat is sent), the
lock that orders this server's work on it, the open connection of each seat and its
spectators. The hub (:class:`~persian_rummy.server.hub.Server`) keeps one per table and
lets it go in one place, :meth:`LiveTable.end`, which releases all it holds.

The live table decides no order of its own: an action reaches it once it is stored
(:meth:`LiveTable.commit`), and the store's key (table, action number) is what refuses a
second action of the same number. The lock only keeps this server's own work on the table in
turn (a check, its commit and its frames; a seat changing hands).

>>> import asyncio
>>> live = LiveTable(Table.new(seats=("human",) * 4, seed=1, dealer=0))
>>> live.is_watched, live.ended, live.end(), live.ended
(False, False, [], True)

A seat's windows are numbered in the order they were opened (by the database, when several
workers serve the table): the latest holds the seat, here and on every worker
(:meth:`LiveTable.supersede`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from persian_rummy.actions import Action
from persian_rummy.game import Game
from persian_rummy.server.connections import Connection, close_connection
from persian_rummy.server.protocol import CLOSE_CODES, Ack, ErrorFrame, RequestId, Welcome, encode_frame
from persian_rummy.server.tables import Table
from persian_rummy.state import PLAYERS, GameState

__all__ = ["LiveTable"]

_Sends = list[tuple[Connection, str]]


class LiveTable:
    """One table in play on this server: its :attr:`table`, its :attr:`lock`, and its
    people's connections (one per seat: the latest window) and spectators.

    >>> live = LiveTable(Table.new(seats=("human", "greedy", "greedy", "greedy"), seed=3, table_id="t"))
    >>> live.id, live.seated(0), live.spectator_count
    ('t', None, 0)
    """

    def __init__(self, table: Table) -> None:
        #: The table: its game, its log and what each seat is sent.
        self.table = table
        #: Orders this server's work on the table: an action from its check to its frames, a
        #: connection's first frames, a seat changing hands.
        self.lock = asyncio.Lock()
        self._players: dict[int, Connection] = {}
        self._spectators: set[Connection] = set()
        self._ended = False
        # The number of the latest window of each seat known here (this worker's or another's).
        self._windows: dict[int, int] = {}

    @property
    def id(self) -> str:
        """The table's id."""
        return self.table.id

    @property
    def ended(self) -> bool:
        """Whether the table was let go (:meth:`end`): it holds nothing and plays nothing more."""
        return self._ended

    @property
    def is_watched(self) -> bool:
        """Whether any connection (a seat's or a spectator's) is open at the table."""
        return bool(self._players or self._spectators)

    @property
    def spectator_count(self) -> int:
        """How many spectators are connected."""
        return len(self._spectators)

    def seated(self, seat: int) -> Connection | None:
        """The connection that speaks for ``seat`` now, if any."""
        return self._players.get(seat)

    def holds(self, connection: Connection) -> bool:
        """Whether ``connection`` still speaks for its seat: open, the seat's latest window, at
        a table still in play here."""
        return (
            not self._ended
            and not connection.closed
            and (connection.seat is None or self._players.get(connection.seat) is connection)
        )

    async def admit(self, connection: Connection) -> bool:
        """Greet a new connection and add it (under the lock, so no broadcast reaches it
        before its first frames): the welcome, then the frame with the whole log. A seat's
        earlier window is told it was superseded and closed before the lock is let go, so an
        action it sent meanwhile is refused; a window older than one known (its
        ``connection.window``) is told so at once. Returns ``False``, sending nothing, if the
        table was let go meanwhile (:meth:`end`)."""
        seat = connection.seat
        async with self.lock:
            if self._ended:
                return False
            if seat is not None and connection.window < self._windows.get(seat, 0):
                await close_connection(connection, CLOSE_CODES["superseded"], _superseded())
                return True
            await connection.send(Welcome(self.id, seat, self.table.names))
            await connection.send_text(self.table.frames([seat])[0])
            if self._ended:  # let go while the frames went out: nothing to stay for
                connection.closed = True
                return True
            if seat is None:
                self._spectators.add(connection)
                return True
            previous = self._players.get(seat)
            self._players[seat] = connection
            self._windows[seat] = max(connection.window, self._windows.get(seat, 0))
            if previous is not None:
                await close_connection(previous, CLOSE_CODES["superseded"], _superseded())
            return True

    async def supersede(self, seat: int, window: int) -> None:
        """Window number ``window`` of ``seat`` was opened (on another worker): the seat's
        window here, if older, is told it was superseded and closed.

        >>> import asyncio
        >>> live = LiveTable(Table.new(seats=("human",) * 4, seed=1, dealer=0))
        >>> asyncio.run(live.supersede(2, 5)), live.seated(2)
        (None, None)
        """
        async with self.lock:
            self._windows[seat] = max(window, self._windows.get(seat, 0))
            current = self._players.get(seat)
            if current is not None and current.window < window:
                del self._players[seat]
                await close_connection(current, CLOSE_CODES["superseded"], _superseded())

    def leave(self, connection: Connection) -> None:
        """Forget a connection that closed (a seat's, only if it is still the seat's latest)."""
        connection.closed = True
        self._spectators.discard(connection)
        if connection.seat is not None and self._players.get(connection.seat) is connection:
            del self._players[connection.seat]

    def commit(
        self, action: Action, after: Game, sender: Connection | None = None, request_id: RequestId = None
    ) -> _Sends:
        """Play ``action``, checked on the current game and stored, leading to ``after``
        (:meth:`~persian_rummy.server.tables.Table.commit`); returns what to send: its
        acknowledgement to ``sender``, if any, then each connection's frame (when it ended a
        deal: the finished deal's frames first, every hand shown, R23). Any stored action of
        the table is played so, whoever stored it.

        >>> live = LiveTable(Table.new(seats=("human",) * 4, seed=1, dealer=0))
        >>> live.commit(*live.table.check(1, "draw")), live.table.seq
        ([], 1)
        """
        table = self.table
        before, logged = table.state, len(table.entries)
        table.commit(action, after)
        sends: _Sends = [] if sender is None else [(sender, encode_frame(Ack(table.seq, str(action), request_id)))]
        if table.state.deal_number != before.deal_number and table.ended is not None:
            # The finished deal (its action and score), then the next deal's heading.
            heading = len(table.entries) - 1
            sends += self.frames((logged, heading), table.ended)
            logged = heading
        return sends + self.frames((logged, len(table.entries)))

    def frames(self, log: tuple[int, int], state: GameState | None = None) -> _Sends:
        """Each connection and its frame with the log entries ``log`` (a slice) on ``state``
        (default: the current one): written together
        (:meth:`~persian_rummy.server.tables.Table.frames`), the spectators' once for them
        all, the same text to each."""
        seated = [(seat, self._players[seat]) for seat in range(PLAYERS) if seat in self._players]
        watchers = list(self._spectators)
        if not seated and not watchers:
            return []
        seats: list[int | None] = [seat for seat, _ in seated]
        texts = self.table.frames([*seats, None] if watchers else seats, state, log)
        sends = [(connection, text) for (_, connection), text in zip(seated, texts, strict=False)]
        return sends + [(connection, texts[-1]) for connection in watchers]

    async def record_text(self, seat: int) -> str:
        """The game record as ``seat`` saw it (under the lock: between two actions)."""
        async with self.lock:
            return self.table.record_text(seat)

    def end(self) -> list[Connection]:
        """Let the table go: it plays nothing more, holds no connection, and admits none. Returns the connections that were open, marked closed, for the caller to
        tell why (what waits on the lock finds the table ended and stops)."""
        self._ended = True
        connections: Sequence[Connection] = [*self._spectators, *self._players.values()]
        self._spectators.clear()
        self._players.clear()
        for connection in connections:
            connection.closed = True
        return list(connections)


def _superseded() -> ErrorFrame:
    return ErrorFrame("superseded", "this seat was opened in another window")
