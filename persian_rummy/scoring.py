"""Scoring a finished round and the winner of the game (R22-R26).

>>> from persian_rummy import GameState, Meld
>>> state = GameState.from_position(["", "", "", ""], [], melds=["Js@0 Jh@0 Jd@0 Jc@0"])
>>> tally(state.melds, state.hands, went_out=None, rules=state.rules)[0].total
80
"""

from __future__ import annotations

from persian_rummy._moves import RoundScore, tally
from persian_rummy.errors import GameNotOverError, RoundNotOverError
from persian_rummy.state import GameState, Phase, PlayerView

__all__ = ["RoundScore", "score_round", "tally", "winner"]


def score_round(state: GameState | PlayerView) -> tuple[RoundScore, RoundScore]:
    """The itemised scores of both teams for a finished round (``ROUND_OVER`` or
    ``GAME_OVER``), from the state or from any seat's view (every hand is public once the
    round is over, R23); raises :class:`~persian_rummy.RoundNotOverError` for a round in play.

    >>> from persian_rummy import new_game, play, legal_actions
    >>> state = new_game(3)
    >>> while not state.is_deal_over:
    ...     state = play(state, legal_actions(state)[0])
    >>> ns, ew = score_round(state)
    >>> (ns.total, ew.total) == state.scores, score_round(state.view(2)) == (ns, ew)
    (True, True)
    """
    hands = state.hands if isinstance(state, GameState) else state.revealed_hands
    if state.phase.is_live or hands is None:
        raise RoundNotOverError(
            f"R23: deal {state.deal_number} is still being played (phase {state.phase.name}); "
            "only a finished round can be scored"
        )
    return tally(state.melds, hands, went_out=state.went_out, rules=state.rules)


def winner(state: GameState | PlayerView) -> int | None:
    """The winning team (0 or 1) of a finished game, or ``None`` for a draw (R26), from the
    state or any seat's view; raises :class:`~persian_rummy.GameNotOverError` before the
    last deal has ended.

    >>> from persian_rummy import new_game, play, legal_actions, Rules
    >>> state = new_game(3, rules=Rules(deals=1))
    >>> while not state.is_deal_over:
    ...     state = play(state, legal_actions(state)[0])
    >>> winner(state) == (0 if state.scores[0] > state.scores[1] else 1 if state.scores[1] > state.scores[0] else None)
    True
    >>> winner(state.view(1)) == winner(state)
    True
    """
    if state.phase is not Phase.GAME_OVER:
        raise GameNotOverError(
            f"R26: the game is not over (deal {state.deal_number} of {state.rules.deals}, phase {state.phase.name})"
        )
    first, second = state.scores
    if first == second:
        return None
    return 0 if first > second else 1
