"""The serving page's screenshots of a phone game are docs/make_screenshots.py's: the page shows
each shot the script takes, each is committed as a small PNG of the phone's size, and the
script still plays its game to its shots (its light form: the first few, into a temporary
folder)."""

from __future__ import annotations

import importlib.util
import re
import struct
from pathlib import Path
from types import ModuleType

from browser import need_chromium

DOCS = Path(__file__).resolve().parent.parent.parent / "docs"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_screenshots", DOCS / "make_screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_serving_page_shows_every_shot_of_the_phone_game_and_each_is_committed() -> None:
    shots = script().SHOTS
    shown = re.findall(r"\.\. image:: _static/(phone-[\w-]+\.png)", (DOCS / "serving.rst").read_text(encoding="utf-8"))
    assert shown == list(shots)
    for name in shots:
        path = DOCS / "_static" / name
        assert png_size(path) == (390, 844), name
        assert path.stat().st_size < 120 * 1024, f"{name} is {path.stat().st_size} bytes: keep the docs small"


def test_the_script_still_plays_its_game_to_its_shots(tmp_path: Path) -> None:
    need_chromium()
    module = script()
    paths = module.make(tmp_path, light=True)
    assert [path.name for path in paths] == list(module.SHOTS)[: module.LIGHT]
    assert all(png_size(path) == (390, 844) for path in paths)
