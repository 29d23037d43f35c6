"""Every module of an optional extra, imported without it, says which ``pip install`` brings
it (issue 22): a :class:`MissingExtraError`, an :class:`ImportError` too, never a bare
``No module named 'numpy'``. The extra is made missing by ``sys.modules[name] = None``, which
makes Python refuse to import ``name``, whether or not it is installed here."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys

import pytest

from persian_rummy import MissingExtraError, PersianRummyError
from persian_rummy.cli import main

# module -> (extra, the packages of the extra it imports, in the order it imports them)
OPTIONAL_MODULES = {
    "persian_rummy.observation": ("rl", ("numpy",)),
    "persian_rummy.pettingzoo": ("rl", ("numpy", "gymnasium", "pettingzoo")),
    "persian_rummy.gymnasium": ("rl", ("gymnasium", "numpy")),
    "persian_rummy.openspiel": ("rl", ("numpy", "pyspiel")),
    "persian_rummy.strategies": ("hypothesis", ("hypothesis",)),
    "persian_rummy.server": ("server", ("starlette", "uvicorn", "websockets")),
    "persian_rummy.server.tables": ("server", ("starlette", "uvicorn", "websockets")),
    "persian_rummy.server.app": ("server", ("starlette",)),
    "persian_rummy.vector": ("jax", ("jax",)),
    "persian_rummy.learning": ("train", ("jax", "optax")),
}
CASES = [(module, extra, name) for module, (extra, names) in OPTIONAL_MODULES.items() for name in names]


def _forget(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    # The module is imported afresh (and put back after the test); a server module, with its
    # package, whose __init__ imports the extra.
    prefix = "persian_rummy.server" if module.startswith("persian_rummy.server") else module
    for loaded in list(sys.modules):
        if loaded == prefix or loaded.startswith(prefix + "."):
            # A fresh import also binds the module as its package's attribute: put that back too.
            parent, _, child = loaded.rpartition(".")
            if parent in sys.modules and hasattr(sys.modules[parent], child):
                monkeypatch.setattr(sys.modules[parent], child, getattr(sys.modules[parent], child))
            monkeypatch.delitem(sys.modules, loaded)


@pytest.mark.parametrize(("module", "extra", "name"), CASES)
def test_a_module_without_its_extra_says_which_pip_install_brings_it(
    monkeypatch: pytest.MonkeyPatch, module: str, extra: str, name: str
) -> None:
    _forget(monkeypatch, module)
    monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(MissingExtraError) as raised:
        importlib.import_module(module)
    message = str(raised.value)
    assert f'pip install ".[{extra}]" in a clone of the repository' in message, message
    assert f"needs the [{extra}] extra" in message
    assert isinstance(raised.value, ModuleNotFoundError) and isinstance(raised.value, PersianRummyError)
    # The package made missing, or one imported before it that is not installed here.
    missing = raised.value.name
    assert missing is not None and f"no module named {missing!r}" in message
    assert missing == name or importlib.util.find_spec(missing) is None


@pytest.mark.thorough  # a fresh interpreter: CI runs it (docs/testing.rst)
def test_the_modules_with_their_extras_still_import() -> None:
    # (Where an extra is installed; the root conftest leaves the others' tests out.) In a fresh
    # interpreter: importing an adapter again here would register a second copy of its game
    # with OpenSpiel or Gymnasium, which the rest of this process would then meet.
    installed = [
        module
        for module, (_, names) in OPTIONAL_MODULES.items()
        if all(importlib.util.find_spec(name) is not None for name in names)
    ]
    code = "import importlib, sys\nfor name in sys.argv[1:]:\n    assert importlib.import_module(name).__name__ == name"
    subprocess.run([sys.executable, "-c", code, *installed], check=True, timeout=120)


def test_serve_without_the_server_extra_names_the_extra_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _forget(monkeypatch, "persian_rummy.server")
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("persian-rummy: serve: persian_rummy.server needs the [server] extra")
    assert err.count("pip install") == 1
    assert any(f"no module named {name!r}" in err for name in ("starlette", "uvicorn", "websockets"))
