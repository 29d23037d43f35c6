"""The recorder: records a game while it is played (internal; see :mod:`persian_rummy.record`)."""

from __future__ import annotations

from collections.abc import Sequence

from persian_rummy.actions import Action
from persian_rummy.cards import Card
from persian_rummy.dealing import Seed, deal_seed
from persian_rummy.errors import ReplayError
from persian_rummy.record._deal import (
    DEFAULT_PLAYERS,
    DEFAULT_TEAMS,
    DealRecord,
    RecordedAction,
    check_names,
    final_scores,
    finish_deal,
    play_recorded,
    start_deal,
)
from persian_rummy.record._game import GameRecord
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS, GameState


class Recorder:
    """Records a game while it is played: deal, then play each action through the recorder.

    >>> recorder = Recorder(players=["Ann", "Bo", "Cy", "Di"])
    >>> state = recorder.deal(seed=3)
    >>> state = recorder.play("draw")
    >>> state = recorder.play("discard 2d", comment="safe")
    >>> str(recorder.record().deals[0].actions[-1])
    'E discard 2d ; safe'
    """

    def __init__(
        self,
        *,
        rules: Rules = Rules(),
        players: Sequence[str] = DEFAULT_PLAYERS,
        teams: Sequence[str] = DEFAULT_TEAMS,
    ) -> None:
        self.rules = rules
        self.players = check_names(tuple(players), PLAYERS, "players")
        self.teams = check_names(tuple(teams), 2, "teams")
        self._deals: list[DealRecord] = []
        self._actions: list[RecordedAction] = []
        self._state: GameState | None = None

    @property
    def state(self) -> GameState:
        """The current state (after :meth:`deal`).

        >>> recorder = Recorder()
        >>> recorder.deal(seed=1) == recorder.state
        True
        """
        if self._state is None:
            raise ReplayError("nothing has been dealt yet", deal=1)
        return self._state

    def deal(
        self,
        seed: Seed | None = None,
        *,
        deck: Sequence[Card | str] | str | None = None,
        dealer: int | None = None,
    ) -> GameState:
        """Deal the next deal from ``seed`` or from ``deck`` (in dealing order) and return its
        first state. The first deal needs one of the two; a later deal given neither is
        shuffled with :func:`~persian_rummy.dealing.deal_seed` of the first deal's seed
        (``"7/2"`` for the second deal of a game dealt from 7), as a
        :class:`~persian_rummy.Game` deals. The first dealer is ``dealer`` (0 by default); later deals pass clockwise
        (R7), so ``dealer`` must then be omitted or match.

        >>> from persian_rummy import legal_actions
        >>> recorder = Recorder(rules=Rules(deals=2))
        >>> recorder.deal(seed=7, dealer=3).current_player
        0
        >>> while not recorder.state.is_deal_over:
        ...     _ = recorder.play(legal_actions(recorder.state)[0])
        >>> second = recorder.deal()
        >>> second.deal_number, second.dealer, recorder.record().deals[1].seed
        (2, 0, '7/2')
        >>> Recorder().deal()
        Traceback (most recent call last):
        ...
        persian_rummy.errors.ReplayError: deal 1: the first deal needs a seed or a deck (later deals derive their seed from the first deal's)
        """
        if seed is None and deck is None:
            number = len(self._deals) + 1
            if not self._deals:
                raise ReplayError(
                    "the first deal needs a seed or a deck (later deals derive their seed from the first deal's)",
                    deal=number,
                )
            first = self._deals[0].seed
            if first is None:
                raise ReplayError(
                    "the first deal was dealt from a deck, so there is no seed to derive this one's from: "
                    "give seed= or deck=",
                    deal=number,
                )
            seed = deal_seed(first, number)
        record, state = start_deal(self._state, self.rules, seed, deck, dealer)
        # Close the current deal only now: a deal that raises above must not drop its actions.
        if self._deals:
            self._deals[-1] = finish_deal(self._deals[-1], self._actions, self._state)
            self._actions = []
        self._deals.append(record)
        self._state = state
        return state

    def play(self, action: Action | str, *, comment: str = "") -> GameState:
        """Play ``action`` (or its text) and record it with ``comment``; returns the new state.
        Raises what :func:`~persian_rummy.play` raises, recording nothing.

        >>> recorder = Recorder()
        >>> _ = recorder.deal(seed=1)
        >>> recorder.play("draw").phase
        <Phase.MELD: 'meld'>
        """
        item, after = play_recorded(self.state, action, comment)
        self._actions.append(item)
        self._state = after
        return after

    def record(self) -> GameRecord:
        """The record of everything played so far (the recorder can go on).

        >>> Recorder().record().deals
        ()
        """
        deals = list(self._deals)
        if deals:
            deals[-1] = finish_deal(deals[-1], self._actions, self._state)
        return GameRecord(tuple(deals), self.rules, self.players, self.teams, final_scores(self._state))
