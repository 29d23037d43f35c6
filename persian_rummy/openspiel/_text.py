"""The texts of a state of the OpenSpiel game: this game's own (a header, the game's string,
the history) and OpenSpiel's (``pyspiel.serialize_game_and_state``: sections, a history of
``player:action`` items, and the state part, a pickle this game never decodes), each read into
a list of actions that :func:`replay` plays through the rules, every step checked. Nothing
here unpickles anything, and no text read is handed to OpenSpiel: the game's string is parsed
here, and the game made from the parameters read."""

from __future__ import annotations

import base64
import pickle
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from persian_rummy.encoding import NUM_ACTIONS
from persian_rummy.errors import ArgumentTypeError, NotationError, PersianRummyError, counted, excerpt
from persian_rummy.limits import DEALS_LIMIT
from persian_rummy.openspiel._node import DEAL_NODES, START, what

#: The first line of a state's text (:meth:`PersianRummyState.serialize`).
_HEADER: Final = "persian-rummy openspiel state 1"
_ACTION_NUMBER: Final = re.compile(r"0|[1-9][0-9]{0,3}")
_COUNT: Final = re.compile(r"0|[1-9][0-9]{0,8}")
_GAME_TEXT: Final = re.compile(r"python_persian_rummy\(([^()]*)\)")

#: The longest text :func:`read_envelope` reads: the header, a game's string, and the history
#: of the longest game (:data:`~persian_rummy.limits.DEALS_LIMIT` deals, R7) at 7 characters
#: an action.
_ENVELOPE_LIMIT: Final = 1000 + 7 * DEALS_LIMIT * DEAL_NODES
_HISTORY_PLAYER: Final = re.compile(r"-1|[0-3]")
#: The longest game string read (every parameter written out is about 200 characters).
_GAME_TEXT_LIMIT: Final = 1000
#: OpenSpiel's sections of a text of a game and a state, in order.
_SECTIONS: Final = ("[Meta]", "[Game]", "[State]")


def state_text(game: Any, history: Sequence[int]) -> str:
    """This game's text of a state of ``game`` with ``history`` (see
    :meth:`~persian_rummy.openspiel.PersianRummyState.serialize`)."""
    return "\n".join((_HEADER, str(game), " ".join([f"history {len(history)}:", *map(str, history)])))


def read_state_text(game: Any, text: object) -> list[int]:
    """The actions of the state ``text`` (this game's text of a state) describes in ``game``."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"a state's text is a str, not {what(text)}")
    name = str(game)
    limit = len(_HEADER) + len(name) + len("\nhistory:\n") + 5 * game.max_game_length()
    if len(text) > limit:
        raise NotationError(f"the text ({len(text)} characters) is longer than a state of this game can be ({limit})")
    lines = text.split("\n")
    if len(lines) != 3 or lines[0] != _HEADER:
        raise NotationError(
            f"the text is not a state of python_persian_rummy: it must be three lines, the first {_HEADER!r}"
        )
    if lines[1] != name:
        raise NotationError(_other_game(lines[1], name))
    count, colon, listed = lines[2].partition(": ")
    words = listed.split(" ") if listed else []
    if not colon and count.endswith(":"):  # an empty history
        count, colon = count[:-1], ":"
    if not (colon and count.startswith("history ") and _COUNT.fullmatch(count[8:])):
        raise NotationError(f"the text's third line must start 'history N: ', not {excerpt(lines[2][:20])}")
    if int(count[8:]) != len(words):
        raise NotationError(f"the history says it has {count[8:]} actions, but it lists {len(words)}")
    actions: list[int] = []
    for number, word in enumerate(words):
        if not _ACTION_NUMBER.fullmatch(word) or int(word) >= NUM_ACTIONS:
            raise NotationError(
                f"item {number} of the history is not an action number (0 to {NUM_ACTIONS - 1}): {excerpt(word)}"
            )
        actions.append(int(word))
    return actions


def _other_game(line: str, name: str) -> str:
    """Why the game ``line`` of a text names is not ``name``: which parameters differ."""
    theirs = _GAME_TEXT.fullmatch(line)
    ours = _GAME_TEXT.fullmatch(name)
    if theirs is None or ours is None:
        return f"the text is a state of another game, {excerpt(line)}, not of python_persian_rummy"
    mine = _pairs(ours.group(1))
    other = _pairs(theirs.group(1))
    differ = [
        f"{_word(key)}={_word(other.get(key, '(none)'))} (here {mine.get(key, '(none)')})"
        for key in sorted(set(mine) | set(other))[:20]
        if mine.get(key) != other.get(key)
    ]
    return f"the text is a state of the game with other parameters: {', '.join(differ) or excerpt(line)}"


def _pairs(text: str) -> dict[str, str]:
    """The ``name=value`` pairs of a game string's parameters."""
    pairs: dict[str, str] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        pairs[name] = value
    return pairs


def _word(text: str) -> str:
    """``text`` as it is if it is a short printable word, else a bounded ``repr``."""
    return text if len(text) <= 30 and text.isascii() and text.isprintable() else excerpt(text, 30)


def replay(
    game: Any,
    actions: Sequence[int],
    written: Callable[[], list[tuple[int, int]]] | None = None,
    move_number: int | None = None,
) -> Any:
    """The state of ``game`` after ``actions`` from its start, each one checked: the one step
    that both readers of a text end with. ``written`` gives the ``(player, action)`` pairs the
    text names (asked for only once the length is checked) and ``move_number`` the move number
    it says; both must be the replay's."""
    if len(actions) > game.max_game_length():
        raise NotationError(
            f"the history has {counted(len(actions), 'action')}; a game has at most {game.max_game_length()}"
        )
    state = game.new_initial_state()
    for number, action in enumerate(actions):
        try:
            state.apply_action(action)
        except PersianRummyError as error:
            raise NotationError(
                f"the history does not replay: its action {number} ({action}) cannot be applied: {error.reason}"
            ) from None
    if written is not None and [(item.player, item.action) for item in state.full_history()] != written():
        raise NotationError("the text's history names players other than those who act at its nodes")
    if move_number is not None and state.move_number() != move_number:
        raise NotationError(f"the text's move number {move_number} is not its history's {state.move_number()}")
    return state


def replayed(state: Any) -> Any:
    """``state``'s history (set by OpenSpiel's reader from its text) replayed, each action
    checked: the history's players and move number must be those of the replay."""
    return replay(
        state.get_game(),
        state.history(),
        lambda: [(item.player, item.action) for item in state.full_history()],
        state.move_number(),
    )


def _sections(text: str) -> dict[str, list[str]]:
    """The lines of each section of OpenSpiel's text, the sections checked to be in order."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        if line in _SECTIONS:
            expected = _SECTIONS[len(sections)] if len(sections) < len(_SECTIONS) else None
            if line != expected:
                raise NotationError(f"OpenSpiel's text has its sections [Meta], [Game], [State] in order, not {line}")
            current = sections[line] = []
        elif current is None:
            raise NotationError("OpenSpiel's text starts with its [Meta] section")
        else:
            current.append(line)
    if tuple(sections) != _SECTIONS:
        raise NotationError("OpenSpiel's text has the sections [Meta], [Game] and [State]")
    if sections["[Meta]"] != ["Version: 1"]:
        raise NotationError("OpenSpiel's text's [Meta] section is 'Version: 1'")
    return sections


def read_envelope(
    text: object, make_game: Callable[[dict[str, object]], Any]
) -> tuple[Any, list[tuple[int, int]], int]:
    """The game, the ``(player, action)`` history and the move number of OpenSpiel's text of a
    game and a state (see :func:`~persian_rummy.openspiel.deserialize_game_and_state`), every
    part checked, nothing unpickled; the game is ``make_game`` of the parameters its string
    names (:func:`game_parameters`)."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"OpenSpiel's text of a game and a state is a str, not {what(text)}")
    if len(text) > _ENVELOPE_LIMIT:
        raise NotationError(f"the text ({len(text)} characters) is longer than any text of a state of this game")
    sections = _sections(text)
    name = sections["[Game]"]
    if len(name) != 1:
        raise NotationError("the text's [Game] section is one line, python_persian_rummy(...)")
    try:
        game = make_game(game_parameters(name[0]))
    except NotationError:
        raise
    except PersianRummyError as error:
        raise NotationError(f"the text's game does not load: {error}") from None
    part = sections["[State]"]
    if len(part) != 3 or not (
        part[0].startswith("history=") and part[1].startswith("move_number=") and part[2].startswith("__dict__=")
    ):
        raise NotationError("the text's [State] section is three lines: history=, move_number= and __dict__=")
    if part[2] != "__dict__=" + _state_part():
        raise NotationError("the text's state part is not what a state of python_persian_rummy writes")
    return game, _history_items(part[0][len("history=") :]), _move_number(part[1][len("move_number=") :])


def game_parameters(text: str) -> dict[str, object]:
    """The parameters named by ``text``, a game's string ``python_persian_rummy(name=value,...)``
    of at most 1,000 printable ASCII characters, each value typed as OpenSpiel types it: ``True``
    and ``False`` (or ``true``, ``false``) a bool, signs and digits a whole number (with a point,
    a real one), anything else a text. The names and the types are the game's to check.

    >>> game_parameters("python_persian_rummy(deals=1,ace_in_runs=high_or_low,top_card_must_meld=False)")
    {'deals': 1, 'ace_in_runs': 'high_or_low', 'top_card_must_meld': False}
    >>> game_parameters("python_persian_rummy(deals)")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotationError: the game's parameters are name=value items, not 'deals'
    """
    matched = _GAME_TEXT.fullmatch(text) if len(text) <= _GAME_TEXT_LIMIT else None
    if matched is None or not (text.isascii() and text.isprintable()):
        raise NotationError(
            f"a game's string is python_persian_rummy(...), of printable ASCII characters ({_GAME_TEXT_LIMIT} at"
            f" most), not {excerpt(text, 40)}"
        )
    params: dict[str, object] = {}
    for item in matched.group(1).split(",") if matched.group(1) else []:
        name, equals, value = item.partition("=")
        if not name or not equals or "=" in value:
            raise NotationError(f"the game's parameters are name=value items, not {excerpt(item, 40)}")
        if name in params:
            raise NotationError(f"the game's string names the parameter {excerpt(name, 40)} twice")
        params[name] = _parameter_value(value)
    return params


_BOOLS: Final = {"True": True, "true": True, "False": False, "false": False}


def _parameter_value(text: str) -> object:
    """A parameter's value as OpenSpiel's reader of a game's string types it."""
    if text in _BOOLS:
        return _BOOLS[text]
    try:
        if text and not text.strip("+-0123456789"):
            return int(text)
        if text and not text.strip("+-0123456789."):
            return float(text)
    except ValueError:
        raise NotationError(f"the game's parameter value {excerpt(text, 40)} is not a number") from None
    return text


def _history_items(text: str) -> list[tuple[int, int]]:
    """The ``player:action`` items of the history line of OpenSpiel's text."""
    written: list[tuple[int, int]] = []
    for item in text.split(",") if text else []:
        player, colon, action = item.partition(":")
        if not (colon and _HISTORY_PLAYER.fullmatch(player) and _ACTION_NUMBER.fullmatch(action)):
            raise NotationError(f"the text's history has an item that is not player:action: {excerpt(item, 30)}")
        written.append((int(player), int(action)))
    return written


def _move_number(text: str) -> int:
    if not _COUNT.fullmatch(text):
        raise NotationError(f"the text's move number is not a whole number: {excerpt(text, 30)}")
    return int(text)


def _state_part() -> str:
    """The state part of OpenSpiel's text of every state of this game that has a history: its
    attributes (the node alone, written as the mark), pickled and in base64, as OpenSpiel
    writes them (only written here, to be compared, never read)."""
    if not _STATE_PART:
        _STATE_PART.append(base64.b64encode(pickle.dumps({"_node": START})).decode("ascii"))
    return _STATE_PART[0]


_STATE_PART: Final[list[str]] = []
