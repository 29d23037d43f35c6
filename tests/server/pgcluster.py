"""A throwaway PostgreSQL cluster for the server's tests and its load benchmark: ``initdb`` in
a temporary folder, ``postgres`` listening only on a Unix socket in that folder (no port, no
other address, no system service), run as an unprivileged user (the ``postgres`` account
Debian's package makes, when the tests run as root), each step bounded in time, and stopped
and removed at the end.

:func:`binaries` finds the server's programs (on ``PATH`` or where Debian installs them), or
says why there are none; :class:`Cluster` is the running cluster, whose
:meth:`Cluster.database` makes a fresh database and gives its URL.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

# Seconds any one step may take (initdb, start, stop) on a loaded machine.
STEP_LIMIT = 120
USER = "rummy"


def binaries() -> tuple[Path | None, str]:
    """The folder of ``initdb`` and ``pg_ctl``, or ``None`` and why not."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent, ""
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda path: int(path.split("/")[4]))
    if versions:
        return Path(versions[-1]).parent, ""
    return None, "PostgreSQL is not installed (apt-get install postgresql): the PostgreSQL store's tests are skipped"


class Cluster:
    """A PostgreSQL cluster in a fresh temporary folder, started on enter and stopped on exit.
    ``fsync`` stays on unless ``durable`` is false (tests that do not crash the database)."""

    def __init__(self, *, durable: bool = False, options: dict[str, str] | None = None) -> None:
        folder, why = binaries()
        if folder is None:
            raise RuntimeError(why)
        self.bin = folder
        self.durable = durable
        self.options = options or {}
        self.folder = Path(tempfile.mkdtemp(prefix="persian-rummy-pg-"))
        self.data = self.folder / "data"
        self.socket = str(self.folder)
        self._as: list[str] = []
        self._databases = 0
        if os.geteuid() == 0:
            # initdb refuses root: the cluster runs as the account the package made.
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str, text: str | None = None) -> None:
        subprocess.run(
            [*self._as, *command], check=True, timeout=STEP_LIMIT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            input=None if text is None else text.encode(),
        )  # fmt: skip

    def __enter__(self) -> Cluster:
        try:
            self._run(
                str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8",
                "--no-instructions", "--no-sync",
            )  # fmt: skip
            settings = {
                "listen_addresses": "''",
                "unix_socket_directories": f"'{self.socket}'",
                "fsync": "on" if self.durable else "off",
                "synchronous_commit": "on",
                "max_connections": "200",
                "shared_buffers": "64MB",
                **self.options,
            }
            # In its configuration, so that a start after a stop has them too.
            self._run("sh", "-c", f"cat >> {self.data / 'postgresql.conf'}", text="".join(
                f"{name} = {value}\n" for name, value in settings.items()))  # fmt: skip
            self.start()
        except BaseException:
            self.remove()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop("immediate")  # nothing in it is kept: no checkpoint to wait for
        self.remove()

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``immediate``: as a crash would)."""
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", str(STEP_LIMIT), "stop")

    def start(self) -> None:
        """Start the server again after :meth:`stop`."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t",
                  str(STEP_LIMIT), "start")  # fmt: skip

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` (through the cluster's socket)."""
        return f"postgresql://{USER}@/{database}?host={self.socket}"

    def database(self) -> str:
        """A new, empty database; its URL."""
        import psycopg

        self._databases += 1
        name = f"games{self._databases}"
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=30) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def postmaster(self) -> int:
        """The process id of the cluster's server."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def sql(self, url: str, query: str, parameters: Any = ()) -> list[tuple[Any, ...]]:
        """Run one statement on the database at ``url`` (autocommit); its rows, if any."""
        import psycopg

        with psycopg.connect(url, autocommit=True, connect_timeout=30) as connection:
            cursor = connection.execute(query, parameters)
            return cursor.fetchall() if cursor.description else []
