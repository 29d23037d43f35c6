"""The bot protocol: what a bot says about itself (it reads the public history, R13/R27; it
plays some rules only; a class of them is made from each seat's seed) is read once into a
:class:`~persian_rummy.bots.Player`, which the arena, the table server and the command line
ask. Every spelling a user's bot had before still plays: a class with the old attributes, a
plain callable, a factory, and a bot that reads the history."""

from __future__ import annotations

import pytest

from persian_rummy import (
    Action,
    ArgumentTypeError,
    DrawStock,
    InfoState,
    PlayerView,
    PolicyFileError,
    Rules,
    legal_actions,
    new_game,
)
from persian_rummy.arena import BotFactory, ask_bot, build_bot, check_bot_spec, play_game, run_match
from persian_rummy.bots import (
    Bot,
    GreedyBot,
    HistoryBot,
    MonteCarloBot,
    Player,
    RulesBot,
    SeededBotClass,
    neural_bot,
)


class OldStyle:
    """A user's bot class as written before the protocol had a name: three plain attributes."""

    made_from_seed = True
    takes_info_state = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.seen: list[type] = []

    def require_rules(self, rules: Rules) -> None:
        if rules.deals != Rules().deals:
            raise PolicyFileError(f"OldStyle plays {Rules().deals} deals, not {rules.deals}")

    def __call__(self, seen: PlayerView | InfoState) -> Action:
        self.seen.append(type(seen))
        view = seen.view if isinstance(seen, InfoState) else seen
        return legal_actions(view)[0]


def first(view: PlayerView) -> Action:
    """A plain function of the view."""
    assert isinstance(view, PlayerView), "a bot that does not read the history is handed the view"
    return legal_actions(view)[0]


def test_r27_a_class_with_the_old_attributes_is_asked_through_the_protocol() -> None:
    bot = OldStyle(4)
    assert isinstance(OldStyle, SeededBotClass) and isinstance(bot, HistoryBot) and isinstance(bot, RulesBot)
    player = Player.of(bot)
    assert player.reads_history and player.bot is bot and Player.of(player) is player
    state = new_game(1)
    assert player.choose(InfoState.start(state, 1)) == DrawStock() and bot.seen == [InfoState]
    # the arena makes the class from each seat's seed (made_from_seed), and hands it the history
    assert check_bot_spec(OldStyle) == BotFactory(OldStyle)
    made = build_bot(OldStyle, 9)
    assert isinstance(made, OldStyle) and made.seed == 9
    # which rules it plays is asked through the protocol, before any game
    player.require_rules(Rules())
    with pytest.raises(PolicyFileError, match="OldStyle plays"):
        build_bot(OldStyle, 9, rules=Rules(deals=1))
    with pytest.raises(PolicyFileError, match="OldStyle plays"):
        check_bot_spec(OldStyle(1), rules=Rules(deals=1))
    result = run_match(OldStyle, "greedy", games=2, seed="old", workers=1)
    assert len(result.games) == 2


def test_r27_a_plain_callable_is_handed_the_view_even_where_the_history_is_at_hand() -> None:
    player = Player.of(first)
    assert isinstance(first, Bot) and not isinstance(first, HistoryBot) and not player.reads_history
    state = new_game(1)
    # given the information state, a bot that does not read the history still sees its view
    assert player.choose(InfoState.start(state, 1)) == player.choose(state.view(1)) == DrawStock()
    assert ask_bot(first, InfoState.start(state, 1)) == DrawStock()
    player.require_rules(Rules(deals=1))  # a bot that says nothing plays every rule set
    assert repr(player) == "Player.of(<function first>)"
    game = play_game([first, GreedyBot(1), first, GreedyBot(3)], 2)
    assert game.final.phase.name == "GAME_OVER"


def test_a_factory_makes_each_seats_bot_and_the_protocol_reads_what_it_made() -> None:
    def make(seed: int) -> MonteCarloBot:
        return MonteCarloBot(seed, samples=1, horizon=1, history=1)

    bot = build_bot(BotFactory(make), 5)
    assert isinstance(bot, MonteCarloBot) and bot.seed == 5 and Player.of(bot).reads_history
    plain = build_bot(BotFactory(GreedyBot), 5)
    assert not Player.of(plain).reads_history and Player.of(plain).rules_bound is None


def test_r13_r27_a_bot_that_reads_the_history_is_handed_its_information_state() -> None:
    seen: list[type] = []

    def reader(info: PlayerView | InfoState) -> Action:
        seen.append(type(info))
        assert isinstance(info, InfoState)
        return legal_actions(info.view)[0]

    reader.takes_info_state = True  # type: ignore[attr-defined]  # a function says so as an object does
    assert isinstance(reader, HistoryBot) and Player.of(reader).reads_history
    play_game([reader, GreedyBot(1), GreedyBot(2), GreedyBot(3)], 5)
    assert seen and set(seen) == {InfoState}
    # a false takes_info_state is the view, as before
    assert not Player.of(MonteCarloBot(1)).reads_history and isinstance(MonteCarloBot(1), HistoryBot)


def test_the_learned_player_says_which_rules_it_plays() -> None:
    player = Player.of(neural_bot(1))
    assert player.rules_bound is not None and not player.reads_history
    player.require_rules(Rules())
    with pytest.raises(PolicyFileError, match="trained for the rules"):
        player.require_rules(Rules(deals=1))


def test_every_bundled_bot_takes_a_numpy_seed_as_the_whole_number_it_is() -> None:
    # A numpy integer was let through as a seed, then RandomBot's generator refused it with a
    # bare TypeError (and MonteCarloBot's); the expert and the learned player refused it. Every
    # bundled bot now reads its seed in one place: numpy's integers are whole numbers, a bool
    # and a float are not.
    import numpy as np

    from persian_rummy.bots import RandomBot, expert_bot
    from persian_rummy.policy import NeuralBot, shipped_policy
    from persian_rummy.search import ExpertBot

    view = new_game(4).view(1)
    makers = {
        "RandomBot": RandomBot,
        "GreedyBot": GreedyBot,
        "MonteCarloBot": MonteCarloBot,
        "NeuralBot": lambda seed: NeuralBot(shipped_policy(), seed),
        "ExpertBot": lambda seed: expert_bot(seed, samples=1),
    }
    for name, make in makers.items():
        bot = make(np.int64(3))
        assert type(bot.seed) is int and bot.seed == 3 and bot(view) == make(3)(view), name
        for wrong in (True, 1.5, "3"):
            with pytest.raises(ArgumentTypeError, match=f"{name}'s seed is a whole number"):
                make(wrong)
    assert isinstance(expert_bot(1), ExpertBot)


def test_a_class_says_through_the_protocol_whether_it_is_made_from_each_seats_seed() -> None:
    # made_from_seed true: cls(seed); false: cls() though it takes a seed; unsaid: cls(seed=seed).
    class Says(OldStyle):
        made_from_seed = True

    class SaysNot(OldStyle):
        made_from_seed = False

    class Unsaid:
        def __init__(self, seed: int = 0) -> None:
            self.seed = seed

        def __call__(self, view: PlayerView) -> Action:
            return legal_actions(view)[0]

    assert isinstance(Says, SeededBotClass) and isinstance(SaysNot, SeededBotClass)
    assert not isinstance(Unsaid, SeededBotClass)
    made = [build_bot(cls, 7) for cls in (Says, SaysNot, Unsaid)]
    assert [bot.seed for bot in made] == [7, 0, 7]  # type: ignore[attr-defined]
