"""Sphinx configuration of the persian-rummy documentation.

Build: ``sphinx-build -W --keep-going -n -b html docs docs/_build/html``. The examples in
the pages are doctests, run by ``pytest`` (see ``[tool.pytest.ini_options]``).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from typing import Any

import persian_rummy

project = "persian-rummy"
author = "The persian-rummy developers"
copyright = "2026, the persian-rummy developers"
release = persian_rummy.__version__
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode"]
templates_path: list[str] = []
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = f"persian-rummy {release}"
html_static_path = ["_static"]
html_css_files = ["tables.css"]  # long code literals in tables wrap (a table fits the page)

# The adapters' and the table server's packages, where they are not installed, are mocked for
# autodoc: the docs build with only the [docs] extra (Sphinx, furo and Hypothesis for the
# strategies), without the [rl], [jax] and [server] packages (open-spiel, numpy, jax, ... hundreds of
# megabytes). Where they are installed (CI installs every extra) the real ones are used, and
# the pages' examples run under pytest with them.
_EXTRA_PACKAGES = (
    "numpy",
    "pettingzoo",
    "gymnasium",
    "pyspiel",
    "open_spiel",
    "jax",
    "optax",
    "starlette",
    "uvicorn",
    "websockets",
    "psycopg",
    "psycopg_pool",
)
autodoc_mock_imports = [name for name in _EXTRA_PACKAGES if importlib.util.find_spec(name) is None]


def _numpy_stand_in() -> None:
    """The observation module builds its lookup tables of float32 bytes with numpy when it is
    imported; mocked numpy's values must then take the few operations that needs: item
    assignment, arithmetic and bitwise operators (a mocked value again) and ``tobytes`` (no
    bytes). Only for the mocked numpy, so the documentation can import the module."""
    from sphinx.ext.autodoc.mock import _MockObject

    def same(self: Any, *args: Any) -> Any:
        return self

    for name in ("__rshift__", "__lshift__", "__and__", "__or__", "__add__", "__sub__", "__mul__", "__truediv__"):
        setattr(_MockObject, name, same)
    _MockObject.__setitem__ = lambda self, key, value: None  # type: ignore[method-assign]
    _MockObject.tobytes = lambda self: b""  # type: ignore[attr-defined]
    # The vector engine's tables (with jax mocked too) read numbers out of numpy's arrays.
    _MockObject.__int__ = lambda self: 0  # type: ignore[attr-defined]
    _MockObject.__index__ = lambda self: 0  # type: ignore[attr-defined]


autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = False
# The modules below the state name it by its base or a protocol; the reference names the classes.
autodoc_type_aliases = {
    "Dealt": "persian_rummy.GameState",
    "SharedFields": "persian_rummy.GameState | persian_rummy.PlayerView",
    "StateOrView": "persian_rummy.GameState | persian_rummy.PlayerView",
    # numpy's alias of what numpy.dtype() reads, which autodoc would otherwise spell out.
    "DTypeLike": "numpy.typing.DTypeLike",
}
python_use_unqualified_type_names = True
nitpicky = True

# The documentation is built without network access, so there is no intersphinx inventory of
# the standard library: references to standard-library and typing names are left unlinked.
nitpick_ignore_regex = [
    # Private helpers of the AI adapters, named in their annotations only.
    (r"py:class", r"persian_rummy\.(_episode\.Episode|openspiel\._observer\.Observer)"),
    (
        r"py:.*",
        r"(typing|typing_extensions|collections|collections\.abc|concurrent|concurrent\.futures|random|enum|io|json|os|pathlib|attr|attrs|cattrs|hypothesis|numpy|np|npt|jax|jnp|optax|pettingzoo|gymnasium|pyspiel|open_spiel|starlette|uvicorn|websockets|psycopg|psycopg_pool)(\..*)?",
    ),
    (
        r"py:.*",
        r"(int|str|bool|float|bytes|object|tuple|list|dict|set|frozenset|type|None|NoneType|Ellipsis|ValueError|Exception|BaseException)",
    ),
    (
        r"py:.*",
        r"(Any|Callable|Iterable|Iterator|Sequence|Mapping|Literal|Final|ClassVar|TextIO|IO|Protocol|TypeAlias|Executor)",
    ),
    # With numpy mocked (the [docs] extra alone), its generic array types are written as text
    # that reads as one odd name.
    (r"py:class", r".*\bnumpy\.ndarray\b.*"),
    # The table server's submodules are internal (docs/public.rst): the public names' docstrings
    # and signatures may name them, unlinked.
    (
        r"py:.*",
        r"(persian_rummy\.server\.)?(protocol|tables|store|postgres|storage|quotas|connections|live|keeper|commits|turns|sockets|hub|app|pages|hints|levels|seats|client)(\..*)?",
    ),
    (r"py:class", r"(LogEntry|LogTexts|Storage|LiveTable|TokenBucket)"),
    # Type variables and aliases, which autodoc names but does not document.
    (
        r"py:.*",
        r"(persian_rummy\.[a-z_]+\.)?(T|P|Seed|AceInRuns|PickupUse|LastCardDiscard|StockOutEnd|BotSpec|Lineup|SearchStrategy|Self|Params|TrainState|Weights|_Match|_Refusal|Array)",
    ),
]

_ALIAS = re.compile(
    r"(?P<module>persian_rummy(?:\.[a-z_]+)+)\.(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)$"
)


def _resolve_reexport(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Type hints name classes by their defining module (``persian_rummy.state.GameState``,
    ``persian_rummy.learning._trainer.TrainState``); the reference documents the public name
    (``persian_rummy.GameState``, ``persian_rummy.learning.TrainState``): link one to the other,
    trying the packages above the defining module, the nearest first."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if not target.startswith("persian_rummy.") and node.get("py:module"):
        # A name relative to the module whose docstring it is in (``Game.play`` in the game
        # module's overview).
        target = f"{node['py:module']}.{target}"
    match = _ALIAS.match(target)
    if match is None:
        return None
    domain = env.get_domain("py")
    parts = match["module"].split(".")
    for end in range(len(parts) - 1, 0, -1):
        package = ".".join(parts[:end])
        if hasattr(sys.modules.get(package), match["name"].split(".")[0]):
            found = domain.resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], f"{package}.{match['name']}", node, contnode
            )
            if found is not None:
                return found
    return None


#: A rule's number, as the pages and the docstrings cite it: R1 to R27 (docs/rules.rst).
RULE = re.compile(r"\bR([1-9]|1[0-9]|2[0-7])\b")
#: Where a number is code or a link already, or the rule's own heading: not linked.
_NOT_LINKED = ("literal", "literal_block", "doctest_block", "reference", "pending_xref", "raw", "title", "desc_name")


def link_rules(document: Any, docname: str) -> int:
    """Turn every rule number in the text of a page (R13, and each end of R13-R14) into a
    link to that rule on the rules page, which has a label ``r13`` before each rule; numbers
    in code, in links and in the rules' own headings are left alone. Returns how many."""
    from docutils import nodes
    from sphinx import addnodes

    linked = 0
    for text in list(document.findall(nodes.Text)):
        parent = text.parent
        if parent is None or not RULE.search(text.astext()):
            continue
        if any(type(node).__name__ in _NOT_LINKED for node in _ancestors(parent)):
            continue
        if docname == "rules" and isinstance(parent, nodes.strong):  # "**R13 - ...**"
            continue
        pieces: list[Any] = []
        rest = text.astext()
        position = 0
        for match in RULE.finditer(rest):
            if match.start() > position:
                pieces.append(nodes.Text(rest[position : match.start()]))
            reference = addnodes.pending_xref(
                "", refdomain="std", reftype="ref", reftarget=f"r{match[1]}", refexplicit=True, refwarn=True
            )
            reference += nodes.inline(match[0], match[0])
            pieces.append(reference)
            position = match.end()
            linked += 1
        if position < len(rest):
            pieces.append(nodes.Text(rest[position:]))
        parent.replace(text, pieces)
    return linked


def _ancestors(node: Any) -> Any:
    while node is not None:
        yield node
        node = node.parent


def _link_rules(app: Any, document: Any) -> None:
    link_rules(document, app.env.docname)


def setup(app: Any) -> None:
    app.connect("missing-reference", _resolve_reexport)
    app.connect("doctree-read", _link_rules)
    if "numpy" in autodoc_mock_imports:  # here, not at import: pytest imports this file too
        _numpy_stand_in()
