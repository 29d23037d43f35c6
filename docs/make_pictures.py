"""Draw the table pictures used in the documentation (``docs/_static/*.svg``).

Run ``python docs/make_pictures.py`` after changing :mod:`persian_rummy.svg`; the tests check
that the committed pictures are the ones this script draws.
"""

from __future__ import annotations

import sys
from pathlib import Path

import attrs

from persian_rummy import DrawDiscard, GameState, Meld, Observation, Phase, deal_seed, new_game, next_deal, play
from persian_rummy.bots import GreedyBot
from persian_rummy.svg import table

STATIC = Path(__file__).parent / "_static"


def worked_example() -> GameState:
    """The end of the round of the rules' worked example: East has just gone out (R18)."""
    melds = [
        Meld.parse("8h 9h Th", seat=2),
        Meld.parse("Js Jh Jd Jc", seat=2),
        Meld.parse("7s@0 7h@0 7d@0 7c+1"),
        Meld.parse("3c+0 4c@3 5c@3 6c@3"),
        Meld.parse("3s 3h 3d", seat=3),
        Meld.parse("Jk Jk Jk", seat=1),
        Meld.parse("Qs Ks As", seat=1),
    ]
    start = GameState.from_position(["Kd 4d", "", "Jk Ad", "Qh 2d 9s"], "5h 2s", melds=melds)
    over = attrs.evolve(start, phase=Phase.ROUND_OVER, current_player=1, went_out=1, scores=(82, 130))
    over.validate()
    return over


def deep_take(seed: int = 1) -> tuple[GameState, Observation]:
    """A greedy game of ``seed`` just after the first deep discard-pile draw (R13-R14) made
    once a card has been laid off on an opponent's meld (R16), and that draw."""
    bot = GreedyBot()
    state = new_game(seed)
    while state.phase.is_live:
        action = bot(state.view(state.current_player))
        after = play(state, action)
        credited_away = any(
            seat % 2 != meld.owner % 2
            for meld in state.melds
            for seat, flag in zip(meld.seats, meld.laid_off, strict=True)
            if flag
        )
        if isinstance(action, DrawDiscard) and action.index < len(state.discard_pile) - 1 and credited_away:
            return after, Observation(state.current_player, action, state.discard_pile[action.index :])
        state = after
    raise RuntimeError(f"seed {seed} has no such position")  # pragma: no cover


def game_over(seed: int = 1) -> tuple[GameState, Observation]:
    """The end of a greedy game of ``seed`` (R26), and the action that ended it."""
    bot = GreedyBot()
    state = new_game(seed)
    while True:
        if state.phase is Phase.ROUND_OVER:
            state = next_deal(state, deal_seed(seed, state.deal_number + 1))
        action = bot(state.view(state.current_player))
        after = play(state, action)
        if after.phase is Phase.GAME_OVER:
            return after, Observation(state.current_player, action)
        state = after


def pictures() -> dict[str, str]:
    """Every picture by file name."""
    position, take = deep_take()
    final, ending = game_over()
    return {
        "table-state.svg": table(position, last=take),
        "table-view.svg": table(position.view(2), last=take),
        "opening-view.svg": table(new_game(7).view(2)),
        "game-over.svg": table(final, last=ending),
        "worked-example.svg": table(worked_example(), title="The worked example of the rules, at the end of the round"),
    }


def main(argv: list[str]) -> int:
    STATIC.mkdir(exist_ok=True)
    for name, picture in pictures().items():
        (STATIC / name).write_text(picture + "\n", encoding="utf-8")
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
