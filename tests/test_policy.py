"""Policy files and NeuralBot: a file is data that is checked in full before it is played
(never unpickled), and the bot plays only legal actions from its seat's view (R12-R20, R27)."""

from __future__ import annotations

import io
import json
import os
import shutil
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from persian_rummy import (
    ArgumentTypeError,
    InvalidArgumentError,
    InvalidStateError,
    PersianRummyError,
    PolicyFileError,
    Rules,
    legal_actions,
    new_game,
    play,
)
from persian_rummy.arena import play_game
from persian_rummy.bots import make_bot
from persian_rummy.encoding import NUM_ACTIONS, action_to_int, legal_flags
from persian_rummy.observation import observation_tensor
from persian_rummy.policy import (
    OBSERVATION_SIZE,
    NeuralBot,
    Policy,
    shipped_policy,
    shipped_policy_path,
)

TRAINING = {"command": "test", "seed": 3, "steps": 7, "games": 11, "wall_seconds": 1.5, "device": "cpu"}


def small_policy(rules: Rules | None = None, seed: int = 0, width: int = 8) -> Policy:
    generator = np.random.default_rng(seed)
    layers = (
        (generator.normal(size=(OBSERVATION_SIZE, width)).astype(np.float32), np.zeros(width, np.float32)),
        (
            generator.normal(size=(width, NUM_ACTIONS)).astype(np.float32),
            generator.normal(size=NUM_ACTIONS).astype(np.float32),
        ),
    )
    return Policy(rules or Rules(), layers, TRAINING)


SMALL = small_policy().to_bytes()


def archive(arrays: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def members(data: bytes) -> dict[str, Any]:
    with np.load(io.BytesIO(data), allow_pickle=False) as loaded:
        return {name: loaded[name] for name in loaded.files}


def with_header(change: dict[str, Any]) -> bytes:
    arrays = members(SMALL)
    header = json.loads(arrays["header"].tobytes())
    header.update(change)
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    return archive(arrays)


def test_a_policy_file_round_trips(tmp_path: Path) -> None:
    """What save writes, load reads back: the same arrays, rules and training record."""
    policy = small_policy(Rules(deals=1))
    policy.save(tmp_path / "p.npz")
    loaded = Policy.load(tmp_path / "p.npz")
    assert loaded.rules == Rules(deals=1) and loaded.training == TRAINING
    assert loaded.widths == (OBSERVATION_SIZE, 8, NUM_ACTIONS)
    for (w1, b1), (w2, b2) in zip(policy.layers, loaded.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    header = loaded.header()
    assert header["rules"] == "deals=1" and header["observation_version"] == 1 and header["format_version"] == 1
    assert header["layers"] == [["hidden0", [OBSERVATION_SIZE, 8]], ["policy", [8, NUM_ACTIONS]]]
    assert not loaded.layers[0][0].flags.writeable  # the weights cannot be changed under a bot


def test_the_shipped_policy_is_for_the_default_rules_and_small() -> None:
    """The packaged file: default rules, at most 5 MB, a training record that names its run."""
    path = shipped_policy_path()
    assert path.stat().st_size <= 5 * 1024 * 1024
    policy = shipped_policy()
    assert policy.rules == Rules() and policy.training["command"]
    with pytest.raises(InvalidArgumentError, match="not a shipped policy"):
        shipped_policy_path("../../etc/passwd")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rules": "deals=one"}, "rules do not parse"),
        ({"rules": 3}, "rules must be a text"),
        ({"observation_version": 2}, "observation version 2"),
        ({"observation_version": True}, "observation version True"),
        ({"format_version": 9}, "format version 1"),
        ({"format": "something else"}, "format version 1"),
        ({"layers": [["hidden0", [OBSERVATION_SIZE, 8]]]}, "must be named policy"),
        ({"layers": [["hidden0", [OBSERVATION_SIZE, 9]], ["policy", [9, NUM_ACTIONS]]]}, "header says"),
        ({"layers": "all of them"}, "must be 1 to 16"),
        ({"training": {"command": "x"}}, "training record must have exactly"),
        ({"training": {**TRAINING, "seed": "one"}}, "seed must be a int"),
        ({"training": {**TRAINING, "wall_seconds": float("nan")}}, "wall_seconds must be a float"),
        ({"extra": 1}, "exactly the fields"),
    ],
)
def test_a_header_that_does_not_fit_is_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(PolicyFileError, match=message):
        Policy.from_bytes(with_header(change))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_weights_that_are_not_finite_are_refused(bad: float) -> None:
    arrays = members(SMALL)
    weight = arrays["hidden0.weight"].copy()
    weight[3, 2] = bad
    arrays["hidden0.weight"] = weight
    with pytest.raises(PolicyFileError, match="NaN or infinite"):
        Policy.from_bytes(archive(arrays))


@pytest.mark.parametrize(
    ("name", "array", "message"),
    [
        ("hidden0.bias", np.zeros(9, np.float32), "do not"),
        ("policy.weight", np.zeros((8, NUM_ACTIONS - 1), np.float32), "header says"),
        ("policy.bias", np.zeros(NUM_ACTIONS, np.float64), "float32"),
        ("policy.bias", np.array([object()] * NUM_ACTIONS, dtype=object), "holds Python objects"),
        ("surplus", np.zeros(2, np.float32), "not the ones its header lists"),
        ("header", np.zeros(3, np.float32), "needs its header"),
    ],
)
def test_arrays_that_do_not_fit_are_refused(name: str, array: Any, message: str) -> None:
    """Wrong shapes and dtypes, a pickled object array (never unpickled), a surplus array."""
    arrays = members(SMALL)
    arrays[name] = array
    data = archive(arrays) if array.dtype != object else _pickled(arrays)
    with pytest.raises(PolicyFileError, match=message):
        Policy.from_bytes(data)


def _pickled(arrays: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=True, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def test_a_missing_array_or_file_is_refused(tmp_path: Path) -> None:
    arrays = members(SMALL)
    del arrays["policy.bias"]
    with pytest.raises(PolicyFileError, match="not the ones"):
        Policy.from_bytes(archive(arrays))
    with pytest.raises(PolicyFileError, match="cannot be read"):
        Policy.load(tmp_path / "absent.npz")
    with pytest.raises(ArgumentTypeError):
        Policy.load(3)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        Policy.from_bytes("text")  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", ["\ud800.npz", "a\x00b.npz", "\udcff/x.npz"])
def test_a_path_no_file_can_have_is_a_policy_file_error_not_a_raw_python_error(spec: str) -> None:
    # A lone surrogate the file system cannot encode, or a null byte, named as a policy file.
    with pytest.raises(PolicyFileError, match=r"not a path a file can have|cannot be read"):
        make_bot(spec)
    with pytest.raises(PolicyFileError):
        NeuralBot.load(spec)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX's")
def test_a_pipe_folder_or_device_is_refused_before_it_is_read_without_blocking(tmp_path: Path) -> None:
    # A pipe with no writer would block an open() for reading for ever: it is refused at once,
    # as a folder and a device are, each before anything is read from it.
    pipe = tmp_path / "pipe.npz"
    os.mkfifo(pipe)
    (tmp_path / "folder.npz").mkdir()
    for path in (pipe, tmp_path / "folder.npz", Path(os.devnull)):
        with pytest.raises(PolicyFileError, match="not a regular file"):
            Policy.load(path)
    with pytest.raises(PolicyFileError, match="not a regular file"):
        make_bot(str(pipe))


def test_a_path_replaced_by_a_pipe_after_it_was_looked_at_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The file opened is checked again (fstat): a regular file swapped for a pipe between the
    # look and the open is refused, not read.
    if not hasattr(os, "mkfifo"):
        pytest.skip("named pipes are POSIX's")
    pipe, real_stat = tmp_path / "pipe.npz", os.stat
    os.mkfifo(pipe)
    regular = real_stat(shipped_policy_path())
    monkeypatch.setattr(os, "stat", lambda path, *args, **options: regular if path == pipe else real_stat(path))
    with pytest.raises(PolicyFileError, match="not a regular file"):
        Policy.load(pipe)


def test_other_rules_are_refused_with_how_to_train_them() -> None:
    with pytest.raises(PolicyFileError, match="persian-rummy train --rules 'deals=1'"):
        Policy.from_bytes(SMALL, rules=Rules(deals=1))
    assert Policy.from_bytes(SMALL, rules=Rules()).rules == Rules()
    with pytest.raises(PolicyFileError, match="train one for them"):
        make_bot("neural", rules=Rules(deals=1))


def test_every_truncation_is_refused() -> None:
    """A file cut anywhere (a download that stopped) is refused, never half read."""
    for length in list(range(0, 200)) + list(range(200, len(SMALL), 997)):
        with pytest.raises(PolicyFileError):
            Policy.from_bytes(SMALL[:length])


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SMALL) - 1), st.integers(0, 255)), min_size=1, max_size=8), st.data())
def test_fuzzed_files_raise_only_the_librarys_error(edits: list[tuple[int, int]], data: st.DataObject) -> None:
    """Random byte changes and truncations: a valid policy or PolicyFileError, nothing else."""
    damaged = bytearray(SMALL)
    for place, value in edits:
        damaged[place] = value
    cut = data.draw(st.integers(0, len(damaged)))
    for candidate in (bytes(damaged), bytes(damaged[:cut])):
        try:
            policy = Policy.from_bytes(candidate)
        except PolicyFileError:
            continue
        assert all(np.isfinite(weight).all() for weight, _ in policy.layers)


def test_policy_rejects_bad_layers_on_construction() -> None:
    with pytest.raises(PolicyFileError, match="1 to 16 layers"):
        Policy(Rules(), ())
    with pytest.raises(PolicyFileError, match="must be arrays"):
        Policy(Rules(), (([1.0], [2.0]),))  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="must be a Rules"):
        Policy("default", small_policy().layers)  # type: ignore[arg-type]


def test_neural_bot_plays_a_whole_game_legally() -> None:
    """Four shipped-policy bots finish a game (both deals, R7), every action legal (the engine checks)."""
    bots = [make_bot("neural", seat) for seat in range(4)]
    game = play_game(bots, 5)
    assert game.final.is_over and game.action_count > 0


def test_neural_bot_chooses_the_best_legal_action() -> None:
    """temperature=0: the legal action of the highest logit, read from the view's tensor (R27)."""
    policy = small_policy()
    bot = NeuralBot(policy)
    state = new_game(4)
    for _ in range(40):
        view = state.view(state.current_player)
        flags = np.frombuffer(legal_flags(view), np.uint8).astype(bool)
        logits = policy.logits(observation_tensor(view).reshape(-1))
        chosen = bot(view)
        assert chosen in legal_actions(state)
        if flags.sum() > 1:
            assert action_to_int(chosen) == int(np.flatnonzero(flags)[np.argmax(logits[flags])])
        state = play(state, chosen)


def test_sampling_is_seeded() -> None:
    """temperature > 0 samples from the seed: the same seed, the same game."""

    def actions(seed: int) -> list[int]:
        bots = [NeuralBot(small_policy(), seed, temperature=5.0) for _ in range(4)]
        state, chosen = new_game(2), []
        for _ in range(60):
            action = bots[state.current_player](state.view(state.current_player))
            chosen.append(action_to_int(action))
            state = play(state, action)
        return chosen

    assert actions(1) == actions(1)
    assert actions(1) != actions(2)


def test_neural_bot_refuses_bad_arguments() -> None:
    policy = small_policy()
    for temperature in (-1.0, float("nan"), float("inf"), True, "hot"):
        with pytest.raises(InvalidArgumentError):
            NeuralBot(policy, temperature=temperature)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        NeuralBot("policy.npz")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        NeuralBot(policy, seed=1.5)  # type: ignore[arg-type]
    bot = NeuralBot(policy)
    with pytest.raises(ArgumentTypeError):
        bot(new_game(1))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="R27: seat 0 was asked to act, but seat 1 is to move"):
        bot(new_game(1).view(0))
    with pytest.raises(PolicyFileError, match="trained for the rules 'default', not 'deals=1'"):
        bot(new_game(1, rules=Rules(deals=1)).view(1))


def test_neural_bot_loads_a_file(tmp_path: Path) -> None:
    small_policy(seed=9).save(tmp_path / "mine.npz")
    bot = NeuralBot.load(tmp_path / "mine.npz", 4, temperature=0.5)
    assert repr(bot) == f"NeuralBot.load({str(tmp_path / 'mine.npz')!r}, seed=4, temperature=0.5)"
    assert bot(new_game(1).view(1)) in legal_actions(new_game(1))


def test_a_damaged_file_on_disk_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.npz"
    path.write_bytes(SMALL[: len(SMALL) // 2])
    with pytest.raises(PolicyFileError) as caught:
        NeuralBot.load(path)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, PersianRummyError)


def test_a_zip_with_a_foreign_member_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive_file:
        archive_file.writestr("header.npy", SMALL[:10])
        archive_file.writestr("run.py", b"print('never run')")
    with pytest.raises(PolicyFileError):
        Policy.from_bytes(buffer.getvalue())


def test_a_shape_larger_than_the_data_is_refused_before_allocating() -> None:
    """A header that claims 10**12 values in a few bytes is refused, not allocated."""
    arrays = members(SMALL)
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.zeros(4, np.float32))
    # The same header length: the padding spaces make room for the larger shape.
    raw = buffer.getvalue().replace(b"(4,), }" + b" " * 12, b"(1000000000000,), }")
    assert b"1000000000000" in raw and len(raw) == len(buffer.getvalue())
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive_file:
        for name, array in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(member, array)
            archive_file.writestr(f"{name}.npy", raw if name == "policy.bias" else member.getvalue())
    with pytest.raises(PolicyFileError, match=r"its shape \(1000000000000,\) is not its 16 bytes"):
        Policy.from_bytes(data.getvalue())


# --- The value head (format version 2) ------------------------------------------------------


def valued_policy(seed: int = 0, width: int = 8) -> Policy:
    generator = np.random.default_rng(seed + 100)
    value = (generator.normal(size=(width, 1)).astype(np.float32), np.array([0.25], np.float32))
    return Policy(Rules(), small_policy(seed=seed, width=width).layers, TRAINING, value)


VALUED = valued_policy().to_bytes()


def test_a_value_head_round_trips_as_format_version_2(tmp_path: Path) -> None:
    """A policy with a value head is written as version 2, with the value layer listed last;
    one without is still written as version 1 (a reader of version 1 reads it)."""
    policy = valued_policy()
    policy.save(tmp_path / "v.npz")
    loaded = Policy.load(tmp_path / "v.npz")
    assert loaded.has_value and loaded.value is not None and policy.value is not None
    assert np.array_equal(loaded.value[0], policy.value[0]) and np.array_equal(loaded.value[1], policy.value[1])
    header = loaded.header()
    assert header["format_version"] == 2
    assert header["layers"][-1] == ["value", [8, 1]]
    assert not loaded.value[0].flags.writeable
    assert small_policy().header()["format_version"] == 1 and not small_policy().has_value
    assert members(SMALL).keys() == {"header", "hidden0.weight", "hidden0.bias", "policy.weight", "policy.bias"}


def test_a_version_1_file_is_read_without_a_value_head() -> None:
    assert not Policy.from_bytes(SMALL).has_value
    assert not shipped_policy().has_value or shipped_policy().header()["format_version"] == 2


def test_evaluate_gives_the_logits_and_the_value_from_one_pass() -> None:
    policy = valued_policy()
    assert policy.value is not None
    observations = np.random.default_rng(1).random((5, OBSERVATION_SIZE)).astype(np.float32)
    logits, values = policy.evaluate(observations)
    assert logits.shape == (5, NUM_ACTIONS) and values.shape == (5,)
    assert np.allclose(logits, policy.logits(observations))
    hidden = np.maximum(observations @ policy.layers[0][0] + policy.layers[0][1], 0)
    assert np.allclose(values, (hidden @ policy.value[0])[:, 0] + 0.25, rtol=1e-5)
    one_logits, one_value = policy.evaluate(observations[2])
    assert one_logits.shape == (NUM_ACTIONS,) and one_value.shape == ()
    assert np.isclose(one_value, values[2], rtol=1e-5)


def test_evaluate_refuses_what_it_cannot_evaluate() -> None:
    with pytest.raises(InvalidArgumentError, match="no value head"):
        small_policy().evaluate(np.zeros((2, OBSERVATION_SIZE), np.float32))
    with pytest.raises(InvalidArgumentError, match=r"not \(2, 3\)"):
        valued_policy().evaluate(np.zeros((2, 3), np.float32))
    with pytest.raises(InvalidArgumentError, match=r"not \(1, 1, 1590\)"):
        valued_policy().evaluate(np.zeros((1, 1, OBSERVATION_SIZE), np.float32))
    with pytest.raises(ArgumentTypeError, match="numpy array"):
        valued_policy().evaluate([0.0] * OBSERVATION_SIZE)  # type: ignore[arg-type]


def test_a_value_head_that_does_not_fit_is_refused_on_construction() -> None:
    layers = small_policy().layers
    good = np.zeros((8, 1), np.float32)
    for value, message in [
        ((np.zeros((9, 1), np.float32), np.zeros(1, np.float32)), "last hidden layer's 8 outputs"),
        ((np.zeros((8, 2), np.float32), np.zeros(2, np.float32)), "to one output"),
        ((good, np.zeros(2, np.float32)), "to one output"),
        ((np.zeros(8, np.float32), np.zeros(1, np.float32)), "to one output"),
        ((good.astype(np.float64), np.zeros(1, np.float32)), "float32"),
        ((np.full((8, 1), np.nan, np.float32), np.zeros(1, np.float32)), "NaN or infinite"),
        ((good, np.array([np.inf], np.float32)), "NaN or infinite"),
        (([0.0] * 8, [0.0]), "must be arrays"),
        ((good,), "pair or None"),
        ("value", "pair or None"),
    ]:
        with pytest.raises(PolicyFileError, match=message):
            Policy(Rules(), layers, TRAINING, value)  # type: ignore[arg-type]
    # Without hidden layers the value head reads the observation itself.
    single = (np.zeros((OBSERVATION_SIZE, NUM_ACTIONS), np.float32), np.zeros(NUM_ACTIONS, np.float32))
    with pytest.raises(PolicyFileError, match="1590 outputs"):
        Policy(Rules(), (single,), TRAINING, value=(good, np.zeros(1, np.float32)))
    assert Policy(Rules(), (single,), value=(np.zeros((OBSERVATION_SIZE, 1), np.float32), good[0])).has_value


def test_a_layer_that_is_not_a_pair_is_refused() -> None:
    with pytest.raises(PolicyFileError, match=r"must be a \(weight, bias\) pair"):
        Policy(Rules(), (small_policy().layers[0],) + (small_policy().layers[1][:1],))  # type: ignore[arg-type]
    with pytest.raises(PolicyFileError, match="1 to 16 layers"):
        Policy(Rules(), 3)  # type: ignore[arg-type]


def with_valued_header(change: dict[str, Any]) -> bytes:
    arrays = members(VALUED)
    header = json.loads(arrays["header"].tobytes())
    header.update(change)
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    return archive(arrays)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # A version 1 file has no value layer; a version 2 file lists one last.
        ({"format_version": 1}, "must be named hidden0, hidden1, policy"),
        ({"format_version": 3}, "format version 1 or 2"),
        ({"format_version": 2.0}, "format version 1 or 2"),
        ({"format_version": True}, "format version 1 or 2"),
        (
            {"layers": [["hidden0", [OBSERVATION_SIZE, 8]], ["value", [8, 1]], ["policy", [8, NUM_ACTIONS]]]},
            "must be named hidden0, policy, value",
        ),
        ({"layers": [["hidden0", [OBSERVATION_SIZE, 8]], ["policy", [8, NUM_ACTIONS]]]}, "lists its value layer last"),
        ({"layers": [["value", [8, 1]]]}, "must be 2 to 17"),
        (
            {"layers": [["hidden0", [OBSERVATION_SIZE, 8]], ["policy", [8, NUM_ACTIONS]], ["value", [8, 2]]]},
            "header says",
        ),
    ],
)
def test_a_version_2_header_that_does_not_fit_is_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(PolicyFileError, match=message):
        Policy.from_bytes(with_valued_header(change))


def test_a_version_1_header_may_not_list_a_value_layer() -> None:
    arrays = members(VALUED)
    header = json.loads(arrays["header"].tobytes())
    header["format_version"] = 1
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    with pytest.raises(PolicyFileError, match=r"must be named hidden0, hidden1, policy in order: .* no value layer"):
        Policy.from_bytes(archive(arrays))
    without = members(SMALL)
    header = json.loads(without["header"].tobytes())
    header["format_version"] = 2
    without["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    with pytest.raises(PolicyFileError, match="version 2 lists its value layer last"):
        Policy.from_bytes(archive(without))


@pytest.mark.parametrize(
    ("name", "array", "message"),
    [
        ("value.weight", np.zeros((8, 1), np.float64), "float32"),
        ("value.weight", np.full((8, 1), np.inf, np.float32), "NaN or infinite"),
        ("value.bias", np.full(1, np.nan, np.float32), "NaN or infinite"),
        ("value.bias", np.zeros(2, np.float32), "to one output"),
        ("value.weight", np.zeros((8, 2), np.float32), "header says"),
    ],
)
def test_value_arrays_that_do_not_fit_are_refused(name: str, array: Any, message: str) -> None:
    arrays = members(VALUED)
    arrays[name] = array
    with pytest.raises(PolicyFileError, match=message):
        Policy.from_bytes(archive(arrays))


def test_a_missing_value_array_is_refused() -> None:
    arrays = members(VALUED)
    del arrays["value.bias"]
    with pytest.raises(PolicyFileError, match="not the ones its header lists"):
        Policy.from_bytes(archive(arrays))


def test_every_truncation_of_a_version_2_file_is_refused() -> None:
    for length in list(range(0, 200, 7)) + list(range(200, len(VALUED), 1999)):
        with pytest.raises(PolicyFileError):
            Policy.from_bytes(VALUED[:length])


def test_make_bot_plays_a_policy_file_by_its_path(tmp_path: Path) -> None:
    """``make_bot("my-player/policy.npz")`` is the learned player of that file, choosing as
    a NeuralBot of the same policy does; the arena takes the path as a bot's spec."""
    from persian_rummy.arena import run_match
    from persian_rummy.policy import NeuralBot, shipped_policy, shipped_policy_path

    path = tmp_path / "policy.npz"
    path.write_bytes(shipped_policy_path().read_bytes())
    by_path, by_policy = make_bot(str(path), 3), NeuralBot(shipped_policy(), 3)
    state = new_game(11)
    for _ in range(60):
        if not state.phase.is_live:
            break
        view = state.view(state.current_player)
        chosen = by_path(view)
        assert chosen == by_policy(view)
        state = play(state, chosen)
    played = run_match(str(path), "greedy", games=2, seed=1, workers=1)
    assert played.sides == (str(path), "greedy")
    assert played.games == run_match("neural", "greedy", games=2, seed=1, workers=1).games


def test_a_learned_player_says_which_file_it_plays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``make_bot(path)`` and ``make_bot("neural")`` printed the same repr, and a match named
    both sides "NeuralBot": a tutorial comparing a trained player with the shipped one could
    not tell them apart (issue 52)."""
    from persian_rummy.arena import run_match

    monkeypatch.chdir(tmp_path)
    Path("my-player").mkdir()
    shutil.copy(shipped_policy_path(), "my-player/policy.npz")
    mine, shipped = make_bot("my-player/policy.npz", 1), make_bot("neural", 1)
    assert repr(mine) == "NeuralBot.load('my-player/policy.npz', seed=1, temperature=0.0)"
    assert repr(shipped) == "NeuralBot(seed=1, temperature=0.0)"
    assert repr(mine.policy).startswith("Policy(source='my-player/policy.npz', rules='default', widths=(1590, ")
    assert len(repr(mine.policy)) < 200  # not the weights
    assert run_match(mine, shipped, games=2, seed=1).sides == ("my-player/policy.npz", "NeuralBot")
