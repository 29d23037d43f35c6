"""The pickle guard: a process-wide audit hook that keeps OpenSpiel's reader of its own texts
from running code.

OpenSpiel writes a state of a game written in Python (``pyspiel.serialize_game_and_state``)
with a pickle of the state's attributes, and its reader (``pyspiel.deserialize_game_and_state``)
unpickles that part of the text, in C++, before any code of this game runs. A pickle can name
any importable function or class, and unpickling calls it: a crafted text could run any code
(``os.system``, for one). The game cannot change OpenSpiel's reader, and nothing in the game
is called between the text and the unpickling except :meth:`PersianRummyGame.new_initial_state
<persian_rummy.openspiel.PersianRummyGame.new_initial_state>`, which the reader calls first
to make the state it fills.

So this module does two things:

- a state's node pickles as a call of one function, :func:`_replay`, which returns a mark
  that says "replay the history" (:class:`_Mark`); the state, given the mark, replays the
  history that OpenSpiel's reader set on it, every step checked;
- importing it installs, with ``sys.addaudithook``, a hook that sees every
  ``pickle.find_class`` event of the process (the event Python raises before an unpickler
  looks a name up). :func:`arm_guard`, called by ``new_initial_state``, marks the call that is
  making a state (its Python frame and instruction). While that call runs, a pickle that names
  anything but :func:`_replay` raises :class:`~persian_rummy.NotationError` before the name is
  looked up. Every other unpickling in the process (another frame, or before the first state
  of this game is made) passes the hook untouched: it costs one comparison per event.

Python has no way to remove an audit hook once it is added (by design: an audit hook is
meant to be impossible to switch off from inside the process). The hook therefore stays for
the life of the process, and it must: a hook that could be removed would leave OpenSpiel's
reader of this game's texts open to running code again.
"""

from __future__ import annotations

import sys
import threading
from types import FrameType
from typing import Any, Final

from persian_rummy.errors import NotationError, excerpt

#: The module whose name a state's pickle writes, and in which OpenSpiel's reader looks up
#: :func:`_replay`: the package, so that texts do not depend on where the function lives.
PICKLED_MODULE: Final = "persian_rummy.openspiel"


class _Mark:
    """What OpenSpiel's text of a state (``pyspiel.serialize_game_and_state``) holds in place
    of its node: "replay the history". Nothing else can be done with it."""

    __slots__ = ()

    def _refuse(self, *args: object) -> Any:
        raise NotationError("the text's state part does not describe a state of python_persian_rummy")

    __call__ = __setstate__ = __setitem__ = _refuse

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._refuse()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, ())


_REPLAY: Final = _Mark()


def _replay(*args: object) -> _Mark:
    """The mark, the one name OpenSpiel's reader may unpickle for a state of this game."""
    if args:
        raise NotationError("the text's state part does not describe a state of python_persian_rummy")
    return _REPLAY


_replay.__module__ = PICKLED_MODULE

#: The call that is making a new state of this game (see the module documentation), per thread.
_GUARD: Final = threading.local()


def _site(frame: FrameType | None) -> tuple[int, object, int] | None:
    return None if frame is None else (id(frame), frame.f_code, frame.f_lasti)


def arm_guard() -> None:
    """Arm the guard for the call that is making a new state (the caller's caller's frame)."""
    try:
        frame: FrameType | None = sys._getframe(2)
    except ValueError:  # called from outside Python
        frame = None
    _GUARD.armed = True
    _GUARD.site = _site(frame)


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event != "pickle.find_class" or not getattr(_GUARD, "armed", False):
        return
    try:
        frame: FrameType | None = sys._getframe(1)
    except ValueError:  # no Python frame: called from outside Python
        frame = None
    if _site(frame) != _GUARD.site or tuple(args) == (PICKLED_MODULE, "_replay"):
        return
    raise NotationError(
        f"the text's state part names {excerpt(args[0], 40)}.{excerpt(args[1], 40)}; a state of"
        " python_persian_rummy names no code, and none is looked up"
    )


sys.addaudithook(_audit)
