"""The checks that a state and a view share, on what both show (internal): the fields, the
turn, a finished round's scores and the player to move's legal action.

:meth:`GameState.validate <persian_rummy.GameState.validate>` and
:meth:`PlayerView.validate <persian_rummy.PlayerView.validate>` ask them, so that a position
string, a JSON value or a record can only describe a position that could arise in play. The
last asks the rules' own enumeration of legal actions (:mod:`persian_rummy._moves`).
"""

from __future__ import annotations

from persian_rummy._bits import PLAYERS, is_seat
from persian_rummy._moves import meld_phase_actions
from persian_rummy._phase import Phase, SharedFields, round_end
from persian_rummy.cards import Card
from persian_rummy.errors import InvalidStateError, counted, excerpt
from persian_rummy.hand import Hand
from persian_rummy.limits import DECK_POINTS, deal_points
from persian_rummy.melds import Meld
from persian_rummy.rules import Rules
from persian_rummy.scoring import tally


def check_fields(value: SharedFields, what: str) -> None:
    """The field checks that a state and a view share (internal): the rules, the seats to act
    and to deal (R3), the phase, the card to meld (R14), who went out (R18), the deal number
    (R7), the scores (R23), the discard pile and the melds, each of its type before any is
    read. ``what`` names the value in messages."""
    if type(value.rules) is not Rules:
        raise InvalidStateError(f"rules must be a Rules value, not {excerpt(value.rules)}")
    for name in ("current_player", "dealer"):
        if not is_seat(getattr(value, name)):
            raise InvalidStateError(f"R3: {name} must be a seat 0-3, not {excerpt(getattr(value, name))}")
    if not isinstance(value.phase, Phase):
        raise InvalidStateError(f"phase must be a Phase, not {excerpt(value.phase)}")
    if value.must_meld is not None and type(value.must_meld) is not Card:
        raise InvalidStateError(f"R14: must_meld must be a Card or None, not {excerpt(value.must_meld)}")
    if value.went_out is not None and not is_seat(value.went_out):
        raise InvalidStateError(f"R18: went_out must be a seat 0-3 or None, not {excerpt(value.went_out)}")
    deals = value.rules.deals
    if type(value.deal_number) is not int or not 1 <= value.deal_number <= deals:
        raise InvalidStateError(f"R7: deal_number must be 1-{deals}, not {excerpt(value.deal_number)}")
    scores = value.scores
    if not isinstance(scores, tuple) or len(scores) != 2 or not all(type(score) is int for score in scores):
        raise InvalidStateError(f"R23: scores must be two whole numbers, not {excerpt(scores)}")
    for name in ("discard_pile", "melds"):
        if not isinstance(getattr(value, name), tuple):
            raise InvalidStateError(f"{name} must be a tuple")
    if not all(type(card) is Card for card in value.discard_pile):
        raise InvalidStateError(f"the discard pile of a {what} holds Card values only")
    if not all(isinstance(meld, Meld) for meld in value.melds):
        raise InvalidStateError("melds must be Meld values")


def check_turn(value: SharedFields, hand_sizes: tuple[int, ...], stock_size: int, what: str) -> None:
    """The checks that a state and a view share, on what both show: the melds' aces (R10),
    the pass and idle counters (R20-R21), the phase against the card to meld, who went out
    and the hand sizes (R7, R14, R17-R19). ``what`` names the value in messages (internal)."""
    rules = value.rules
    for meld in value.melds:
        if (meld.ace_low or meld.melded_ace_low) and not rules.ace_low:
            raise InvalidStateError(f"R10: the run {meld} plays the ace low, which these rules forbid")
    live = value.phase.is_live
    for name, limit in (("consecutive_passes", rules.pass_limit - live), ("idle_turns", rules.idle_limit - live)):
        count = getattr(value, name)
        if type(count) is not int or not 0 <= count <= limit:
            raise InvalidStateError(f"R20-R21: {name} must be 0-{limit} in this {what}, not {excerpt(count)}")
    if type(value.turn_progress) is not bool:
        raise InvalidStateError(f"R21: turn_progress must be True or False, not {excerpt(value.turn_progress)}")
    if value.consecutive_passes and stock_size:
        raise InvalidStateError("R20: a player can have passed only with an empty stock")
    if live:
        if value.went_out is not None:
            raise InvalidStateError("R18: nobody has gone out while the round is being played")
        if value.phase is Phase.DRAW and (value.must_meld is not None or value.turn_progress):
            raise InvalidStateError("R14: before the draw there is no card to meld and no progress")
        if value.phase is Phase.MELD and not hand_sizes[value.current_player]:
            raise InvalidStateError("R17-R18: after drawing, the player to move holds at least one card")
        if rules.last_card_discard != "stays_in" and not all(hand_sizes):
            raise InvalidStateError(
                f"R19: under last_card_discard={excerpt(rules.last_card_discard)} no player can have "
                "an empty hand while the round is being played"
            )
        if value.phase is Phase.MELD and value.must_meld is not None and value.turn_progress:
            raise InvalidStateError("R14: the card taken must be melded by the first action after the draw")
        if (
            value.phase is Phase.MELD
            and value.must_meld is None
            and not value.turn_progress
            and rules.top_card_must_meld
        ):
            raise InvalidStateError(
                "R12-R14: after the draw, either the stock's card was drawn (progress) or the card taken from the "
                "pile must be melded (top_card_must_meld=True)"
            )
        _check_scores(value, value.deal_number - 1, value.scores)
        return
    if value.must_meld is not None:
        raise InvalidStateError("R14: no card must be melded once the round is over")
    if (value.phase is Phase.GAME_OVER) != (value.deal_number == rules.deals):
        raise InvalidStateError("R7: the game is over exactly when the last deal has ended")
    if round_end(value) is None:
        raise InvalidStateError(
            "R18, R20, R21: a round ends only when a player goes out, when the passes end it "
            f"({rules.pass_limit} in a row) or after {rules.idle_limit} idle turns"
        )
    if value.went_out is not None:
        if type(value.went_out) is not int or not 0 <= value.went_out < PLAYERS:
            raise InvalidStateError(f"R18: went_out must be a seat 0-3 or None, not {excerpt(value.went_out)}")
        if hand_sizes[value.went_out]:
            raise InvalidStateError("R18: the player who went out holds no card")
        if value.current_player != value.went_out:
            raise InvalidStateError("R18: the round ended with the action of the player who went out")


def check_finished_scores(value: SharedFields, hands: tuple[Hand, ...]) -> None:
    """A finished round's scores are the earlier deals' totals plus this round's tally
    (R23-R25): exactly the tally after deal 1, else a remainder the earlier deals could give
    (internal)."""
    first, second = tally(value.melds, hands, went_out=value.went_out, rules=value.rules)
    before = (value.scores[0] - first.total, value.scores[1] - second.total)
    if value.deal_number == 1 and before != (0, 0):
        raise InvalidStateError(
            f"R23: the scores of the finished deal 1 are its tally, {first.total},{second.total}, "
            f"not {value.scores[0]},{value.scores[1]}"
        )
    _check_scores(value, value.deal_number - 1, before)


def _check_scores(value: SharedFields, deals: int, scores: tuple[int, int]) -> None:
    # R23-R25: each deal gives a team at most deal_points(bonus), and takes at most the deck.
    low, high = -deals * DECK_POINTS, deals * deal_points(value.rules.going_out_bonus)
    if not all(low <= score <= high for score in scores):
        raise InvalidStateError(
            f"R23-R25: {counted(deals, 'finished deal')} give each team {low} to {high} points, "
            f"so the scores before deal {value.deal_number} cannot be {excerpt(scores)}"
        )


def check_mover(value: SharedFields, hand: Hand) -> None:
    """A live position always has a legal action (R12-R20): a draw or a pass before the draw
    (there always is one), and after it a meld, lay-off or discard of the mover's ``hand``
    (internal; asked with the engine's own enumeration)."""
    if value.phase is not Phase.MELD:
        return
    must = value.must_meld
    if must is not None and must not in hand:
        raise InvalidStateError("R14: the card to meld must be in the hand of the player to move")
    if not meld_phase_actions(
        hand.mask, hand.jokers, value.melds, must, value.rules, value.current_player, first_only=True
    ):
        if must is not None:
            raise InvalidStateError(
                f"R14: the {must} taken from the discard pile cannot be melded or laid off now, so it could not "
                "have been taken, and the player to move would have no legal action"
            )
        raise InvalidStateError(
            "R19: the player to move holds one card that cannot be laid off, and last_card_discard='forbidden' "
            "forbids discarding it: no legal action"
        )
