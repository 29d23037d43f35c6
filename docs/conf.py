"""Sphinx configuration of the persian-rummy documentation.

Build: ``sphinx-build -W --keep-going -n -b html docs docs/_build/html``. The examples in
the pages are doctests, run by ``pytest`` (see ``[tool.pytest.ini_options]``).
"""

from __future__ import annotations

import re
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

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = False
python_use_unqualified_type_names = True
nitpicky = True

# The documentation is built without network access, so there is no intersphinx inventory of
# the standard library: references to standard-library and typing names are left unlinked.
nitpick_ignore_regex = [
    # Private helpers of the AI adapters, named in their annotations only.
    (r"py:class", r"persian_rummy\.(_episode\.Episode|openspiel\._Observer)"),
    (
        r"py:.*",
        r"(typing|typing_extensions|collections|collections\.abc|concurrent|concurrent\.futures|random|enum|io|json|attr|attrs|cattrs|hypothesis|numpy|np|npt|jax|jnp|pettingzoo|gymnasium|pyspiel|open_spiel|starlette|uvicorn|websockets)(\..*)?",
    ),
    (
        r"py:.*",
        r"(int|str|bool|float|bytes|object|tuple|list|dict|set|frozenset|type|None|NoneType|Ellipsis|ValueError|Exception|BaseException)",
    ),
    (
        r"py:.*",
        r"(Any|Callable|Iterable|Iterator|Sequence|Mapping|Literal|Final|ClassVar|TextIO|IO|Protocol|TypeAlias|Executor)",
    ),
    # Type variables and aliases, which autodoc names but does not document.
    (
        r"py:.*",
        r"(persian_rummy\.[a-z_]+\.)?(T|P|Seed|AceInRuns|PickupUse|LastCardDiscard|StockOutEnd|BotSpec|Lineup|SearchStrategy|Self)",
    ),
]

_ALIAS = re.compile(r"persian_rummy\.(?:[a-z_]+\.)+(?P<name>[A-Za-z_][A-Za-z0-9_]*)$")


def _resolve_reexport(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Type hints name classes by their defining module (``persian_rummy.state.GameState``);
    the reference documents the public name (``persian_rummy.GameState``): link one to the
    other."""
    if node.get("refdomain") != "py":
        return None
    match = _ALIAS.match(node.get("reftarget", ""))
    if match is None or not hasattr(persian_rummy, match["name"]):
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], f"persian_rummy.{match['name']}", node, contnode
    )


def setup(app: Any) -> None:
    app.connect("missing-reference", _resolve_reexport)
