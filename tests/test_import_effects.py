"""Importing the package changes nothing process-wide: no module of it adds an audit hook.

An audit hook can never be removed and runs on every audited event of the process (inside
``sys.settrace`` too, where one took part in a hang of CI: see ``tests/waiting.py``). Every
module is imported, with every extra installed, in a process of its own whose first act is
to install a hook of its own that counts the ``sys.addaudithook`` events: Python raises one
each time a hook is added, so a module that adds one is seen, with where it did.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import importlib, json, pkgutil, sys, traceback

added = []


def count(event, args):
    if event == "sys.addaudithook":
        added.append("".join(traceback.format_stack(limit=4)[:-1]))


sys.addaudithook(count)

import persian_rummy
from persian_rummy.errors import MissingExtraError

imported, missing, failed = ["persian_rummy"], [], []


def refused(name):
    error = sys.exc_info()[1]
    (missing if isinstance(error, MissingExtraError) else failed).append(f"{name}: {error!r}")


for module in pkgutil.walk_packages(persian_rummy.__path__, "persian_rummy.", onerror=refused):
    if module.name == "persian_rummy.__main__":  # runs the command line
        continue
    try:
        importlib.import_module(module.name)
    except MissingExtraError as error:
        missing.append(f"{module.name}: {error}")
    except Exception as error:
        failed.append(f"{module.name}: {error!r}")
    else:
        imported.append(module.name)
found = list(added)
sys.addaudithook(lambda event, args: None)  # the control: a hook added here is counted
print(json.dumps({"added": found, "control": len(added) - len(found), "imported": imported,
                  "missing": missing, "failed": failed}))
"""


def _import_everything() -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _modules() -> set[str]:
    """Every module of the package, by its files."""
    names = set()
    for path in (ROOT / "persian_rummy").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names - {"persian_rummy.__main__"}


@pytest.mark.thorough  # a fresh interpreter: CI runs it (docs/testing.rst)
def test_importing_every_module_of_the_package_adds_no_audit_hook() -> None:
    result = _import_everything()
    assert result["control"] == 1  # the count sees a hook that is added
    assert result["failed"] == []
    imported: list[str] = result["imported"]
    missing: list[str] = result["missing"]
    if missing:  # an extra is not installed: its modules are refused, saying which
        assert os.environ.get("PERSIAN_RUMMY_REQUIRE_EXTRAS") != "1", missing
        assert set(imported) < _modules()
    else:
        assert set(imported) == _modules()
    assert result["added"] == [], "\n".join(result["added"])


#: What ``import persian_rummy`` leaves out: each is imported where a program first uses it
#: (cattrs by the JSON conversion, numpy by the observation arrays and the learned player).
LAZY = ("cattrs", "numpy")


def _imported_by(statement: str) -> set[str]:
    script = f"import json, sys; {statement}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_package_leaves_what_only_some_programs_use() -> None:
    # A program that plays games pays for the rules engine alone (benchmarks/import_cost.py
    # times it beside python-chess); JSON brings cattrs when it is first used.
    modules = _imported_by("import persian_rummy")
    assert "persian_rummy" in modules
    assert [name for name in LAZY if name in modules] == []
    json_modules = _imported_by("import persian_rummy; persian_rummy.Rules.from_json(persian_rummy.Rules().to_json())")
    assert "cattrs" in json_modules
