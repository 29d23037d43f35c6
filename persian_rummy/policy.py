"""Learned players: the policy file and :class:`NeuralBot`, which plays from one (numpy only).

A policy file is data, never code: a NumPy ``.npz`` archive of plain ``float32`` arrays, read
with ``allow_pickle=False``, whose member ``header`` is a JSON text (as bytes) that says what
the arrays are and what they were made for:

- ``format`` (``"persian-rummy-policy"``) and ``format_version``: 2 for a file with a value
  head, 1 for one without (:data:`FORMAT_VERSIONS`, both read; a file without a value head is
  written as version 1, so that a library that reads only version 1 still reads it);
- ``rules``: the :class:`~persian_rummy.Rules` the policy was trained for, as their text
  (``"default"``, ``"deals=1"``: :meth:`Rules.parse <persian_rummy.Rules.parse>` reads it);
- ``observation_version`` (:data:`OBSERVATION_VERSION`): the layout of
  :func:`~persian_rummy.observation.observation_tensor` the network reads, flattened;
- ``layers``: each layer's name and weight shape, in order: hidden layers (ReLU) and then the
  ``policy`` layer, whose outputs are the logits of the
  :data:`~persian_rummy.encoding.NUM_ACTIONS` actions; in a version 2 file, last, the
  ``value`` layer: one output from the last hidden layer, the value head (see
  :attr:`Policy.value`);
- ``training``: how it was made (``command``, ``seed``, ``steps``, ``games``,
  ``wall_seconds``, ``device``).

:meth:`Policy.load` checks all of it and refuses, with
:class:`~persian_rummy.PolicyFileError`, a file that is truncated or corrupt, that
holds other arrays or other shapes than its header says, weights that are not finite, or that
was made for other rules or another observation layout than asked for.

A policy with a value head (:attr:`Policy.has_value`) estimates, besides the logits, what a
position is worth to the team of the seat whose observation it reads:
:meth:`Policy.evaluate` gives both from one pass through the hidden layers. The search player
(:mod:`persian_rummy.search`) uses it to cut its rollouts short.

:class:`NeuralBot` plays a seat from its :class:`~persian_rummy.PlayerView`: the view's
observation tensor through the network, the illegal actions masked out, then the best action
(``temperature=0``, the default) or one drawn from the softmax at that temperature with the
bot's seeded generator. ``make_bot("neural")`` plays the policy shipped with the package,
trained for the default rules.

>>> from persian_rummy import new_game
>>> bot = NeuralBot.load(shipped_policy_path())
>>> str(bot.policy.rules)
'default'
>>> state = new_game(1)
>>> bot(state.view(state.current_player))  # the only legal action: seat 1 draws first (R6)
DrawStock()
"""

from __future__ import annotations

import functools
import io
import json
import math
import os
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from persian_rummy._bot_protocol import bot_seed, out_of_turn
from persian_rummy._files import NotARegularFileError, open_regular, write_atomically
from persian_rummy.actions import Action
from persian_rummy.encoding import ACTIONS, NUM_ACTIONS, legal_flags
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, PersianRummyError, PolicyFileError, excerpt
from persian_rummy.observation import OBSERVATION_SHAPE, observation_tensor
from persian_rummy.rules import Rules
from persian_rummy.view import PlayerView
from persian_rummy.worlds import seat_seed

__all__ = [
    "FORMAT_VERSION",
    "FORMAT_VERSIONS",
    "OBSERVATION_SIZE",
    "OBSERVATION_VERSION",
    "SHIPPED_POLICIES",
    "NeuralBot",
    "Policy",
    "shipped_policy",
    "shipped_policy_path",
]

#: The newest version of the file layout: this module writes it for a policy with a value
#: head, and version 1 for one without.
FORMAT_VERSION: Final = 2
#: The versions of the file layout this module reads: 1 (no value head) and 2 (a value head).
FORMAT_VERSIONS: Final = (1, 2)
#: The version of :func:`~persian_rummy.observation.observation_tensor`'s layout; a network
#: trained on one layout is refused for another.
OBSERVATION_VERSION: Final = 1
#: The network's input: the observation tensor, flattened (30 planes of 53 columns).
OBSERVATION_SIZE: Final = OBSERVATION_SHAPE[0] * OBSERVATION_SHAPE[1]
#: The policies shipped in the package, by name (files ``persian_rummy/policies/NAME.npz``).
SHIPPED_POLICIES: Final = ("default",)
_FORMAT: Final = "persian-rummy-policy"
_FILE_LIMIT: Final = 64 * 1024 * 1024  # bytes; the shipped policy is about 1.6 MB
_LAYER_LIMIT: Final = 16  # the hidden layers and the policy layer; the value layer is besides
_WIDTH_LIMIT: Final = 4096
_MEMBER_LIMIT: Final = 2 * (_LAYER_LIMIT + 1) + 1  # each layer's two arrays, the value head's, the header
_TRAINING_FIELDS: Final = {
    "command": str,
    "seed": int,
    "steps": int,
    "games": int,
    "wall_seconds": float,
    "device": str,
}
# What reading a damaged archive raises, from zipfile, zlib and NumPy's format reader.
_DECODE_ERRORS: Final = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    OSError,
    EOFError,
    ValueError,
    KeyError,
    NotImplementedError,
    OverflowError,
    RuntimeError,
)

Weights = npt.NDArray[np.float32]


def _training_header(training: Mapping[str, Any]) -> dict[str, Any]:
    """The training provenance, checked: exactly the known fields, each of its type."""
    if not isinstance(training, Mapping) or set(training) != set(_TRAINING_FIELDS):
        raise PolicyFileError(
            f"the training record must have exactly the fields {', '.join(_TRAINING_FIELDS)}, not {excerpt(training)}"
        )
    checked: dict[str, Any] = {}
    for name, kind in _TRAINING_FIELDS.items():
        value: Any = training[name]
        if kind is float and type(value) is int:
            value = float(value)
        fits = type(value) is kind
        if fits and kind is not str:
            fits = math.isfinite(value) and value >= 0
        if not fits:
            raise PolicyFileError(f"the training record's {name} must be a {kind.__name__}, not {excerpt(value)}")
        checked[name] = value
    return checked


def _checked_pair(name: str, weight: Weights, bias: Weights) -> tuple[Weights, Weights]:
    """A layer's weight and bias (arrays) as read-only float32 copies, checked: float32
    values, all finite (the shapes are checked by the caller)."""
    if weight.dtype != np.float32 or bias.dtype != np.float32:
        raise PolicyFileError(f"layer {name} must hold float32 values, not {weight.dtype} and {bias.dtype}")
    if not (np.isfinite(weight).all() and np.isfinite(bias).all()):
        raise PolicyFileError(f"layer {name} holds weights that are NaN or infinite")
    weight, bias = np.array(weight, np.float32), np.array(bias, np.float32)
    weight.flags.writeable = bias.flags.writeable = False
    return weight, bias


def _check_layers(layers: Sequence[tuple[Weights, Weights]]) -> tuple[tuple[Weights, Weights], ...]:
    """The layers as read-only float32 arrays, checked: shapes that chain from the observation
    to the actions, finite values."""
    if not isinstance(layers, Sequence) or not 1 <= len(layers) <= _LAYER_LIMIT:
        raise PolicyFileError(f"a policy has 1 to {_LAYER_LIMIT} layers, not {excerpt(layers)}")
    checked = []
    width = OBSERVATION_SIZE
    for number, layer in enumerate(layers):
        last = number == len(layers) - 1
        name = "policy" if last else f"hidden{number}"
        if not isinstance(layer, tuple | list) or len(layer) != 2:
            raise PolicyFileError(f"layer {name} must be a (weight, bias) pair, not {excerpt(layer)}")
        weight, bias = layer
        if not isinstance(weight, np.ndarray) or not isinstance(bias, np.ndarray):
            raise PolicyFileError(f"layer {name}'s weight and bias must be arrays")
        outputs = NUM_ACTIONS if last else (weight.shape[1] if weight.ndim == 2 else -1)
        if (
            weight.shape != (width, outputs)
            or bias.shape != (outputs,)
            or not 1 <= outputs <= max(_WIDTH_LIMIT, NUM_ACTIONS)
        ):
            raise PolicyFileError(
                f"layer {name} must map {width} inputs to {'the actions' if last else 'its width'}: "
                f"weight {weight.shape} and bias {bias.shape} do not"
            )
        checked.append(_checked_pair(name, weight, bias))
        width = outputs
    return tuple(checked)


def _check_value(value: object) -> tuple[Weights, Weights] | None:
    """The value head as read-only float32 arrays (or ``None``), checked: one output, finite
    values; that its inputs are the last hidden layer's outputs is checked with the layers."""
    if value is None:
        return None
    if not isinstance(value, tuple | list) or len(value) != 2:
        raise PolicyFileError(f"a policy's value head is a (weight, bias) pair or None, not {excerpt(value)}")
    weight, bias = value
    if not isinstance(weight, np.ndarray) or not isinstance(bias, np.ndarray):
        raise PolicyFileError("layer value's weight and bias must be arrays")
    if weight.ndim != 2 or weight.shape[1] != 1 or bias.shape != (1,):
        raise PolicyFileError(
            f"layer value must map the last hidden layer to one output: weight {weight.shape} and bias {bias.shape} do not"
        )
    return _checked_pair("value", weight, bias)


def _value_fits(policy: Policy, _attribute: object, value: tuple[Weights, Weights] | None) -> None:
    inputs = policy.widths[-2]
    if value is not None and value[0].shape[0] != inputs:
        raise PolicyFileError(
            f"layer value must map the last hidden layer's {inputs} outputs to one: weight {value[0].shape} does not"
        )


def _check_rules(value: object) -> None:
    if type(value) is not Rules:
        raise ArgumentTypeError(f"a policy's rules must be a Rules value, not {excerpt(value)}")


@attrs.frozen(eq=False, repr=False)
class Policy:
    """A trained policy network for one :class:`~persian_rummy.Rules`: fully connected layers
    (ReLU between them) from the flattened observation tensor to one logit per action, and
    optionally a value head.

    ``layers`` are ``(weight, bias)`` pairs of read-only ``float32`` arrays, ``weight`` of
    shape ``(inputs, outputs)``; ``training`` records how the policy was made (see the module's
    docstring); ``value`` is the value head, a ``(weight, bias)`` pair of shapes
    ``(last hidden width, 1)`` and ``(1,)``, or ``None``. Building one checks it as
    :meth:`load` does. ``source`` is the path of the file it was read from, as given to
    :meth:`load` (``None`` for the shipped policy and a policy built in memory), which its
    ``repr`` and its bot's say.

    >>> import numpy as np
    >>> layer = (np.zeros((OBSERVATION_SIZE, NUM_ACTIONS), np.float32), np.zeros(NUM_ACTIONS, np.float32))
    >>> policy = Policy(Rules(deals=1), (layer,))
    >>> policy.widths, policy.logits(np.zeros(OBSERVATION_SIZE, np.float32)).shape, policy.has_value
    ((1590, 1436), (1436,), False)
    """

    rules: Rules = attrs.field(validator=lambda _self, _attribute, value: _check_rules(value))
    layers: tuple[tuple[Weights, Weights], ...] = attrs.field(converter=_check_layers)
    training: dict[str, Any] = attrs.field(
        factory=lambda: {"command": "", "seed": 0, "steps": 0, "games": 0, "wall_seconds": 0.0, "device": ""},
        converter=_training_header,
    )
    #: The value head: what a position is worth to the team of the seat whose observation is
    #: read, in the units the network was trained on (each deal's score margin over 100,
    #: summed, and the bonus for winning the game at its end), or ``None``.
    value: tuple[Weights, Weights] | None = attrs.field(default=None, converter=_check_value, validator=_value_fits)
    #: The path of the file the policy was read from, as given (``None`` for the shipped
    #: policy and one built in memory or read from bytes).
    source: str | None = attrs.field(default=None, kw_only=True)

    def __repr__(self) -> str:
        where = "" if self.source is None else f"source={self.source!r}, "
        return f"Policy({where}rules={str(self.rules)!r}, widths={self.widths}, has_value={self.has_value})"

    @property
    def widths(self) -> tuple[int, ...]:
        """The network's widths, from the input to the actions."""
        return (OBSERVATION_SIZE,) + tuple(int(weight.shape[1]) for weight, _ in self.layers)

    @property
    def has_value(self) -> bool:
        """Whether the policy has a value head (:meth:`evaluate` needs one).

        >>> shipped_policy().has_value in (True, False)
        True
        """
        return self.value is not None

    def features(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The last hidden layer's outputs for one flattened observation (or a batch of them):
        what both heads read (the observation itself for a policy without hidden layers)."""
        values = observations
        for weight, bias in self.layers[:-1]:
            values = np.maximum(values @ weight + bias, np.float32(0))
        return values

    def logits(self, observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The logit of every action for one flattened observation (or a batch of them)."""
        weight, bias = self.layers[-1]
        result: npt.NDArray[np.float32] = self.features(observation) @ weight + bias
        return result

    def evaluate(
        self, observations: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The logits and the values of a batch of flattened observations (shape
        ``(batch, OBSERVATION_SIZE)``), from one pass through the hidden layers: arrays of
        shapes ``(batch, NUM_ACTIONS)`` and ``(batch,)``. One observation (shape
        ``(OBSERVATION_SIZE,)``) gives shapes ``(NUM_ACTIONS,)`` and ``()``. Raises
        :class:`~persian_rummy.InvalidArgumentError` for a policy without a value head
        (:attr:`has_value`) and for observations of another shape, and
        :class:`~persian_rummy.ArgumentTypeError` for what is not a numpy array.

        >>> import numpy as np
        >>> hidden = (np.eye(OBSERVATION_SIZE, 4, dtype=np.float32), np.zeros(4, np.float32))
        >>> head = (np.zeros((4, NUM_ACTIONS), np.float32), np.zeros(NUM_ACTIONS, np.float32))
        >>> value = (np.ones((4, 1), np.float32), np.array([0.5], np.float32))
        >>> policy = Policy(Rules(), (hidden, head), value=value)
        >>> logits, values = policy.evaluate(np.ones((3, OBSERVATION_SIZE), np.float32))
        >>> logits.shape, values.tolist()
        ((3, 1436), [4.5, 4.5, 4.5])
        """
        if not isinstance(observations, np.ndarray):
            raise ArgumentTypeError(f"a policy evaluates a numpy array of observations, not {excerpt(observations)}")
        if observations.ndim not in (1, 2) or observations.shape[-1] != OBSERVATION_SIZE:
            raise InvalidArgumentError(
                f"a policy evaluates observations of shape (batch, {OBSERVATION_SIZE}) or ({OBSERVATION_SIZE},), "
                f"not {observations.shape}"
            )
        if self.value is None:
            raise InvalidArgumentError(
                "this policy has no value head (a policy file of format version 1): its logits are policy.logits"
            )
        features = self.features(observations)
        weight, bias = self.layers[-1]
        value_weight, value_bias = self.value
        logits: npt.NDArray[np.float32] = features @ weight + bias
        values: npt.NDArray[np.float32] = (features @ value_weight + value_bias)[..., 0]
        return logits, values

    def _named_layers(self) -> list[tuple[str, tuple[Weights, Weights]]]:
        """The layers with their names in the file, the value head last if there is one."""
        names = [f"hidden{number}" for number in range(len(self.layers) - 1)] + ["policy"]
        named = list(zip(names, self.layers, strict=True))
        if self.value is not None:
            named.append(("value", self.value))
        return named

    def header(self) -> dict[str, Any]:
        """The file's JSON header as a dictionary."""
        return {
            "format": _FORMAT,
            "format_version": FORMAT_VERSION if self.value is not None else 1,
            "rules": str(self.rules),
            "observation_version": OBSERVATION_VERSION,
            "layers": [[name, list(weight.shape)] for name, (weight, _) in self._named_layers()],
            "training": dict(self.training),
        }

    def to_bytes(self) -> bytes:
        """The policy file's bytes (an ``.npz`` archive; see the module's docstring)."""
        header = self.header()
        arrays: dict[str, npt.NDArray[Any]] = {
            "header": np.frombuffer(json.dumps(header, sort_keys=True).encode(), np.uint8)
        }
        for name, (weight, bias) in self._named_layers():
            arrays[f"{name}.weight"] = weight
            arrays[f"{name}.bias"] = bias
        buffer = io.BytesIO()
        np.savez(buffer, allow_pickle=False, **arrays)
        return buffer.getvalue()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the policy file at ``path`` atomically (a reader sees the old file or the new)."""
        write_atomically(Path(path), self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes, *, rules: Rules | None = None) -> Policy:
        """Read a policy file's bytes, checking everything (see :meth:`load`)."""
        return cls._from_bytes(data, rules, None)

    @classmethod
    def _from_bytes(cls, data: bytes, rules: Rules | None, path: str | os.PathLike[str] | None) -> Policy:
        # from_bytes, with the path the bytes were read from (when they were) for the messages.
        if not isinstance(data, bytes | bytearray | memoryview):
            raise ArgumentTypeError(f"a policy file's contents are bytes, not {excerpt(data)}")
        if len(data) > _FILE_LIMIT:
            raise PolicyFileError(f"a policy file is at most {_FILE_LIMIT} bytes, not {len(data)}")
        arrays = _read_archive(bytes(data), path)
        header = _read_header(arrays.pop("header", None))
        try:
            trained_for = Rules.parse(header["rules"])
        except PersianRummyError as error:
            raise PolicyFileError(f"the policy file's rules do not parse: {error}") from None
        if rules is not None and trained_for != rules:
            raise PolicyFileError(
                f"this policy was trained for the rules {str(trained_for)!r}, not {str(rules)!r}: "
                f"train one for them with `persian-rummy train --rules {str(rules)!r} --out DIR`"
            )
        names = [name for name, _ in header["layers"]]
        expected = {f"{name}.{part}" for name in names for part in ("weight", "bias")}
        if set(arrays) != expected:
            raise PolicyFileError(
                f"the policy file's arrays {sorted(arrays)} are not the ones its header lists {sorted(expected)}"
            )
        layers = []
        for name, shape in header["layers"]:
            weight = arrays[f"{name}.weight"]
            if list(weight.shape) != shape:
                raise PolicyFileError(f"layer {name}'s weight has the shape {weight.shape}, its header says {shape}")
            layers.append((weight, arrays[f"{name}.bias"]))
        value = layers.pop() if names[-1] == "value" else None
        return cls(
            trained_for, tuple(layers), header["training"], value, source=None if path is None else os.fspath(path)
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, rules: Rules | None = None) -> Policy:
        """Read the policy file at ``path``. Raises
        :class:`~persian_rummy.PolicyFileError` for a file that is not a policy file, is
        truncated or corrupt, holds weights of other shapes than its header lists or weights
        that are NaN or infinite, was made for another observation layout or (given ``rules``)
        for other rules than ``rules``.

        >>> Policy.load(shipped_policy_path(), rules=Rules(deals=1))
        Traceback (most recent call last):
        ...
        persian_rummy.errors.PolicyFileError: this policy was trained for the rules 'default', not 'deals=1': train one for them with `persian-rummy train --rules 'deals=1' --out DIR`
        """
        if not isinstance(path, str | os.PathLike):
            raise ArgumentTypeError(f"a policy file is named by a path, not {excerpt(path)}")
        return cls._from_bytes(_read_file(path), rules, path)


def _read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the policy file at ``path`` (at most one past the limit), refusing with
    :class:`~persian_rummy.PolicyFileError` a path no file can have (a null byte, a lone
    surrogate), a file that cannot be opened, and anything that is not a regular file (a
    folder, a pipe, a device) before reading it, without blocking (``open_regular``)."""
    shown = excerpt(os.fspath(path))
    try:
        with open_regular(path) as file:
            return file.read(_FILE_LIMIT + 1)
    except NotARegularFileError:
        raise PolicyFileError(f"the policy file {shown} is not a regular file (a folder, a pipe or a device)") from None
    except OSError as error:
        raise PolicyFileError(f"the policy file {shown} cannot be read: {error.strerror}") from None
    except ValueError:  # a null byte, or a lone surrogate the file system cannot encode
        raise PolicyFileError(f"{shown} is not a path a file can have") from None


def _read_archive(data: bytes, path: str | os.PathLike[str] | None = None) -> dict[str, npt.NDArray[Any]]:
    """The arrays of an ``.npz`` archive (read from ``path``, when it was), never unpickling
    anything; damage, or a training checkpoint, raises PolicyFileError."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
            if _is_checkpoint(archive, members):
                raise PolicyFileError(_checkpoint_given(path))
            if len(members) > _MEMBER_LIMIT:
                raise PolicyFileError(f"a policy file holds at most {_MEMBER_LIMIT} arrays, not {len(members)}")
            total = sum(member.file_size for member in members)
            if total > _FILE_LIMIT:
                raise PolicyFileError(f"a policy file's arrays hold at most {_FILE_LIMIT} bytes, not {total}")
            for member in members:
                name = member.filename
                if not name.endswith(".npy") or name[:-4] in arrays:
                    raise PolicyFileError(f"{excerpt(name)} is not an array of a policy file")
                # read() checks the member's CRC, so a flipped byte is caught here.
                arrays[name[:-4]] = _read_npy(archive.read(member), name)
    except PolicyFileError:
        raise
    except _DECODE_ERRORS as error:
        raise PolicyFileError(f"not a readable policy file (truncated or corrupt): {error}") from None
    return arrays


def _checkpoint_given(path: str | os.PathLike[str] | None) -> str:
    """What to say of a training checkpoint given as a policy file: which file the policy is."""
    said = "training checkpoint (persian-rummy train keeps checkpoint.npz and resume.npz to go on with a run)"
    if path is None:
        return f"these bytes are a {said}, not a policy file: the run's policy is the policy.npz it writes beside them"
    beside = Path(path).with_name("policy.npz")
    found = "" if beside.is_file() else " (written when the run stops; not there yet)"
    return (
        f"{excerpt(os.fspath(path), _PATH_SHOWN)} is a {said}, not a policy file: "
        f"the run's policy is {excerpt(str(beside), _PATH_SHOWN)}{found}"
    )


#: The most characters of a path a message shows (a path is the reader's own, and it names a file).
_PATH_SHOWN: Final = 300

#: The largest checkpoint header read to tell a checkpoint from a policy file (bytes).
_CHECKPOINT_HEADER_LIMIT: Final = 1 << 20


def _is_checkpoint(archive: zipfile.ZipFile, members: Sequence[zipfile.ZipInfo]) -> bool:
    """Whether the archive is a training checkpoint (``persian_rummy.learning``'s
    ``save_checkpoint``): its ``header`` is a JSON object with the run's ``config`` and the
    names of its ``arrays``, where a policy file's has a ``format``."""
    for member in members:
        if member.filename == "header.npy" and member.file_size <= _CHECKPOINT_HEADER_LIMIT:
            try:
                header = json.loads(_read_npy(archive.read(member), member.filename).tobytes().decode())
            except (PolicyFileError, *_DECODE_ERRORS, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                return False
            return isinstance(header, dict) and "format" not in header and {"config", "arrays"} <= header.keys()
    return False


def _read_npy(raw: bytes, name: str) -> npt.NDArray[Any]:
    """One ``.npy`` member: its header read first, so that a shape claiming more values than
    the member holds is refused before anything is allocated; never an object array."""
    stream = io.BytesIO(raw)
    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
    else:
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
    if dtype.hasobject:
        raise PolicyFileError(f"{excerpt(name)} holds Python objects: a policy file holds numbers only")
    body = raw[stream.tell() :]
    if math.prod(shape) * dtype.itemsize != len(body):
        raise PolicyFileError(
            f"{excerpt(name)} is truncated or corrupt: its shape {shape} is not its {len(body)} bytes"
        )
    array = np.frombuffer(body, dtype).reshape(shape, order="F" if fortran else "C")
    return np.array(array)


def _read_header(array: npt.NDArray[Any] | None) -> dict[str, Any]:
    """The JSON header, checked field by field."""
    if array is None or array.dtype != np.uint8 or array.ndim != 1:
        raise PolicyFileError("a policy file needs its header: a JSON text as an array of bytes")
    try:
        header = json.loads(array.tobytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise PolicyFileError(f"the policy file's header is not JSON: {error}") from None
    fields = {"format", "format_version", "rules", "observation_version", "layers", "training"}
    if not isinstance(header, dict) or set(header) != fields:
        raise PolicyFileError(f"the policy file's header must have exactly the fields {', '.join(sorted(fields))}")
    version = header["format_version"]
    if header["format"] != _FORMAT or type(version) is not int or version not in FORMAT_VERSIONS:
        raise PolicyFileError(
            f"not a policy file of format version {' or '.join(map(str, FORMAT_VERSIONS))}: "
            f"{excerpt(header['format'])} version {excerpt(version)}"
        )
    if header["observation_version"] != OBSERVATION_VERSION or type(header["observation_version"]) is not int:
        raise PolicyFileError(
            f"the policy reads observation version {excerpt(header['observation_version'])}, "
            f"this library makes version {OBSERVATION_VERSION}: train it again"
        )
    if type(header["rules"]) is not str:
        raise PolicyFileError(f"the policy file's rules must be a text, not {excerpt(header['rules'])}")
    layers = header["layers"]
    value = version >= 2  # a version 2 file lists the value layer last
    if (
        not isinstance(layers, list)
        or not 1 + value <= len(layers) <= _LAYER_LIMIT + value
        or not all(
            isinstance(layer, list)
            and len(layer) == 2
            and type(layer[0]) is str
            and isinstance(layer[1], list)
            and len(layer[1]) == 2
            and all(type(size) is int for size in layer[1])
            for layer in layers
        )
    ):
        raise PolicyFileError(
            f"the policy file's layers must be {1 + value} to {_LAYER_LIMIT + value} [name, [inputs, outputs]] pairs"
        )
    names = [f"hidden{number}" for number in range(len(layers) - 1 - value)] + ["policy"] + ["value"] * value
    if [name for name, _ in layers] != names:
        raise PolicyFileError(
            f"the policy file's layers must be named {', '.join(names)} in order: a file of format version "
            f"{version} lists {'its value layer last' if value else 'no value layer'}"
        )
    header["training"] = _training_header(header["training"])
    return header


@functools.lru_cache(maxsize=len(SHIPPED_POLICIES))
def shipped_policy(name: str = "default") -> Policy:
    """The policy shipped in the package under ``name`` (one of :data:`SHIPPED_POLICIES`),
    read once per process.

    >>> shipped_policy().rules == Rules()
    True
    >>> shipped_policy()
    Policy(rules='default', widths=(1590, 256, 256, 1436), has_value=True)
    """
    # The package's own file: its path is this installation's, which no repr needs.
    return attrs.evolve(Policy.load(shipped_policy_path(name), rules=Rules()), source=None)


def shipped_policy_path(name: str = "default") -> Path:
    """The file of the shipped policy ``name``; only the names of :data:`SHIPPED_POLICIES`
    are taken, so a name from outside can never make this read another path.

    >>> shipped_policy_path().name
    'default.npz'
    """
    if name not in SHIPPED_POLICIES:
        raise InvalidArgumentError(
            f"{excerpt(name)} is not a shipped policy (expected one of {', '.join(SHIPPED_POLICIES)})"
        )
    return Path(__file__).parent / "policies" / f"{name}.npz"


class NeuralBot:
    """A bot that plays a :class:`Policy`: each decision is the view's
    :func:`~persian_rummy.observation.observation_tensor` through the network, the illegal
    actions masked out (:func:`~persian_rummy.encoding.legal_flags`), then the action of the
    highest logit (``temperature=0``, the default) or one drawn from the softmax of the logits
    over ``temperature`` with a generator seeded by ``seed`` and the view
    (:func:`~persian_rummy.worlds.seat_seed`: never by the hidden cards or the deck's seed). It refuses a view of other rules
    than the policy's (:class:`~persian_rummy.InvalidArgumentError`).

    >>> from persian_rummy import new_game
    >>> bot = NeuralBot(shipped_policy(), seed=3, temperature=1.0)
    >>> bot
    NeuralBot(seed=3, temperature=1.0)
    >>> bot(new_game(1).view(1))
    DrawStock()
    """

    def __init__(self, policy: Policy, seed: int = 0, *, temperature: float = 0.0) -> None:
        if not isinstance(policy, Policy):
            raise ArgumentTypeError(f"a NeuralBot plays a Policy, not {excerpt(policy)}")
        seed = bot_seed("NeuralBot", seed)
        if isinstance(temperature, bool) or not isinstance(temperature, int | float) or not temperature >= 0:
            raise InvalidArgumentError(f"temperature must be a number of at least 0, not {excerpt(temperature)}")
        if not math.isfinite(temperature):
            raise InvalidArgumentError(f"temperature must be finite, not {excerpt(temperature)}")
        self.policy = policy
        self.seed = seed
        self.temperature = float(temperature)

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], seed: int = 0, *, temperature: float = 0.0, rules: Rules | None = None
    ) -> NeuralBot:
        """A bot playing the policy file at ``path`` (see :meth:`Policy.load`)."""
        return cls(Policy.load(path, rules=rules), seed, temperature=temperature)

    def require_rules(self, rules: Rules) -> None:
        """Refuse (:class:`~persian_rummy.PolicyFileError`) to play under other rules
        than the policy's, saying how to train a policy for them."""
        if rules != self.policy.rules:
            raise PolicyFileError(
                f"this policy was trained for the rules {str(self.policy.rules)!r}, not {str(rules)!r}: "
                f"train one for them with `persian-rummy train --rules {str(rules)!r} --out DIR` "
                "and play it with NeuralBot.load"
            )

    def __call__(self, view: PlayerView) -> Action:
        if not isinstance(view, PlayerView):
            raise ArgumentTypeError(f"a bot chooses from a PlayerView, not {excerpt(view)}")
        self.require_rules(view.rules)
        flags = np.frombuffer(legal_flags(view), np.uint8)
        legal = np.flatnonzero(flags)
        if legal.size == 0:
            raise out_of_turn(view)
        if legal.size == 1:
            return ACTIONS[int(legal[0])]
        logits = self.policy.logits(observation_tensor(view).reshape(-1))[legal].astype(np.float64)
        if self.temperature == 0:
            return ACTIONS[int(legal[int(np.argmax(logits))])]
        weights = np.exp((logits - logits.max()) / self.temperature)
        random = np.random.default_rng(seat_seed(self.seed, view))
        return ACTIONS[int(random.choice(legal, p=weights / weights.sum()))]

    @property
    def label(self) -> str:
        """The bot's name in a match's table: its policy file's path where it plays one read
        from a file, else ``"NeuralBot"`` (the shipped policy, or one built in memory), so
        that a trained player and the shipped one are told apart.

        >>> NeuralBot(shipped_policy()).label
        'NeuralBot'
        """
        return "NeuralBot" if self.policy.source is None else self.policy.source

    def __repr__(self) -> str:
        if self.policy.source is None:
            return f"NeuralBot(seed={self.seed}, temperature={self.temperature})"
        return f"NeuralBot.load({self.policy.source!r}, seed={self.seed}, temperature={self.temperature})"
