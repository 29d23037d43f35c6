"""The package's modules import in one direction only: down the layers drawn in the docs
(docs/architecture.rst). Every import is read with ``ast``, inside functions and under
``TYPE_CHECKING`` too, so a lazy import cannot hide a cycle. And every public module has its
tests where one looks for them, by its name (docs/testing.rst, "Where the tests are")."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "persian_rummy"

#: The layers, lowest first; a module may import only modules of lower layers, and, within a
#: layer, only modules listed before it. A new module must be placed here.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "_version", "_cache", "_extras", "_files", "_npz", "_moved"),
    ("cards", "limits", "_bits", "hand"),
    # the values and the rules on them: the turn's phases, scoring, one check per family of
    # actions (_moves) and the checks a state and a view share (_consistency)
    (
        "melds",
        "actions",
        "serialization",
        "rules",
        "_phase",
        "_notation",
        "_table_text",
        "scoring",
        "_moves",
        "_consistency",
    ),
    ("view", "state"),  # a view is made from a state's fields, and the state re-exports it
    # the rules in motion, and the worlds a seat cannot tell from the real one
    ("engine", "dealing", "partnerships", "worlds"),
    (
        "position",
        "presentation",  # the game in words, which the pictures and the programs above say
        # the pictures: the colours, the cached pieces, the layout, then the public module
        "svg._theme",
        "svg._pieces",
        "svg._layout",
        "svg",
        "record._deal",
        "record._redaction",
        "record._game",
        "record._recorder",
        "record._text",
        "record",
        "game",  # a whole game: deals from its seed, and reads and writes its record
    ),
    (
        # The numbering and the arrays of a seat's view, then the learned player that reads them
        # (numpy), then the bots (which make the learned one by name) and their tournaments;
        # first what a bot is and what the library asks of one (the protocol), and the greedy
        # player's judgement, which the bots and the search's leaves share.
        "_bot_protocol",
        "_greedy",
        "encoding",
        "observation",
        "policy",
        "beliefs",  # where the unseen cards lie, learned from self-play (numpy), which the search deals from
        "critic",  # what a whole (sampled) state is worth, learned from self-play (numpy), for the search's leaves
        "search",
        "bots",
        "_bot_specs",  # what stands for a bot (a name, a factory, a class, a bot), for the arena
        "standings",
        "arena",
        "strategies",
        # the table server (the [server] extra): a program built on the library, as the CLI is
        "server.levels",  # the bots' levels the lobby offers, which the page's names carry
        "server.protocol",
        "server.quotas",
        "server.limits",  # the old name of server.quotas, kept with a deprecation warning
        "server.seats",  # what a seat may be at a served table, and its bots' budget
        # what the hub asks of a database (in rows, knowing nothing of the live table), then
        # SQLite's and PostgreSQL's answers; the live table is made from the rows above them
        "server.storage",
        "server.store",
        "server.postgres",
        "server.tables",
        "server.connections",
        "server.live",
        "server.hints",
        # the hub's parts, each one job: the tables in memory, the commit protocol and the
        # workers' notices, the bots' moves, the WebSockets; then the hub that wires them
        "server.keeper",
        "server.commits",
        "server.turns",
        "server.sockets",
        "server.hub",
        "server.pages",
        "server.app",
        "server.client",
        "server",
        # The AI adapters (the [rl] extra): environments.
        "_episode",
        "pettingzoo",
        "gymnasium",
        # the OpenSpiel game: the pickle guard (installed at the first state, never on import), a
        # node, its checks and the mark it is pickled as, the texts and their readers, the
        # observer, the game and its state, the IS-MCTS player
        "openspiel._guard",
        "openspiel._node",
        "openspiel._text",
        "openspiel._observer",
        "openspiel._game",
        "openspiel._search",
        "openspiel",
        # The vectorized engine (the [jax] extra), split by job as pgx splits a game: its tables
        # from the scalar modules, its values and checks, the game, the mask, the observation,
        # the conversions, the samplers, then the environment and the package; then the training on it (the [train] extra).
        "vector._tables",
        "vector._words",
        "vector._state",
        "vector._knobs",
        "vector._checks",
        "vector._game",
        "vector._mask",
        "vector._observe",
        "vector._convert",
        "vector._sample",
        "vector._returns",  # the advantages of a two-team rollout
        "vector._export",  # one's own network as a policy file
        "vector._greedy",  # the greedy bot's choice, in JAX
        "vector._env",
        "vector._picture",  # a batch drawn as pgx's states draw themselves, by svg
        "vector",
        # the training: its knobs, the network, one iteration, the checkpoints, the run
        "learning._config",
        "learning._network",
        "learning._trainer",
        "learning._checkpoint",
        "learning._run",
        "learning",
        # the command line: the options its subcommands share (and a user's own bot), one
        # module per subcommand
        "cli._user_bots",
        "cli._options",
        "cli._simulate",
        "cli._play",
        "cli._replay",
        "cli._serve",
        "cli._train",
        "cli",
        "__main__",
    ),
    ("__init__",),  # the package re-exports the public names of every layer
)

#: The upward imports that are allowed: (module, function, imported module). The
#: ``_repr_svg_`` hooks draw a state or a view for Jupyter, as python-chess's do, and a
#: batched state draws itself as pgx's states do (``State.to_svg``). A state plays itself
#: forward by the engine's one ``play`` (``GameState.play``, as python-chess's boards push).
ALLOWED_UPWARD: frozenset[tuple[str, str, str]] = frozenset(
    {
        ("state", "GameState._repr_svg_", "svg"),
        ("state", "GameState.play", "engine"),
        ("view", "PlayerView._repr_svg_", "svg"),
        ("vector._state", "State.to_svg", "vector._picture"),
    }
)

RANK = {module: (layer, place) for layer, modules in enumerate(LAYERS) for place, module in enumerate(modules)}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[str, str, int]]:
    """Every package module imported by the file, as (function, module, line); ``function``
    is the qualified name of the enclosing function or class ("" at module level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str, int]] = []
    package_parts = _module_name(path).split(".") if path.name == "__init__.py" else _module_name(path).split(".")[:-1]

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, [*scope, child.name])
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.startswith("persian_rummy."):
                        found.append((".".join(scope), alias.name.removeprefix("persian_rummy."), child.lineno))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package_parts[: len(package_parts) - child.level + 1]
                    target = ".".join([*base, child.module] if child.module else base)
                else:
                    target = child.module or ""
                    if target != "persian_rummy" and not target.startswith("persian_rummy."):
                        continue
                    target = target.removeprefix("persian_rummy").removeprefix(".")
                if target == "":  # from persian_rummy import x: a submodule, or the package
                    for alias in child.names:
                        name = alias.name if alias.name in RANK else "__init__"
                        found.append((".".join(scope), name, child.lineno))
                    continue
                found.append((".".join(scope), target, child.lineno))
            visit(child, scope)

    visit(tree, [])
    return found


def test_every_module_has_a_layer() -> None:
    modules = {_module_name(path) for path in PACKAGE.rglob("*.py")}
    assert modules - {"__init__"} <= set(RANK) - {"__init__"} | {""}, sorted(modules - set(RANK))
    assert set(RANK) - {"__init__"} <= modules, sorted(set(RANK) - modules)


def test_imports_point_down_the_layers() -> None:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path) if path != PACKAGE / "__init__.py" else "__init__"
        for function, target, line in _imports(path):
            if target == module:
                continue
            key = (module, function, target)
            if RANK[target] >= RANK[module] and key not in ALLOWED_UPWARD:
                where = f"{function}() in " if function else ""
                problems.append(f"{where}{module} (line {line}) imports {target}, which is not below it")
    assert not problems, "\n".join(problems)


def test_the_list_of_upward_imports_left_only_shrinks() -> None:
    # An entry whose import is gone must leave the list, so the list stays the truth.
    present = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path) if path != PACKAGE / "__init__.py" else "__init__"
        present |= {(module, function, target) for function, target, _ in _imports(path)}
    assert present >= ALLOWED_UPWARD, sorted(ALLOWED_UPWARD - present)


def test_the_layer_check_sees_imports_inside_functions() -> None:
    # The check must not be blind to the lazy imports that once hid a cycle.
    imports = _imports(PACKAGE / "state.py")
    assert ("GameState._repr_svg_", "svg", next(line for f, t, line in imports if t == "svg")) in imports


# --- private names stay in their module --------------------------------------------------------

#: The most imports of a private name (``_name``) from another module of the package that may
#: remain, each with a comment that says why: a name another module needs is part of the
#: package's internal API, so it is a public name of its private module.
PRIVATE_IMPORTS_LIMIT = 10


def _private_names(tree: ast.AST, package: list[str]) -> list[tuple[int, str, str]]:
    """The imports in ``tree`` (a module of the package ``package``, as parts) of a private
    name from a module of the package, as (line, name, module). A private module (``from
    persian_rummy.cli import _play``) is how a package uses its own modules, and a public name
    from a private module is what such a module is for: neither is counted."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            parts = package[: len(package) - node.level + 1] + (node.module.split(".") if node.module else [])
        else:
            parts = (node.module or "").split(".")
        if parts[0] != "persian_rummy":
            continue
        folder = PACKAGE.parent.joinpath(*parts)
        for alias in node.names:
            name = alias.name
            if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
                continue
            if (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists():
                continue
            found.append((node.lineno, name, ".".join(parts)))
    return found


def _private_imports() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["persian_rummy", *path.relative_to(PACKAGE).with_suffix("").parts]
        package = parts if path.name == "__init__.py" else parts[:-1]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(PACKAGE.parent)}:{line}: {name} from {module}" for line, name, module in _private_names(tree, package)]  # fmt: skip
    return found


def test_few_private_names_are_imported_across_modules() -> None:
    found = _private_imports()
    assert len(found) <= PRIVATE_IMPORTS_LIMIT, "\n".join(found)


def test_the_private_import_count_sees_every_spelling() -> None:
    source = (
        "from persian_rummy.encoding import _hidden, shown\n"
        "from persian_rummy.openspiel._node import _Mark, Node\n"
        "from ._node import _REPLAY\n"
        "from persian_rummy.cli import _play\n"  # a private module: not counted
        "from persian_rummy._version import __version__\n"
        "def lazy():\n    from persian_rummy.standings import _Z95\n"
    )
    found = _private_names(ast.parse(source), ["persian_rummy", "openspiel"])
    assert [(name, module) for _, name, module in found] == [
        ("_hidden", "persian_rummy.encoding"),
        ("_Mark", "persian_rummy.openspiel._node"),
        ("_REPLAY", "persian_rummy.openspiel._node"),
        ("_Z95", "persian_rummy.standings"),
    ]


# --- every public module has its tests where one looks for them ------------------------------

TESTS = Path(__file__).resolve().parent


def _untested(package: Path, tests: Path) -> list[str]:
    """The public modules and packages of ``package`` (recursively: a name that does not start
    with ``_``; ``__init__`` and ``__main__`` are the package's own) whose tests are not where
    one looks for them: a module ``name`` needs a ``test_<name>.py`` under ``tests``, anywhere;
    a package needs that or a ``tests/<package>/`` folder, which also holds its modules' tests."""
    test_files = {path.stem for path in tests.rglob("test_*.py")}
    folders = {path.name for path in tests.iterdir() if path.is_dir() and any(path.glob("test_*.py"))}
    found = []
    for path in sorted(package.rglob("*")):
        parts = path.relative_to(package).with_suffix("").parts
        if any(part.startswith("_") for part in parts):
            continue
        if path.is_dir() and (path / "__init__.py").is_file():
            if parts[-1] not in folders and f"test_{parts[-1]}" not in test_files:
                found.append(f"the package {'.'.join(parts)}: no tests/{parts[-1]}/ and no test_{parts[-1]}.py")
        elif path.suffix == ".py" and f"test_{parts[-1]}" not in test_files:
            in_a_tested_package = len(parts) > 1 and parts[0] in folders
            if not in_a_tested_package:
                found.append(f"the module {'.'.join(parts)}: no test_{parts[-1]}.py")
    return found


def test_every_public_module_has_a_test_file_named_after_it() -> None:
    """A module's own tests are found by its name: ``tests/test_<module>.py`` (or in a folder of
    tests, ``tests/rl/test_gymnasium.py``), a package's in ``tests/<package>/``. Rule tests are
    named by rule besides (docs/testing.rst, "Where the tests are")."""
    assert not _untested(PACKAGE, TESTS), "\n".join(_untested(PACKAGE, TESTS))


def test_the_test_file_check_sees_modules_packages_and_their_folders(tmp_path: Path) -> None:
    package, tests = tmp_path / "package", tmp_path / "tests"
    for name in (
        "__init__.py",
        "__main__.py",
        "_private.py",
        "cards.py",
        "melds.py",
        "server/__init__.py",
        "server/app.py",
        "svg/__init__.py",
        "svg/_layout.py",
        "record/__init__.py",
        "record/_text.py",
        "_hidden/__init__.py",
        "_hidden/tool.py",
    ):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).touch()
    for name in ("test_cards.py", "rl/test_melds.py", "server/test_hub.py", "test_svg.py", "test_records.py"):
        (tests / name).parent.mkdir(parents=True, exist_ok=True)
        (tests / name).touch()
    assert _untested(package, tests) == ["the package record: no tests/record/ and no test_record.py"]
    (tests / "test_cards.py").unlink()
    (tests / "server" / "test_hub.py").unlink()
    assert _untested(package, tests) == [
        "the module cards: no test_cards.py",
        "the package record: no tests/record/ and no test_record.py",
        "the package server: no tests/server/ and no test_server.py",
        "the module server.app: no test_app.py",
    ]
