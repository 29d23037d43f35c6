"""A whole game played one action at a time, for the environments (internal).

Deal ``n`` of the game with seed ``s`` is shuffled with :func:`~persian_rummy.arena.deal_seed`,
as :func:`~persian_rummy.arena.play_game` does, so an environment reset with seed ``s`` plays
the deals of the arena's game ``s``. The next deal is dealt as soon as one ends.
"""

from __future__ import annotations

from persian_rummy.actions import Action
from persian_rummy.arena import deal_seed
from persian_rummy.dealing import new_game, next_deal
from persian_rummy.engine import play
from persian_rummy.rules import Rules
from persian_rummy.state import GameState, Phase


class Episode:
    """The game being played: :attr:`state` and :meth:`play`.

    >>> from persian_rummy import legal_actions
    >>> episode = Episode(3)
    >>> episode.play(legal_actions(episode.state)[0]), episode.state.phase
    (None, <Phase.MELD: 'meld'>)
    """

    __slots__ = ("deals", "seed", "state")

    def __init__(self, seed: int, rules: Rules = Rules(), dealer: int = 0) -> None:
        self.seed = seed
        self.state: GameState = new_game(deal_seed(seed, 1), dealer=dealer, rules=rules)
        #: The finished deals' scores, (team 0, team 1) each (R23-R25).
        self.deals: list[tuple[int, int]] = []

    def play(self, action: Action) -> tuple[int, int] | None:
        """Play ``action`` (legal, for the player to move); if it ends a deal, deal the next
        one (unless the game is over) and return the finished deal's scores by team."""
        before = self.state.scores
        state = play(self.state, action)
        phase = state.phase
        if phase.is_live:  # the deal goes on
            self.state = state
            return None
        scores = (state.scores[0] - before[0], state.scores[1] - before[1])
        self.deals.append(scores)
        if phase is Phase.ROUND_OVER:
            state = next_deal(state, deal_seed(self.seed, state.deal_number + 1))
        self.state = state
        return scores

    @property
    def is_over(self) -> bool:
        """Whether the last deal has ended (R7)."""
        return self.state.phase is Phase.GAME_OVER
