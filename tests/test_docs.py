"""The documentation's pictures are the ones docs/make_pictures.py draws, and are valid SVG.

The pages' examples themselves run as doctests (``--doctest-glob`` in pyproject.toml).
"""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _make_pictures() -> object:
    spec = importlib.util.spec_from_file_location("make_pictures", DOCS / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pictures_are_up_to_date() -> None:
    pictures = _make_pictures().pictures()  # type: ignore[attr-defined]
    for name, picture in pictures.items():
        committed = (DOCS / "_static" / name).read_text(encoding="utf-8")
        assert committed == picture + "\n", f"run python docs/make_pictures.py to redraw {name}"
        ET.fromstring(committed)


def test_r24_r25_worked_example_picture_is_the_rules_example() -> None:
    from persian_rummy.scoring import tally

    state = _make_pictures().worked_example()  # type: ignore[attr-defined]
    first, second = tally(state.melds, state.hands, went_out=state.went_out, rules=state.rules)
    assert (first.total, second.total) == state.scores == (82, 130)


def test_state_picture_shows_a_deep_take() -> None:
    state = _make_pictures().deep_take()  # type: ignore[attr-defined]
    assert state.must_meld is not None
    svg = (DOCS / "_static" / "table-state.svg").read_text(encoding="utf-8")
    assert f'class="card must-meld" data-card="{state.must_meld}"' in svg


def test_every_page_is_in_the_table_of_contents() -> None:
    pages = {path.relative_to(DOCS).with_suffix("").as_posix() for path in DOCS.rglob("*.rst")}
    pages -= {path for path in pages if path.startswith("_build/")}
    listed = {"index"}
    for path in DOCS.rglob("*.rst"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for position, line in enumerate(lines):
            if line.strip() == ".. toctree::":
                for entry in lines[position + 1 :]:
                    if entry and not entry.startswith(" "):
                        break
                    entry = entry.strip()
                    if entry and not entry.startswith(":"):
                        base = path.parent.relative_to(DOCS).as_posix()
                        listed.add(entry if base == "." else f"{base}/{entry}")
    assert pages == listed
