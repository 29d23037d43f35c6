"""Checkpoints: a :class:`TrainState` saved whole as named arrays and a JSON header, never a
pickle; read back only into the state of the same settings."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np

from persian_rummy._files import open_regular, write_atomically
from persian_rummy.errors import InvalidArgumentError, PolicyFileError
from persian_rummy.learning._config import TrainConfig
from persian_rummy.learning._trainer import Trainer, TrainState

__all__ = ["CHECKPOINT_VERSION", "load_checkpoint", "save_checkpoint"]

#: The version of the checkpoint files this library writes, and the only one it resumes from;
#: 3: the state is typed (named arrays), the league is kept in float16 and the value of both
#: teams' decisions is learnt.
CHECKPOINT_VERSION: Final = 3
_HEADER: Final = "header"
#: The files a run keeps to go on (persian_rummy.learning's CHECKPOINT and COMPACT), for the messages.
_CHECKPOINT_FILES: Final = "checkpoint.npz and resume.npz"


def _named(state: TrainState) -> dict[str, Any]:
    """Each array of the state by its place in the tree (``network.hidden[0].weight``, ...)."""
    leaves = jax.tree_util.tree_flatten_with_path(state)[0]
    return {jax.tree_util.keystr(path).lstrip("."): leaf for path, leaf in leaves}


# The arrays of the games in play: a compact checkpoint leaves them out.
_GAMES: Final = ("games.", "learner", "margin")


def save_checkpoint(
    path: Path, config: TrainConfig, state: TrainState, meta: dict[str, Any], *, games: bool = True
) -> None:
    """Write the train state's arrays (compressed) and a JSON header (the version, the config
    and ``meta``) atomically: a run killed while writing leaves the previous checkpoint.

    ``games=False`` writes a compact checkpoint: the network, the optimiser, the league, the key
    and the counts, not the games in play (a few megabytes, however many games a run plays
    side by side). Resumed, its games are dealt afresh from its key: the same run but for the
    games that were under way."""
    arrays = {name: np.asarray(leaf) for name, leaf in _named(state).items() if games or not name.startswith(_GAMES)}
    header = {
        "version": CHECKPOINT_VERSION,
        "config": config.to_json(),
        "meta": meta,
        "arrays": sorted(arrays),
        "games": games,
    }
    arrays[_HEADER] = np.frombuffer(json.dumps(header, sort_keys=True).encode(), np.uint8)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, allow_pickle=False, **arrays)
    write_atomically(path, buffer.getvalue())


def _read(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray[Any, Any]]]:
    try:
        # A regular file only, opened without blocking: a pipe named as a checkpoint would wait for ever.
        with open_regular(path) as file, np.load(file, allow_pickle=False) as archive:
            header = json.loads(archive[_HEADER].tobytes().decode())
            if isinstance(header, dict) and "format" in header and "layers" in header:
                raise PolicyFileError(
                    f"{path} is a policy file (a trained player, for --bot or NeuralBot.load), not a training "
                    f"checkpoint: a run's checkpoints are the {_CHECKPOINT_FILES} in its folder"
                )
            if not isinstance(header, dict) or header.get("version") != CHECKPOINT_VERSION:
                raise PolicyFileError(
                    f"{path} is not a checkpoint of this version of the training ({CHECKPOINT_VERSION})"
                )
            arrays = {name: archive[name] for name in archive.files if name != _HEADER}
    except PolicyFileError:
        raise
    except (OSError, ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile) as error:
        raise PolicyFileError(f"the checkpoint {path} cannot be read: {error}") from None
    return header, arrays


def checkpoint_config(path: Path) -> TrainConfig:
    """The settings a checkpoint was made with."""
    header, _ = _read(path)
    return TrainConfig.from_json(header["config"])


def load_checkpoint(path: Path, trainer: Trainer) -> tuple[TrainState, dict[str, Any]]:
    """Read a checkpoint of ``trainer``'s run back into a train state (placed on the trainer's
    devices as ``start`` places it) and its ``meta``. Refuses, naming the knobs, a checkpoint
    made with other settings, and, naming the array, one whose arrays are not the state's."""
    header, arrays = _read(path)
    saved = TrainConfig.from_json(header["config"])
    if saved != trainer.config:
        raise InvalidArgumentError(
            f"the checkpoint in {path.parent} was made with other settings ("
            + "; ".join(trainer.config.differences(saved)).replace(", not ", " given, the checkpoint's ")
            + "): run with the checkpoint's settings, or train into another folder"
        )
    shapes = jax.eval_shape(trainer.start)
    expected = _named(shapes)
    kept = header.get("games", True) is not False
    if not kept:
        expected = {name: leaf for name, leaf in expected.items() if not name.startswith(_GAMES)}
    if set(arrays) != set(expected):
        missing, extra = sorted(set(expected) - set(arrays)), sorted(set(arrays) - set(expected))
        raise PolicyFileError(f"the checkpoint {path} lacks the arrays {missing} and holds others {extra}")
    for name, leaf in expected.items():
        array = arrays[name]
        if array.shape != leaf.shape or array.dtype != leaf.dtype:
            raise PolicyFileError(
                f"the checkpoint {path} holds {name} as {array.dtype}{list(array.shape)}, "
                f"not {leaf.dtype}{list(leaf.shape)}"
            )
    tree = jax.tree_util.tree_structure(shapes)
    restored = jax.tree_util.tree_unflatten(
        tree,
        [
            jnp.asarray(arrays[name]) if name in arrays else jnp.zeros(leaf.shape, leaf.dtype)
            for name, leaf in _named(shapes).items()
        ],
    )
    state: TrainState = jax.device_put(restored, trainer.shardings)
    return (state if kept else trainer.redeal(state)), dict(header["meta"])
