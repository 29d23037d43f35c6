"""The scoring rules (R22-R26): the itemised score of a round (:class:`RoundScore`), the tally
of a table and its hands, a finished round's scores and the winner of the game.

>>> from persian_rummy import GameState, Meld
>>> state = GameState.from_position(["", "", "", ""], [], melds=["Js@0 Jh@0 Jd@0 Jc@0"])
>>> tally(state.melds, state.hands, went_out=None, rules=state.rules)[0].total
80

These functions read values (melds, hands, rules) and what a finished state or view shows, so
they sit below the state: :meth:`GameState.validate <persian_rummy.GameState.validate>` asks
:func:`tally` whether a finished round's scores add up, and the engine scores a round with it.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from persian_rummy._bits import TEAM_NAMES, team_of
from persian_rummy._phase import Phase, SharedFields
from persian_rummy.errors import GameNotOverError, RoundNotOverError
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld, credits
from persian_rummy.rules import Rules

__all__ = ["RoundScore", "score_round", "tally", "winner"]


@attrs.frozen
class RoundScore:
    """One team's score for one round, itemised (R23-R25).

    >>> score = RoundScore(team=0, melded=88, laid_off=3, doubles=40, in_hand=49, going_out=0)
    >>> score.total
    82
    >>> print(score)
    North-South: melded 88, laid off 3, doubles 40, less 49 in hand, going out 0, total 82
    >>> print(RoundScore(team=1, melded=18, laid_off=0, doubles=0, in_hand=0, going_out=25))
    East-West: melded 18, laid off 0, doubles 0, less 0 in hand, going out 25, total 43

    The cards in hand are a value subtracted: ``in_hand=49`` is "less 49 in hand", in the
    repr (which can be pasted back) and in the line alike.

    >>> score
    RoundScore(team=0, melded=88, laid_off=3, doubles=40, in_hand=49, going_out=0)
    """

    #: The team: 0 for North-South, 1 for East-West (R3).
    team: int
    #: The value of the cards the team melded (R23).
    melded: int
    #: The value of the cards the team laid off, on any meld (R16, R23).
    laid_off: int
    #: The extra value of sets of four melded at once (R24).
    doubles: int
    #: The value of the cards left in both partners' hands, subtracted (R23).
    in_hand: int
    #: The going-out bonus, if a partner went out (R25).
    going_out: int

    @property
    def total(self) -> int:
        """The round's total: melded + laid off + doubles - in hand + going out.

        >>> RoundScore(team=1, melded=0, laid_off=0, doubles=0, in_hand=20, going_out=0).total
        -20
        """
        return self.melded + self.laid_off + self.doubles - self.in_hand + self.going_out

    def __str__(self) -> str:
        return (
            f"{TEAM_NAMES[self.team]}: melded {self.melded}, laid off {self.laid_off}, doubles {self.doubles}, "
            f"less {self.in_hand} in hand, going out {self.going_out}, total {self.total}"
        )


def tally(
    melds: Sequence[Meld], hands: Sequence[Hand], *, went_out: int | None, rules: Rules
) -> tuple[RoundScore, RoundScore]:
    """Score a table, the hands left and who went out, for both teams (R22-R25).

    Every card on the table counts for the team of the seat credited with it (R16, R23); a set
    of four melded in one action counts double (R24; four jokers only if
    ``rules.double_four_jokers``); cards in hand count against the partners who hold them;
    the team of ``went_out`` gets ``rules.going_out_bonus`` (R25).

    >>> from persian_rummy import Rules, Meld, Hand
    >>> jacks, sevens = Meld.parse("Js Jh Jd Jc", seat=2), Meld.parse("7s@0 7h@0 7d@0 7c+1")
    >>> ns, ew = tally([jacks, sevens], [Hand("Kd 4d"), Hand(), Hand(), Hand()], went_out=1, rules=Rules())
    >>> ns.total, ew.total
    (87, 32)
    """
    melded = [0, 0]
    laid_off = [0, 0]
    doubles = [0, 0]
    for meld in melds:
        first_melded, second_melded, first_laid, second_laid = credits(meld)
        melded[0] += first_melded
        melded[1] += second_melded
        laid_off[0] += first_laid
        laid_off[1] += second_laid
        if meld.scores_double(rules.double_four_jokers):
            doubles[team_of(meld.owner)] += meld.points
    in_hand = [0, 0]
    for seat, hand in enumerate(hands):
        in_hand[team_of(seat)] += hand.points
    bonus = [0, 0]
    if went_out is not None:
        bonus[team_of(went_out)] = rules.going_out_bonus
    return (
        RoundScore(0, melded[0], laid_off[0], doubles[0], in_hand[0], bonus[0]),
        RoundScore(1, melded[1], laid_off[1], doubles[1], in_hand[1], bonus[1]),
    )


def score_round(state: SharedFields) -> tuple[RoundScore, RoundScore]:
    """The itemised scores of both teams for a finished round (``ROUND_OVER`` or
    ``GAME_OVER``), from the state or from any seat's view (every hand is public once the
    round is over, R23: its ``revealed_hands``); raises
    :class:`~persian_rummy.RoundNotOverError` for a round in play.

    >>> from persian_rummy import new_game, play, legal_actions
    >>> state = new_game(3)
    >>> while not state.is_deal_over:
    ...     state = play(state, legal_actions(state)[0])
    >>> ns, ew = score_round(state)
    >>> (ns.total, ew.total) == state.scores, score_round(state.view(2)) == (ns, ew)
    (True, True)
    """
    hands = state.revealed_hands
    if state.phase.is_live or hands is None:
        raise RoundNotOverError(
            f"R23: deal {state.deal_number} is still being played (phase {state.phase.name}); "
            "only a finished round can be scored"
        )
    return tally(state.melds, hands, went_out=state.went_out, rules=state.rules)


def winner(state: SharedFields) -> int | None:
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
