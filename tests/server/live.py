"""A real server for the server's tests: uvicorn on 127.0.0.1 (a free port), in a thread."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

from persian_rummy.server import create_app


class LiveServer:
    """uvicorn serving :func:`~persian_rummy.server.create_app` in a thread; ``url`` is its address."""

    def __init__(self, db: str, **options: Any) -> None:
        self.app = create_app(db, **options)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", ws="websockets-sansio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws/"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(20)
