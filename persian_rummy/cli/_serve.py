"""``persian-rummy serve``: serve tables in the browser (the ``[server]`` extra)."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from persian_rummy._extras import install_command
from persian_rummy.cli._options import command
from persian_rummy.errors import MissingExtraError, PersianRummyError


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: dict[str, argparse.ArgumentParser]
) -> None:
    """Add ``serve`` to ``commands``."""
    srv = command(
        commands,
        "serve",
        "serve tables in the browser (needs the [server] extra)",
        """
        pip install ".[server]"                          in a clone of the repository (not on PyPI yet)
        persian-rummy serve                              then open http://127.0.0.1:8000/
        persian-rummy serve --host 0.0.0.0 --port 8080 --db games.sqlite3
        persian-rummy serve --db postgresql://rummy@localhost/games --workers 4
        """,
    )
    srv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    srv.add_argument(
        "--db",
        default="persian-rummy.sqlite3",
        help="where the games are stored: a SQLite file (default persian-rummy.sqlite3), or a PostgreSQL URL "
        "postgresql://USER@HOST/DB that several workers and servers may share",
    )
    srv.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes on the port (default 1; more than one needs a PostgreSQL --db)",
    )
    srv.set_defaults(handler=serve)


def serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the table server (:func:`persian_rummy.server.serve`) if the [server] extra is installed."""
    return _serve(args.host, args.port, args.db, args.workers)


def _serve(host: str, port: int, db: str, workers: int = 1) -> int:
    """Run the table server (:func:`persian_rummy.server.serve`) if the [server] extra is installed."""
    try:
        from persian_rummy.server import serve
    except MissingExtraError as error:  # it says what to install
        print(f"persian-rummy: serve: {error}", file=sys.stderr)
        return 2
    except ImportError as error:
        print(
            f"persian-rummy: serve needs the [server] extra ({install_command('server')}): {error}",
            file=sys.stderr,
        )
        return 2
    try:
        if workers == 1:
            serve(host, port, db)
        else:
            serve(host, port, db, workers=workers)
    except PersianRummyError as error:  # workers out of range, or several on SQLite
        print(f"persian-rummy: serve: {error}", file=sys.stderr)
        return 2
    return 0
