"""The server's frames, byte for byte, as at commit 60eaaeb: a scripted session makes it send
one of every kind (welcome, state, ack, pong, hint, and the error frames of every code), and a
whole game of two deals watched by a spectator (finished deals, score sheets, game over);
both are compared with what that commit's server sent for the same script
(``frames_60eaaeb.json``, written by ``frame_script.py`` run on that commit)."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

import frame_script
import pytest

OLD = json.loads((Path(__file__).parent / "frames_60eaaeb.json").read_text(encoding="utf-8"))


def test_every_kind_of_frame_is_sent_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frame_script.tables.secrets, "token_hex", frame_script.tables.secrets.token_hex)
    sent = asyncio.run(frame_script.session())
    assert len(sent) == len(OLD["session"])
    for (name, text), (old_name, old_text) in zip(sent, OLD["session"], strict=True):
        assert (name, text) == (old_name, old_text)


def test_a_whole_game_is_sent_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frame_script.tables.secrets, "token_hex", frame_script.tables.secrets.token_hex)
    texts = asyncio.run(frame_script.whole_game())
    assert [len(texts), hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()] == OLD["game"]
