"""The documentation's pictures are the ones docs/make_pictures.py draws, and are valid SVG.

The pages' examples themselves run as doctests (``--doctest-glob`` in pyproject.toml).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

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
    state, take = _make_pictures().deep_take()  # type: ignore[attr-defined]
    assert state.must_meld is not None and take.cards[0] == state.must_meld
    svg = (DOCS / "_static" / "table-state.svg").read_text(encoding="utf-8")
    # Outlined in gold as the card to meld, and marked as taken by the last action.
    assert f'class="card must-meld marked" data-card="{state.must_meld}"' in svg
    assert f"{['North', 'East', 'South', 'West'][take.seat]} took " in svg


def test_game_over_picture_shows_the_score_sheet_and_the_result() -> None:
    svg = (DOCS / "_static" / "game-over.svg").read_text(encoding="utf-8")
    assert 'class="score-sheet"' in svg and "win, " in svg and 'class="last-action"' in svg


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


def test_the_action_grammar_is_in_the_api_reference() -> None:
    # The text a server reads is specified where users look it up: the actions module's
    # grammar is pulled into the API reference.
    import persian_rummy.actions

    api = (DOCS / "api" / "actions.rst").read_text(encoding="utf-8")
    assert api.startswith("Actions\n=======") and ".. automodule:: persian_rummy.actions" in api
    assert "api/actions" in (DOCS / "api.rst").read_text(encoding="utf-8")
    grammar = persian_rummy.actions.__doc__ or ""
    for rule in (
        'action  = "draw" [ [ "from" ] [ "the" ] "stock" ] | "take" index',
        'layoff  = "layoff" | "lay" "off"',
        'index   = [ "#" ] digit { digit }',
        "card    = rank suit",
    ):
        assert rule in grammar


def test_the_api_reference_is_a_page_per_area_and_links_the_states_fields() -> None:
    # Each page of the reference is one area (issue 22: it was one page of 39,000 words); the
    # fields of the game state are attributes that other pages link to.
    pages = sorted(path.stem for path in (DOCS / "api").glob("*.rst"))
    index = (DOCS / "api.rst").read_text(encoding="utf-8")
    assert len(pages) >= 20 and all(f"   api/{page}\n" in index for page in pages)
    state = (DOCS / "api" / "state.rst").read_text(encoding="utf-8")
    import persian_rummy

    fields = [field.name for field in persian_rummy.GameState.__attrs_attrs__]
    members = state.split(".. autoclass:: GameState\n   :members: ")[1].split("\n")[0].split(", ")
    assert fields == members[: len(fields)]
    assert "is_deal_over" in members and "is_game_over" in members


def test_every_public_field_of_the_libraries_values_is_documented_where_it_is_declared() -> None:
    # A field documented by a #: comment above it is an attribute of the reference that can be
    # linked (:attr:`GameState.hands`), not a line of a docstring's prose (issue 22).
    import importlib.util
    import inspect
    import re

    import attrs

    import persian_rummy
    import persian_rummy.arena
    import persian_rummy.record

    classes = {
        value
        for module in (persian_rummy, persian_rummy.arena, persian_rummy.record)
        for value in (getattr(module, name) for name in module.__all__)
        if inspect.isclass(value) and attrs.has(value)
    }
    assert persian_rummy.GameState in classes and persian_rummy.Rules in classes
    if importlib.util.find_spec("starlette") is not None:  # the [server] extra's values too
        from persian_rummy.server.quotas import Limits
        from persian_rummy.server.tables import Table

        classes |= {Limits, Table}
    undocumented = []
    for cls in classes:
        for field in attrs.fields(cls):
            if field.name.startswith("_"):
                continue
            # Where the field is declared: the class, or the base that declares it once for
            # several (a state's and a view's shared fields).
            owner = next(base for base in cls.__mro__ if field.name in vars(base).get("__annotations__", {}))
            source = inspect.getsource(owner).splitlines()
            line = next(index for index, text in enumerate(source) if re.match(rf"    {field.name}\s*:", text))
            if not source[line - 1].strip().startswith("#:"):
                undocumented.append(f"{cls.__name__}.{field.name}")
    assert undocumented == []


# --- The commands the README and the pages show (issue 38) -----------------------------------

ROOT = DOCS.parent
#: Inline commands (``persian-rummy ...`` in a page, `persian-rummy ...` in the README) and
#: the lines of code blocks, each with any prompt and comment taken off.
_INLINE = re.compile(r"``(persian-rummy [^`]+)``|(?<!`)`(persian-rummy [^`]+)`(?!`)")
_BLOCK_LINE = re.compile(r"^\s*(?:\$ )?((?:pip install \S+ && )?persian-rummy .*?)\s*(?:#.*)?$")


def shown_commands() -> list[tuple[str, str]]:
    """Every ``persian-rummy`` command a reader may copy from the README and the pages, with
    where it is; a synopsis (``[--seed SEED]``, ``--out DIR``) is not one."""
    found = []
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.rst")), *sorted(DOCS.glob("tutorials/*.rst"))]:
        text = path.read_text(encoding="utf-8")
        candidates = [a or b for a, b in _INLINE.findall(text)]
        candidates += [match[1] for line in text.splitlines() if (match := _BLOCK_LINE.match(line))]
        for candidate in candidates:
            command = candidate.split("&&")[-1].strip()
            words = shlex.split(command)
            if "[" in command or any(word.isalpha() and word.isupper() for word in words):
                continue  # a synopsis, with metavariables
            if words[0] == "persian-rummy" and words[1:2] != ["is"]:
                found.append((path.name, command))
    return found


def test_every_command_shown_is_read_as_written() -> None:
    """The command line accepts every command the README and the pages show, as written (the
    strength page's ``train --seed 1`` lacked the ``--out`` it needs)."""
    from persian_rummy.cli import _parser

    parser = _parser()
    commands = shown_commands()
    assert len(commands) > 20
    for where, command in commands:
        words = shlex.split(command)[1:]
        if len(words) == 1 and not words[0].startswith("-"):
            # ``persian-rummy train`` in a sentence names the command; it must be one.
            words.append("--help")
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                parser.parse_args(words)
        except SystemExit as stop:
            if stop.code != 0 or (words[-1] != "--help" and words != ["--version"]):
                pytest.fail(f"{where}: {command!r} is not read by the command line")


def test_the_bot_tutorial_names_every_bot_that_ships() -> None:
    """Each name of BOTS is in the tutorial, with how to play it (the learned player was missing)."""
    from persian_rummy.bots import BOTS

    tutorial = (DOCS / "tutorials" / "bots.rst").read_text(encoding="utf-8")
    for name in BOTS:
        assert f"``{name}``" in tutorial, name
    assert 'make_bot("neural"' in tutorial and "--bot neural" in tutorial
