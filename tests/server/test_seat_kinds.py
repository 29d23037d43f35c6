"""What a stranger may ask to sit at a table: a person, a level the lobby offers or a bot's name
with its knobs, never a file on the server's disk (a refusal that differs by what is on the disk
tells which files exist), never something that stalls the event loop, and bots whose work the
machine can carry: per decision and per client address (docs: serving)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from waiting import DEFAULT_LIMIT, join

from persian_rummy.errors import excerpt
from persian_rummy.policy import shipped_policy_path
from persian_rummy.server import Limits, create_app, seats

OPENED: list[str] = []
WATCHED: list[str] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    # Every file opened (builtins.open, os.open) whose path holds a watched text.
    if event == "open" and WATCHED and args and isinstance(args[0], str | bytes | os.PathLike):
        path = os.fsdecode(args[0])
        if any(text in path for text in WATCHED):
            OPENED.append(path)


sys.addaudithook(_audit)  # an audit hook stays for the interpreter's life: it only notes


@contextlib.contextmanager
def watching(*texts: str) -> Iterator[list[str]]:
    """The files opened meanwhile whose paths hold one of ``texts``."""
    OPENED.clear()
    WATCHED[:] = texts
    try:
        yield OPENED
    finally:
        WATCHED.clear()


@contextlib.contextmanager
def serving(tmp_path: Path, **limits: Any) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "games.sqlite3"), limits=Limits(**limits))) as client:
        yield client


def seats_of(kind: str) -> dict[str, list[str]]:
    return {"seats": ["human", kind, "greedy", "greedy"]}


def test_a_seat_naming_a_file_gets_one_refusal_whatever_is_on_the_disk_and_nothing_is_opened(
    tmp_path: Path,
) -> None:
    # "/etc/passwd/x.npz" (a file's child: Not a directory) and "/etc/nonexist/x.npz" (No such
    # file) answered differently: an oracle for which files exist. A real policy file, a pipe
    # and a bot's name followed by a path are refused the same way, with nothing opened.
    real = tmp_path / "real.npz"
    shutil.copyfile(shipped_policy_path(), real)
    pipe = tmp_path / "pipe.npz"
    if hasattr(os, "mkfifo"):
        os.mkfifo(pipe)
    kinds = ["/etc/passwd/x.npz", "/etc/nonexist/x.npz", str(real), str(pipe), "mc:/etc/passwd/x.npz", "neural.npz"]
    with serving(tmp_path) as client, watching("passwd", "nonexist", "real.npz", "pipe.npz", "neural.npz") as opened:
        answers = {}
        for kind in kinds:
            # A pipe with no writer would block open() for ever: every request is bounded.
            worker = threading.Thread(
                target=lambda kind=kind: answers.update({kind: client.post("/api/tables", json=seats_of(kind))}),
                daemon=True,
            )
            worker.start()
            join(worker, f"the refusal of {kind!r}")
        form = client.post("/tables", content=b"seat0=human&seat1=%2Fetc%2Fpasswd%2Fx.npz&seat2=greedy&seat3=greedy")
    assert opened == []
    assert {answer.status_code for answer in answers.values()} == {400}
    refusals = {answers[kind].json()["error"].replace(excerpt(kind[:80], 24), "KIND") for kind in kinds}
    assert len(refusals) == 1, refusals
    (refusal,) = refusals
    assert "a seat is 'human', a level" in refusal and "directory" not in refusal
    assert form.status_code == 400 and "a seat is" in form.text and "directory" not in form.text


@pytest.mark.parametrize("kind", ["\ud800.npz", "a\x00b.npz", "greedy\x00", "x" * 5000, "mc:samples=1e3"])
def test_a_seat_kind_of_bad_characters_is_a_400_with_a_clear_message_never_a_500(tmp_path: Path, kind: str) -> None:
    with serving(tmp_path, body_bytes=16384) as client:
        answer = client.post(
            "/api/tables",
            content=(
                '{"seats": ["human", "'
                + kind.replace("\x00", "\\u0000").replace("\ud800", "\\ud800")
                + '", "greedy", "greedy"]}'
            ).encode(),
        )
    assert answer.status_code == 400 and "a seat is 'human'" in answer.json()["error"]


def test_the_seat_kinds_the_lobby_offers_are_taken(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        for kind in [
            "human",
            "easy",
            "medium",
            "hard",
            "expert",
            "random",
            "greedy",
            "mc:samples=2, horizon=3",
            "neural",
        ]:
            answer = client.post("/api/tables", json=seats_of(kind))
            assert answer.status_code == 201, (kind, answer.text)


def answered_while_a_bot_is_made(
    monkeypatch: pytest.MonkeyPatch, client: TestClient, request: Callable[[], Any], what: str
) -> tuple[Any, Any]:
    """Runs ``request`` on a thread while the server's bots wait, where they are made, until
    the lobby has answered it; returns the lobby's answer and the request's. Made on the event
    loop, a bot would wait for an answer that cannot come: each wait must end with the lobby's
    answer, not time out."""
    making, lobby_answered, made = threading.Event(), threading.Event(), []
    make_bot = seats.make_bot

    def make_bot_after_the_lobby(*args: Any, **options: Any) -> Any:
        making.set()
        made.append(lobby_answered.wait(DEFAULT_LIMIT))
        return make_bot(*args, **options)

    monkeypatch.setattr(seats, "make_bot", make_bot_after_the_lobby)
    answers: dict[str, Any] = {}
    asking = threading.Thread(target=lambda: answers.update(answer=request()), daemon=True)
    asking.start()
    assert making.wait(DEFAULT_LIMIT)
    lobby = client.get("/")
    lobby_answered.set()
    join(asking, what)
    assert made[:1] == [True]
    return lobby, answers["answer"]


def test_creating_a_table_makes_its_bots_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Making a bot may load a policy (the learned player, the expert): slow work, done on a
    # thread while the event loop answers everyone else. The bot here is made only once the
    # lobby has answered: on the event loop, it would wait for an answer that cannot come.
    with serving(tmp_path) as client:
        lobby, created = answered_while_a_bot_is_made(
            monkeypatch, client, lambda: client.post("/api/tables", json=seats_of("easy")), "the table's creation"
        )
    assert lobby.status_code == 200 and created.status_code == 201


def test_a_served_bot_decision_past_the_budget_is_refused_with_the_budget(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        refused = client.post("/api/tables", json=seats_of("expert:samples=32,horizon=32,candidates=32"))
        form = client.post(
            "/tables",
            content=b"seat0=human&seat1=expert%3Asamples%3D32%2Chorizon%3D32%2Ccandidates%3D32&seat2=greedy&seat3=greedy",
        )
    assert refused.status_code == 400
    assert "at most 40,000 rollout turns" in refused.json()["error"] and "1,048,576" in refused.json()["error"]
    assert form.status_code == 400 and "at most 40,000 rollout turns" in form.text


def test_the_bots_of_one_clients_tables_are_bounded_and_another_client_is_not_held_up(tmp_path: Path) -> None:
    # Each table counts its costliest bot's decision: mc (48 turns) twice fits 100, thrice not;
    # people and cheap bots fit besides.
    with serving(tmp_path, bot_work_per_client=100) as client:
        assert client.post("/api/tables", json=seats_of("mc")).status_code == 201
        assert client.post("/api/tables", json=seats_of("mc")).status_code == 201
        refused = client.post("/api/tables", json=seats_of("mc"))
        assert refused.status_code == 429 and "at most 100 rollout turns" in refused.json()["error"]
        assert client.post("/api/tables", json=seats_of("greedy")).status_code == 201
        stranger = TestClient(client.app, client=("198.51.100.7", 5000))
        stranger.portal = client.portal  # the same server, on its running event loop
        assert stranger.post("/api/tables", json=seats_of("mc")).status_code == 201


def test_a_table_read_back_from_the_database_makes_its_bots_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A link to a table this process does not hold (another worker made it, or it left
    # memory) reads it back: its game is replayed and its bots made on a thread.
    with serving(tmp_path) as client:
        created = client.post("/api/tables", json=seats_of("easy")).json()
        server = client.app.state.server  # type: ignore[attr-defined]
        server.keeper._live.pop(created["id"])  # as if another worker held it
        lobby, opened = answered_while_a_bot_is_made(
            monkeypatch, client, lambda: client.get(created["seats"][0]["url"]), "the seat's page"
        )
    assert lobby.status_code == 200 and opened.status_code == 200
