"""The rules in motion: legal actions and the pure functions that play them (R12-R21).

Every function here takes a :class:`~persian_rummy.GameState` and returns a new one (or a
tuple of actions); none changes its arguments. An illegal action raises a subclass of
:class:`~persian_rummy.IllegalActionError` that names the rule, and the state passed in stays
as it was.

>>> from persian_rummy import new_game, legal_draws, play, DrawStock
>>> state = new_game(1)
>>> legal_draws(state)
(DrawStock(),)
>>> state = play(state, DrawStock())
>>> state.phase, len(state.hand)
(<Phase.MELD: 'meld'>, 8)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from persian_rummy._bits import cards_bits, repeated
from persian_rummy._moves import leftover_ok, tally, target_usable, without
from persian_rummy.actions import (
    DISCARDS,
    DRAW_STOCK,
    PASS,
    Action,
    Discard,
    DrawDiscard,
    DrawStock,
    LayOff,
    MeldCards,
    Pass,
    draw_discard_action,
    lay_off_action,
)
from persian_rummy.cards import JOKER_INDEX, Card
from persian_rummy.errors import (
    ArgumentTypeError,
    CardNotInHandError,
    EmptyStockError,
    IllegalActionError,
    InvalidDrawError,
    InvalidLayOffError,
    InvalidMeldError,
    LastCardError,
    MeldValueError,
    NoSuchMeldError,
    NotationError,
    NotYourTurnError,
    PassNotAllowedError,
    StateRequiredError,
    TargetNotUsedError,
    WrongPhaseError,
    excerpt,
)
from persian_rummy.hand import Hand, make_hand
from persian_rummy.limits import MELD_LIMIT, PILE_LIMIT
from persian_rummy.melds import (
    Meld,
    extend,
    extensions,
    new_meld,
    shape_of,
)
from persian_rummy.state import PLAYERS, GameState, Phase, PlayerView, evolve, turn_actions

__all__ = [
    "discard",
    "draw_discard",
    "draw_stock",
    "is_legal",
    "lay_off",
    "legal_actions",
    "legal_draws",
    "meld",
    "pass_turn",
    "play",
]


# --- Enumeration -------------------------------------------------------------------------


def legal_draws(state: GameState | PlayerView) -> tuple[Action, ...]:
    """The legal actions of the draw phase, in order: :class:`~persian_rummy.DrawStock` if the
    stock has cards (R12), each :class:`~persian_rummy.DrawDiscard` whose target can be melded
    or laid off at once, from the bottom of the pile up (R13-R14), and
    :class:`~persian_rummy.Pass` when the stock is empty (R20). Empty in any other phase,
    and for a :class:`~persian_rummy.PlayerView` of a seat that is not to move.

    >>> from persian_rummy import GameState
    >>> state = GameState.from_position(["", "5s 6s Kd", "", ""], "4s Qh 9c 7s")
    >>> legal_draws(state)
    (DrawStock(), DrawDiscard(index=0), DrawDiscard(index=3))
    """
    return turn_actions(state, draws_only=True)


def legal_actions(state: GameState | PlayerView) -> tuple[Action, ...]:
    """Every legal action of the player to move, in a deterministic order.

    In the draw phase these are :func:`legal_draws`. After the draw: every meld the hand can
    make (sets by rank, runs by suit from low to high, joker sets), every lay-off (by table
    meld, in table order), every discard (in card order); after a discard-pile draw only the
    melds and lay-offs that use its target (R14). Empty once the round is over. The list is
    authoritative: each action in it can be played, and :func:`play` raises for any other.
    Given a :class:`~persian_rummy.PlayerView`, the same actions for the seat to move, and
    none for the other seats; anything else raises :class:`~persian_rummy.ArgumentTypeError`.

    >>> from persian_rummy import GameState, draw_discard
    >>> state = GameState.from_position(["", "5s 6s 7s 8s", "", ""], "2c 8c 8h", melds=["Kd@0 Qd@0 Jd@0"])
    >>> state = draw_discard(state, 1)  # takes 8c 8h; the 8c must be melded (R14)
    >>> [str(action) for action in legal_actions(state)]
    ['meld 8s 8h 8c']
    >>> [str(action) for action in legal_actions(play(state, "meld 8s 8h 8c"))]
    ['meld 5s 6s 7s', 'discard 5s', 'discard 6s', 'discard 7s']
    """
    return turn_actions(state)


# --- Checks ------------------------------------------------------------------------------


def _require(state: GameState, phase: Phase, action: Action | None) -> None:
    if type(state) is not GameState:
        _require_state(state)
    if state.phase is phase:
        return
    seat = state.current_player
    if not state.phase.is_live:
        raise WrongPhaseError(
            "R18" if state.went_out is not None else "R20",
            f"the round is over (phase {state.phase.name}); nobody acts until the next deal",
            state=state,
            action=action,
        )
    if phase is Phase.DRAW:
        raise WrongPhaseError(
            "R12",
            f"seat {seat} has already drawn this turn; {str(action)!r} is only for the start of a turn",
            state=state,
            action=action,
        )
    raise WrongPhaseError(
        "R12", f"seat {seat} must draw first (or pass with an empty stock)", state=state, action=action
    )


def _require_state(state: object) -> None:
    if isinstance(state, GameState):
        return
    if isinstance(state, PlayerView):
        what = "not a PlayerView: the next state depends on hidden cards; is_legal() and legal_actions() accept a view"
    else:
        what = f"not {excerpt(state)}"
    raise StateRequiredError(f"R27: play() needs the full GameState, {what}")


def _require_card(state: GameState, card: Card, action: Action, rule: str) -> None:
    hand = state.hands[state.current_player]
    if hand.jokers if card.index == JOKER_INDEX else hand.mask >> card.index & 1:
        return
    seat = state.current_player
    raise CardNotInHandError(
        rule,
        f"seat {seat} does not hold {card}",
        state=state,
        action=action,
        reason=f"{rule}: seat {seat} does not hold the card named",
    )


def _require_target(state: GameState, used: bool, action: Action) -> None:
    must = state.must_meld
    if must is None or used:
        return
    how = "meld" if state.rules.pickup_use == "new_meld_only" else "meld or lay off"
    raise TargetNotUsedError(
        "R14",
        f"the next action must {how} {must}, taken from the discard pile",
        state=state,
        action=action,
    )


def _require_leftover(state: GameState, mask: int, jokers: int, melds: tuple[Meld, ...], action: Action) -> None:
    if state.rules.last_card_discard == "forbidden" and not leftover_ok(mask, jokers, melds, state.rules):
        left = next(iter(make_hand(mask, jokers)))
        raise LastCardError(
            "R19",
            f"this would leave seat {state.current_player} holding only {left}, which cannot be laid off, "
            "and last_card_discard='forbidden' forbids discarding it",
            state=state,
            action=action,
            reason=f"R19: this would leave seat {state.current_player} one card that cannot be laid off, "
            "and last_card_discard='forbidden' forbids discarding it",
        )


# --- Transitions -------------------------------------------------------------------------


def _next_turn(
    state: GameState,
    hands: tuple[Hand, ...],
    discard_pile: tuple[Card, ...],
    passed: bool,
) -> GameState:
    """End the current player's turn (discard or pass): count passes and idle turns, end the
    round after four passes (or the first, R20) or eight idle turns (R21), else pass the turn
    to the left."""
    rules = state.rules
    passes = state.consecutive_passes + 1 if passed else 0
    idle = 0 if state.turn_progress else state.idle_turns + 1
    if (passed and passes >= rules.pass_limit) or idle >= rules.idle_limit:
        return _end_round(state, hands, state.melds, discard_pile, None, passes, idle)
    return evolve(
        state,
        hands=hands,
        discard_pile=discard_pile,
        current_player=(state.current_player + 1) % PLAYERS,
        phase=Phase.DRAW,
        must_meld=None,
        consecutive_passes=passes,
        idle_turns=idle,
        turn_progress=False,
    )


def _end_round(
    state: GameState,
    hands: tuple[Hand, ...],
    melds: tuple[Meld, ...],
    discard_pile: tuple[Card, ...],
    went_out: int | None,
    passes: int,
    idle: int,
) -> GameState:
    rules = state.rules
    first, second = tally(melds, hands, went_out=went_out, rules=rules)
    scores = (state.scores[0] + first.total, state.scores[1] + second.total)
    return evolve(
        state,
        hands=hands,
        discard_pile=discard_pile,
        melds=melds,
        phase=Phase.GAME_OVER if state.deal_number >= rules.deals else Phase.ROUND_OVER,
        must_meld=None,
        scores=scores,
        consecutive_passes=passes,
        idle_turns=idle,
        turn_progress=True if went_out is not None else state.turn_progress,
        went_out=went_out,
    )


def _after_table_change(state: GameState, hand: Hand, melds: tuple[Meld, ...]) -> GameState:
    seat = state.current_player
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
    if not hand:
        # R18: a player who empties their hand by melding or laying off goes out at once.
        return _end_round(state, hands, melds, state.discard_pile, seat, state.consecutive_passes, 0)
    return evolve(state, hands=hands, melds=melds, phase=Phase.MELD, must_meld=None, turn_progress=True)


def draw_stock(state: GameState) -> GameState:
    """Take the top card of the stock (R12).

    Raises :class:`~persian_rummy.WrongPhaseError` outside the draw phase and
    :class:`~persian_rummy.EmptyStockError` when the stock is empty.

    >>> from persian_rummy import new_game
    >>> state = new_game(1)
    >>> after = draw_stock(state)
    >>> after.hands[1] == state.hands[1] + Hand([state.stock[-1]]), len(after.stock)
    (True, 26)
    """
    _require(state, Phase.DRAW, DRAW_STOCK)
    if not state.stock:
        raise EmptyStockError(
            "R20", "the stock is empty: take from the discard pile or pass", state=state, action=DRAW_STOCK
        )
    seat = state.current_player
    card = state.stock[-1]
    hand = state.hands[seat]
    if card.index == JOKER_INDEX:
        new_hand = make_hand(hand.mask, hand.jokers + 1)
    else:
        new_hand = make_hand(hand.mask | 1 << card.index, hand.jokers)
    return evolve(
        state,
        hands=state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :],
        stock=state.stock[:-1],
        phase=Phase.MELD,
        must_meld=None,
        turn_progress=True,
    )


def draw_discard(state: GameState, index: int) -> GameState:
    """Take ``discard_pile[index]`` and every card above it (R13); that card, the target, must be
    melded or laid off by the next action (R14), so the draw is legal only if that is possible
    now with the hand and all the cards taken. Under ``top_card_must_meld=False`` the top card
    alone may be taken freely.

    Raises :class:`~persian_rummy.WrongPhaseError` outside the draw phase and
    :class:`~persian_rummy.InvalidDrawError` for an index not in the pile or a target that
    cannot be used.

    >>> from persian_rummy import GameState
    >>> state = GameState.from_position(["", "5s 6s Kd", "", ""], "4s Qh 9c 7s")
    >>> after = draw_discard(state, 0)
    >>> after.hand, after.discard_pile, after.must_meld
    (Hand.parse('4s 5s 6s 7s Qh Kd 9c'), (), Card.parse('4s'))
    """
    # Bounded before anything is built from the index (the shared actions are a fixed table).
    action = draw_discard_action(index) if type(index) is int and 0 <= index < PILE_LIMIT else None
    _require(state, Phase.DRAW, action)
    pile = state.discard_pile
    if action is None or index >= len(pile):
        raise InvalidDrawError(
            "R13",
            f"there is no card at index {excerpt(index)} of the discard pile ({len(pile)} cards, 0 at the bottom)",
            state=state,
            action=action,
        )
    seat = state.current_player
    hand = state.hands[seat]
    taken_mask, taken_jokers = cards_bits(pile[index:])
    mask, jokers = hand.mask | taken_mask, hand.jokers + taken_jokers
    target = pile[index]
    free = index == len(pile) - 1 and not state.rules.top_card_must_meld
    if not free and not target_usable(mask, jokers, target, state.melds, state.rules, seat):
        how = "melded" if state.rules.pickup_use == "new_meld_only" else "melded or laid off"
        if state.rules.last_card_discard == "forbidden":
            how += " (without stranding a last card, R19)"
        raise InvalidDrawError(
            "R14", f"{target} cannot be {how} at once, so it may not be taken", state=state, action=action
        )
    return evolve(
        state,
        hands=state.hands[:seat] + (make_hand(mask, jokers),) + state.hands[seat + 1 :],
        discard_pile=pile[:index],
        phase=Phase.MELD,
        must_meld=None if free else target,
    )


def meld(state: GameState, cards: str | Iterable[Card | str]) -> GameState:
    """Lay down a set or run from the hand (R8-R11, R15), credited to the player; emptying the
    hand this way goes out and ends the round (R18).

    Raises :class:`~persian_rummy.CardNotInHandError`, :class:`~persian_rummy.InvalidMeldError`,
    :class:`~persian_rummy.TargetNotUsedError` (R14), :class:`~persian_rummy.LastCardError`
    (R19 ``"forbidden"``) or :class:`~persian_rummy.WrongPhaseError`.

    >>> from persian_rummy import GameState, draw_stock
    >>> state = draw_stock(GameState.from_position(["", "5s 6s 7s 8s", "", ""], "2c"))
    >>> after = meld(state, "8s 7s 6s")
    >>> after.melds, after.hand
    ((Meld.parse('6s@1 7s@1 8s@1'),), Hand.parse('5s Jk'))
    """
    return _meld(state, MeldCards(cards))


def _meld(state: GameState, action: MeldCards) -> GameState:
    # meld() for an action already built: its cards are parsed and in canonical order.
    _require(state, Phase.MELD, action)
    seat = state.current_player
    hand = state.hands[seat]
    mask, jokers = cards_bits(action.cards)
    twice = repeated(action.cards) if mask.bit_count() + jokers < len(action.cards) else None
    if twice is not None:
        raise InvalidMeldError(
            "R1",
            f"{twice} is named twice, but the deck has one {twice}",
            state=state,
            action=action,
            reason="R1: the meld names a card twice, but the deck has one of each",
        )
    if mask & ~hand.mask or jokers > hand.jokers:
        missing = [str(card) for card in action.cards if card not in hand]
        if jokers > hand.jokers:
            missing.append(f"{jokers} jokers (holds {hand.jokers})")
        raise CardNotInHandError(
            "R15",
            f"seat {seat} does not hold {' '.join(dict.fromkeys(missing))}",
            state=state,
            action=action,
            reason=f"R15: seat {seat} does not hold every card of the meld",
        )
    shape = shape_of(mask, jokers)
    if isinstance(shape, MeldValueError):
        raise InvalidMeldError(
            shape.rule,
            f"{' '.join(map(str, action.cards))} is not a valid meld: {shape.reason}",
            state=state,
            action=action,
            reason=f"{shape.rule}: not a valid meld: {shape.reason}",
        )
    if shape.ace_low and state.rules.ace_in_runs == "high":
        text = "in runs the ace is high only (ace_in_runs='high'): A-2-3 is not a run"
        raise InvalidMeldError("R10", text, state=state, action=action, reason=f"R10: {text}")
    must = state.must_meld
    _require_target(state, must is None or must in action.cards, action)
    new = new_meld(mask, jokers, shape, seat)
    melds = state.melds + (new,)
    left = make_hand(hand.mask & ~mask, hand.jokers - jokers)
    _require_leftover(state, left.mask, left.jokers, melds, action)
    return _after_table_change(state, left, melds)


def lay_off(state: GameState, card: Card | str, meld: int) -> GameState:
    """Add ``card`` from the hand to table meld number ``meld`` (own, partner's or an
    opponent's), credited to the player's team, keeping the meld valid (R16); emptying the
    hand this way goes out (R18).

    Raises :class:`~persian_rummy.NoSuchMeldError`, :class:`~persian_rummy.CardNotInHandError`,
    :class:`~persian_rummy.InvalidLayOffError`, :class:`~persian_rummy.TargetNotUsedError`
    (R14), :class:`~persian_rummy.LastCardError` (R19) or
    :class:`~persian_rummy.WrongPhaseError`.

    >>> from persian_rummy import GameState, draw_stock
    >>> state = GameState.from_position(["", "3c 9h", "", ""], "2d", melds=["4c@3 5c@3 6c@3"])
    >>> after = lay_off(draw_stock(state), "3c", 0)
    >>> after.melds[0]
    Meld.parse('3c+1 4c@3 5c@3 6c@3')
    """
    card = Card.parse(card)
    action = lay_off_action(card.index, meld) if type(meld) is int and 0 <= meld < MELD_LIMIT else None
    _require(state, Phase.MELD, action)
    melds = state.melds
    if action is None or meld >= len(melds):
        raise NoSuchMeldError(
            "R16", f"there is no meld {excerpt(meld)} on the table ({len(melds)} melds)", state=state, action=action
        )
    _require_card(state, card, action, "R16")
    target_meld = melds[meld]
    if card not in extensions(target_meld, state.rules.ace_low):
        rule = "R11" if card.is_joker or target_meld.is_joker_set else "R16"
        raise InvalidLayOffError(
            rule,
            f"{card} does not extend the meld {' '.join(map(str, target_meld.cards))}",
            state=state,
            action=action,
            reason=f"{rule}: the card named does not extend meld {meld} ({' '.join(map(str, target_meld.cards))})",
        )
    must = state.must_meld
    if must is not None and state.rules.pickup_use == "new_meld_only":
        raise TargetNotUsedError(
            "R14",
            f"the next action must lay down a new meld containing {must} (pickup_use='new_meld_only')",
            state=state,
            action=action,
        )
    _require_target(state, must is None or must == card, action)
    seat = state.current_player
    hand = state.hands[seat]
    new_melds = melds[:meld] + (extend(target_meld, card, seat),) + melds[meld + 1 :]
    mask, jokers = without(hand.mask, hand.jokers, card.index)
    _require_leftover(state, mask, jokers, new_melds, action)
    return _after_table_change(state, make_hand(mask, jokers), new_melds)


def discard(state: GameState, card: Card | str) -> GameState:
    """Discard ``card`` on top of the discard pile, ending the turn (R17). Discarding the last
    card keeps the player in with an empty hand (R19, default), ends the round as going out
    (``"goes_out"``) or is illegal (``"forbidden"``).

    Raises :class:`~persian_rummy.CardNotInHandError`, :class:`~persian_rummy.TargetNotUsedError`
    (R14), :class:`~persian_rummy.LastCardError` (R19) or
    :class:`~persian_rummy.WrongPhaseError`.

    >>> from persian_rummy import new_game
    >>> state = draw_stock(new_game(1))
    >>> after = discard(state, "Jk")
    >>> after.discard_pile[-1], after.current_player, after.phase
    (Card.parse('Jk'), 2, <Phase.DRAW: 'draw'>)
    """
    card = Card.parse(card)
    action = DISCARDS[card.index]
    _require(state, Phase.MELD, action)
    _require_target(state, False, action)
    _require_card(state, card, action, "R17")
    seat = state.current_player
    hand = state.hands[seat]
    rules = state.rules
    mask, jokers = without(hand.mask, hand.jokers, card.index)
    if not mask and not jokers and rules.last_card_discard == "forbidden":
        raise LastCardError(
            "R19",
            f"seat {seat} may not discard their last card (last_card_discard='forbidden')",
            state=state,
            action=action,
        )
    new_hand = make_hand(mask, jokers)
    hands = state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :]
    pile = state.discard_pile + (card,)
    if not new_hand and rules.last_card_discard == "goes_out":
        return _end_round(state, hands, state.melds, pile, seat, 0, 0)
    return _next_turn(state, hands, pile, passed=False)


def pass_turn(state: GameState) -> GameState:
    """Pass instead of drawing, allowed only when the stock is empty (R20). The round ends
    after four passes in a row (``stock_out_end="all_pass"``) or at the first
    (``"first_pass"``), with no going-out bonus.

    Raises :class:`~persian_rummy.PassNotAllowedError` while the stock has cards and
    :class:`~persian_rummy.WrongPhaseError` outside the draw phase.

    >>> from persian_rummy import GameState, DECK
    >>> state = GameState.from_position([DECK[:13], DECK[13:26], DECK[26:39], DECK[39:52]], "Jk Jk Jk Jk", stock=())
    >>> state = pass_turn(pass_turn(pass_turn(state)))
    >>> state.consecutive_passes, pass_turn(state).phase
    (3, <Phase.ROUND_OVER: 'round_over'>)
    """
    _require(state, Phase.DRAW, PASS)
    if state.stock:
        raise PassNotAllowedError(
            "R20",
            f"seat {state.current_player} may pass only when the stock is empty ({len(state.stock)} cards left)",
            state=state,
            action=PASS,
        )
    return _next_turn(state, state.hands, state.discard_pile, passed=True)


def play(state: GameState, action: Action | str, *, seat: int | None = None) -> GameState:
    """Play ``action`` (an :class:`~persian_rummy.Action` or its text) for the player to move
    and return the next state. Raises a subclass of :class:`~persian_rummy.IllegalActionError`
    if the rules forbid it (the state passed in is unchanged), or
    :class:`~persian_rummy.NotationError` for text that is not an action, and
    :class:`~persian_rummy.ArgumentTypeError` for a value that is neither.

    ``seat`` is the seat the action comes from, for a server that takes actions from four
    players: while the round is live, an action from any seat but ``state.current_player``
    raises :class:`~persian_rummy.NotYourTurnError` before the action is looked at. A
    :class:`~persian_rummy.PlayerView` cannot be played forward (the next state depends on
    hidden cards): it raises :class:`~persian_rummy.StateRequiredError`.

    >>> from persian_rummy import new_game
    >>> state = play(new_game(1), "draw")
    >>> play(state, "discard Jk").current_player
    2
    >>> play(state, "discard Jk", seat=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotYourTurnError: R6: it is seat 1's turn, not seat 2's [deal 1 of 2, seat 1 to act, ...]
    """
    if seat is not None:
        _require_seat(state, seat, action)
    kind = type(action)
    if kind is DrawStock:
        return draw_stock(state)
    if kind is Discard:
        return discard(state, cast(Discard, action).card)
    if kind is MeldCards:
        return _meld(state, cast(MeldCards, action))
    if kind is LayOff:
        laid = cast(LayOff, action)
        return lay_off(state, laid.card, laid.meld)
    if kind is DrawDiscard:
        return draw_discard(state, cast(DrawDiscard, action).index)
    if kind is Pass:
        return pass_turn(state)
    if isinstance(action, str):
        return play(state, Action.parse(action))
    _require_state(state)
    raise ArgumentTypeError(f"expected an Action or its text, not {excerpt(action)}")


def _require_seat(state: GameState | PlayerView, seat: object, action: object) -> None:
    if type(seat) is not int or not 0 <= seat < PLAYERS:
        raise NotYourTurnError(
            "R3", f"seats are 0, 1, 2 and 3, so {excerpt(seat)} is never to move", state=_as_state(state), action=action
        )
    if seat != state.current_player and state.phase.is_live:
        raise NotYourTurnError(
            "R6",
            f"it is seat {state.current_player}'s turn, not seat {seat}'s",
            state=_as_state(state),
            action=action if isinstance(action, Action) else None,
        )


def _as_state(state: object) -> GameState | None:
    return state if type(state) is GameState else None


def is_legal(state: GameState | PlayerView, action: Action | str, *, seat: int | None = None) -> bool:
    """Whether ``action`` may be played now (exactly when it is in :func:`legal_actions`), and,
    given ``seat``, whether that seat may play it (it is to move).

    A :class:`~persian_rummy.PlayerView` is answered from what it knows: the seat to move's
    own view knows its whole hand, so the answer is the same as for the full state; every
    other seat's view answers ``False`` (as :func:`legal_actions` lists nothing for it).
    Text that is not an action is not legal; a value that is neither an action nor text raises
    :class:`~persian_rummy.ArgumentTypeError`, as :func:`play` does.

    >>> from persian_rummy import new_game, observe, DrawStock, Pass
    >>> is_legal(new_game(1), DrawStock()), is_legal(new_game(1), Pass())
    (True, False)
    >>> is_legal(new_game(1), "draw", seat=2), is_legal(observe(new_game(1), 1), "draw")
    (False, True)
    """
    if isinstance(action, str):
        try:
            action = Action.parse(action)
        except NotationError:
            return False
    elif not isinstance(action, Action):
        raise ArgumentTypeError(f"expected an Action or its text, not {excerpt(action)}")
    if seat is not None and (type(seat) is not int or seat != state.current_player):
        return False
    if isinstance(state, PlayerView):
        return isinstance(action, Action) and action in legal_actions(state)
    try:
        play(state, action)
    except IllegalActionError:
        return False
    return True
