"""A table: one game played by four seats (people or bots), with its secret tokens.

The table holds the authoritative :class:`~persian_rummy.Game`; it plays each action for the
seat that sent it (``game.play(..., seat=...)``), numbers the accepted actions (``seq``,
counted over the whole game) and keeps the game's log in words; the game deals the next deal
as soon as one ends (R7). What each seat is sent is built here (:meth:`Table.frames`): its own
:class:`~persian_rummy.PlayerView`, its legal actions and the log as it may read it, never
another hand (R27); the page draws the table from them.

>>> table = Table.new(seats=("human", "greedy", "greedy", "greedy"), seed=7)
>>> table.seq, table.state.deal_number, table.bots[0] is None, table.bots[1] is not None
(0, 1, True, True)
>>> seat, watcher = [json.loads(text) for text in table.frames([0, None])]
>>> seat["type"], seat["seat"], seat["view"]["seat"], watcher["view"]["hand"]  # a spectator sees no hand
('state', 0, 0, None)
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Sequence
from typing import Final, cast

import attrs

from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards
from persian_rummy.bots import Bot, make_bot
from persian_rummy.cards import Card
from persian_rummy.engine import legal_actions
from persian_rummy.errors import NotationError
from persian_rummy.game import Game
from persian_rummy.melds import credits
from persian_rummy.presentation import Style, describe, narrate, result_text, round_end_text
from persian_rummy.record import GameRecord, dumps
from persian_rummy.rules import Rules
from persian_rummy.scoring import score_round
from persian_rummy.serialization import views_to_json
from persian_rummy.state import PLAYERS, SEAT_NAMES, TEAM_NAMES, GameState, Phase
from persian_rummy.view import PlayerView

__all__ = ["HUMAN", "PROTOCOL", "WEB_STYLE", "Table", "new_token"]

#: The version of the frames' protocol (the ``protocol`` field of the welcome and state
#: frames): 2 sends the view, the legal actions and the log, and no picture.
PROTOCOL: Final = 2

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
    #: The game in words: for each action, deal and score, its mover (``None`` for a deal's
    #: heading or score), its entry as JSON for everyone and for its mover (``""``: the same).
    log: list[tuple[int | None, str, str]] = attrs.field(factory=list)

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
    def seq(self) -> int:
        """The number of actions accepted so far, every deal's.

        >>> table = Table.new(seats=("human",) * 4, dealer=0)
        >>> table.seq, table.apply(1, "draw").phase.name, table.seq
        (0, 'MELD', 1)
        """
        return sum(map(len, self.game.deals))

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
        persian_rummy.errors.NotationError: 'nobody' is not a bot (expected one of random, greedy, montecarlo, mc, neural)
        """
        if len(seats) != PLAYERS:
            raise NotationError(f"R3: a table has 4 seats, not {len(seats)}")
        # 128 bits, as the library asks of a secret seed: nobody can search the seeds for a deal.
        seed = secrets.randbits(128) if seed is None else seed
        dealer = secrets.randbelow(PLAYERS) if dealer is None else dealer
        game = Game.new(seed, rules=rules, dealer=dealer)
        table = cls(
            table_id or secrets.token_hex(8), tuple(seats), _check_names(names), _make_bots(seats, seed, rules), game
        )
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
        reached = after.after  # the deal's last state, if the action ended it
        self._narrate(before.state, action, reached)
        if not reached.phase.is_live:
            self._note_score(reached)
        if reached is not after.state:  # the next deal was dealt
            self._note_deal(after.state)
        return after.state

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
        """The state frames (JSON text, protocol :data:`PROTOCOL`) of ``seats`` (``None``: the
        spectators) on ``state`` (default: the current state), written together: each seat's
        view as :meth:`~persian_rummy.PlayerView.to_json` writes it
        (:func:`~persian_rummy.serialization.views_to_json`: what the views share, once), its
        legal actions when it is to move (``legal``, and in words: ``legal_text``), the score
        sheet once the deal is over, each team's points on the table, and the entries ``log``
        (a slice of :attr:`log`, default all) as that seat may read them. A spectator's view has no hand and no seat (R27).

        >>> table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
        >>> east, watcher = [json.loads(text) for text in table.frames([1, None])]
        >>> east["protocol"], east["turn"], east["legal"][:1], east["sheet"], east["view"]["seat"]
        (2, 1, ['draw'], None, 1)
        >>> watcher["view"]["hand"], watcher["legal"], [entry["text"] for entry in watcher["log"]]
        (None, [], ['Deal 1 of 2: East is first to play (North deals)'])
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
        on_table = [0, 0]
        for meld in state.melds:
            points = credits(meld)
            on_table[0] += points[0] + points[2]
            on_table[1] += points[1] + points[3]
        public = {
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
        middle = _dumps(public)[1:-1]
        entries = self.log[slice(*log) if log is not None else slice(None)]
        views = {seat: state.view(seat) for seat in seats if seat is not None}
        view_texts: dict[int | None, str] = dict(zip(views, views_to_json(list(views.values())), strict=True))
        if None in seats:
            # The public table: any seat's view without its seat and hand (R27).
            public_view = json.loads(next(iter(view_texts.values()), None) or state.view(0).to_json())
            public_view.update(seat=None, hand=None)
            view_texts[None] = _dumps(public_view)
        frames = []
        for seat in seats:
            legal = said = "[]"
            if seat is not None and views[seat].is_to_move:
                actions = legal_actions(views[seat])
                legal = _dumps([str(action) for action in actions])
                said = _dumps([_offer(views[seat], action) for action in actions])
            log_text = ",".join(
                own if seat is not None and seat == mover and own else public for mover, public, own in entries
            )
            frames.append(
                f'{{"type":"state","protocol":{PROTOCOL},"seq":{self.seq},"seat":{"null" if seat is None else seat},'
                f'{middle},"legal":{legal},"legal_text":{said},"log":[{log_text}],"view":{view_texts[seat]}}}'
            )
        return frames

    def _narrate(self, before: GameState, action: Action, after: GameState) -> None:
        """Add ``action`` (``before`` -> ``after``) to :attr:`log`, in words for the others and
        for its mover (who sees the card drawn from the stock, R27)."""
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
        public_action = "draw" if isinstance(action, DrawStock) else str(action)
        text = describe(before, action, after, WEB_STYLE, reveal=False)
        own_text = describe(before, action, after, WEB_STYLE, you=True)
        entry = {"kind": "action", "seq": self.seq, "deal": before.deal_number, "seat": seat, "action": public_action}
        public = _dumps({**entry, "text": f"{self.names[seat]} {text}", "cards": [str(card) for card in cards]})
        own = _dumps({**entry, "text": f"You {own_text}", "cards": [str(card) for card in own_cards or cards]})
        self.log.append((seat, public, own))

    def _note(self, kind: str, deal: int, text: str) -> None:
        self.log.append((None, _dumps({"kind": kind, "seq": self.seq, "deal": deal, "text": text}), ""))

    def _note_deal(self, state: GameState) -> None:
        first, dealer = SEAT_NAMES[state.current_player], SEAT_NAMES[state.dealer]
        heading = f"Deal {state.deal_number} of {state.rules.deals}: {first} is first to play ({dealer} deals)"
        self._note("deal", state.deal_number, heading)

    def _note_score(self, state: GameState) -> None:
        deal = " and ".join(f"{TEAM_NAMES[score.team]} {score.total}" for score in score_round(state))
        text = f"{round_end_text(state)} Deal {state.deal_number}: {deal}. Totals: "
        text += f"{TEAM_NAMES[0]} {state.scores[0]}, {TEAM_NAMES[1]} {state.scores[1]}."
        if state.phase is Phase.GAME_OVER:
            text += f" Game over: {result_text(state)}."
        self._note("score", state.deal_number, text)


def _offer(view: PlayerView, action: Action) -> str:
    """A legal action in words for the player who may play it: ``take 7♣ 9♦ from the discard pile``."""
    if isinstance(action, DrawDiscard):
        return narrate(action, view.discard_pile[action.index :], card=WEB_STYLE.card, form="you")
    target = view.melds[action.meld] if isinstance(action, LayOff) else None
    return narrate(action, card=WEB_STYLE.card, form="you", target=target)


class _WebStyle(Style):
    """Cards as a person reads them on the page: ``10♣`` (as on the card faces), ``Joker``."""

    def card(self, card: Card) -> str:
        return "Joker" if card.is_joker else card.symbol.replace("T", "10")


#: How the table's log writes cards.
WEB_STYLE: Final = _WebStyle()

# One encoder for every frame (json.dumps with options builds a new one at each call).
_dumps: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def _make_bots(seats: Sequence[str], seed: int, rules: Rules) -> tuple[Bot | None, ...]:
    # Given the rules, a bot trained for other rules (neural) is refused when the table is made.
    bots: list[Bot | None] = []
    for seat, kind in enumerate(seats):
        if not isinstance(kind, str):
            raise NotationError(f"a seat is 'human' or a bot's name, not {kind!r}")
        if kind != HUMAN and any(int(value) > MAX_KNOB for value in re.findall(r"=\s*(\d{1,100})", kind)):
            # A bot's knobs set its work per move: a stranger must not make the server think for hours.
            raise NotationError(f"a bot's knobs at a table are at most {MAX_KNOB}, not {kind[:80]!r}")
        bots.append(None if kind == HUMAN else make_bot(kind, seed + seat, rules=rules))
    return tuple(bots)
