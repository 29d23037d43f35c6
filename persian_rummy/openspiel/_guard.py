"""The pickle guard: an audit hook that keeps OpenSpiel's own reader of this game's texts from
running code, installed when OpenSpiel first makes a state of this game (never on import).

OpenSpiel writes a state of a game written in Python (``pyspiel.serialize_game_and_state``)
with a pickle of the state's attributes, and its reader (``pyspiel.deserialize_game_and_state``)
unpickles that part of the text, in C++, before any code of this game sees the text: it loads
the game named by the text, calls :meth:`PersianRummyGame.new_initial_state
<persian_rummy.openspiel.PersianRummyGame.new_initial_state>` to make the state it fills, and
unpickles. A pickle can name any importable function or class, and unpickling calls it: a
crafted text could run any code (``os.system``, for one). The library's own readers
(:func:`persian_rummy.openspiel.deserialize_game_and_state`,
:meth:`PersianRummyGame.deserialize_state
<persian_rummy.openspiel.PersianRummyGame.deserialize_state>`) unpickle nothing; OpenSpiel's
reader cannot be changed, and only a process-wide audit hook sees its unpickling.

So :func:`arm_guard`, which ``new_initial_state`` calls, installs (once per process, at the
first state OpenSpiel or a program makes of this game) a hook that sees every
``pickle.find_class`` event (the event Python raises before an unpickler looks a name up), and
marks the call that is making the state (its Python frame and instruction). While that call
runs, a pickle that names anything but the node's replay mark (``_replay``) raises
:class:`~persian_rummy.NotationError` before the name is looked up. Every other unpickling in
the process passes the hook untouched: it costs one comparison per event. Importing the
package installs nothing: a program that never makes a state of this game never has the hook.

Python cannot remove an audit hook once it is added (by design), so the hook stays for the
life of the process once installed, and it must: a hook that could be removed would leave
OpenSpiel's reader of this game's texts open to running code again.
"""

from __future__ import annotations

import sys
import threading
from types import FrameType
from typing import Any, Final

from persian_rummy.errors import NotationError, excerpt

#: The one name a state's pickle may look up (the node's replay mark, see ``_node``).
ALLOWED: Final = ("persian_rummy.openspiel", "_replay")

#: The call that is making a new state of this game (see the module documentation), per thread.
_GUARD: Final = threading.local()
_INSTALL: Final = threading.Lock()
_installed: list[bool] = []


def _site(frame: FrameType | None) -> tuple[int, object, int] | None:
    return None if frame is None else (id(frame), frame.f_code, frame.f_lasti)


def arm_guard() -> None:
    """Arm the guard for the call that is making a new state (the caller's caller's frame),
    installing the hook first if this is the process's first state of this game."""
    if not _installed:
        with _INSTALL:
            if not _installed:
                sys.addaudithook(_audit)
                _installed.append(True)
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
    if _site(frame) != _GUARD.site or tuple(args) == ALLOWED:
        return
    raise NotationError(
        f"the text's state part names {excerpt(args[0], 40)}.{excerpt(args[1], 40)}; a state of"
        " python_persian_rummy names no code, and none is looked up"
    )
