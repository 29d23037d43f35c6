"""The observer OpenSpiel asks for observations and information states
(:meth:`~persian_rummy.openspiel.PersianRummyGame.make_py_observer`), and the error of the
information-state tensor the game does not have."""

from __future__ import annotations

from typing import Any, Protocol

from persian_rummy._extras import needs_extra

with needs_extra("rl", "persian_rummy.openspiel"):
    import numpy as np
    import pyspiel

from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, PersianRummyError
from persian_rummy.observation import OBSERVATION_SHAPE, PIECES
from persian_rummy.openspiel._node import what


class _Observed(Protocol):
    """What an observer reads of a state (:class:`~persian_rummy.openspiel.PersianRummyState`)."""

    def observation_array(self, player: int, *, public_only: bool = False) -> np.ndarray[Any, np.dtype[np.float32]]: ...
    def observation_text(self, player: int, *, public_only: bool = False) -> str: ...
    def information_state_text(self, player: int, *, public_only: bool = False) -> str: ...


class InformationStateTensorError(PersianRummyError, pyspiel.SpielError):
    """The game has no information-state tensor (the history has no fixed length; the
    information-state string is exact): asked for one, it raises this error, a
    ``pyspiel.SpielError`` as OpenSpiel's own games without one raise.

    >>> import pyspiel
    >>> game = pyspiel.load_game("python_persian_rummy")
    >>> game.new_initial_state().information_state_tensor(0)
    Traceback (most recent call last):
    ...
    persian_rummy.openspiel.InformationStateTensorError: python_persian_rummy has no information-state tensor (use information_state_string)
    """

    message_is_public = True


class Observer:
    """OpenSpiel's observer protocol: ``tensor`` and ``dict`` set by :meth:`set_from`, and
    :meth:`string_from`, for one kind of observation (see the module documentation). ``dict``
    holds the tensor's named pieces (:data:`PIECES`), views of ``tensor``."""

    def __init__(self, iig_obs_type: Any) -> None:
        if iig_obs_type is None:
            perfect_recall, public, private = False, True, pyspiel.PrivateInfoType.SINGLE_PLAYER
        else:
            try:
                perfect_recall = iig_obs_type.perfect_recall
                public = iig_obs_type.public_info
                private = iig_obs_type.private_info
            except AttributeError:
                raise ArgumentTypeError(
                    f"the observation type is a pyspiel.IIGObservationType, not {what(iig_obs_type)}"
                ) from None
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or (
            private == pyspiel.PrivateInfoType.SINGLE_PLAYER and not public
        ):
            raise InvalidArgumentError(
                "the game offers observations of public information, with or without the player's own"
                f" (R27), not private_info={private.name} with public_info={public}"
            )
        self.perfect_recall = bool(perfect_recall)
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.nothing = not public
        size = 0 if self.perfect_recall or self.nothing else OBSERVATION_SHAPE[0] * OBSERVATION_SHAPE[1]
        self.tensor = np.zeros(size, np.float32)
        # Each piece is a view of the tensor, so set_from fills them all.
        planes = self.tensor.reshape(OBSERVATION_SHAPE) if size else None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = (
            {}
            if planes is None
            else {name: planes[first] if count == 1 else planes[first : first + count] for name, first, count in PIECES}
        )

    def set_from(self, state: _Observed, player: int) -> None:
        if self.perfect_recall:
            raise InformationStateTensorError(
                "python_persian_rummy has no information-state tensor (use information_state_string)"
            )
        if not self.nothing:
            self.tensor[:] = state.observation_array(player, public_only=self.public_only).ravel()

    def string_from(self, state: _Observed, player: int) -> str:
        if self.nothing:
            return ""
        if self.perfect_recall:
            return state.information_state_text(player, public_only=self.public_only)
        return state.observation_text(player, public_only=self.public_only)
