"""What the table server allows strangers: :class:`Limits` (per connection, per request, in
tables and connections), the :class:`CapacityError` that turns a request away for them, the
:class:`TokenBucket` of a connection's message rate and the :func:`client_address` the
limits per client count by.

>>> Limits(tables_per_client=3).tables_per_client
3
"""

from __future__ import annotations

import contextlib
import ipaddress
import time
from typing import TYPE_CHECKING, Final

import attrs

if TYPE_CHECKING:  # a client paces itself by these limits without Starlette installed
    import starlette.requests

from persian_rummy.errors import PersianRummyError

__all__ = ["DEFAULT_LIMITS", "CapacityError", "Limits", "TokenBucket", "client_address"]


@attrs.frozen
class Limits:
    """What the server allows, per WebSocket connection, per HTTP request, in tables and in
    connections: the attributes below.

    >>> Limits().message_bytes, Limits().rate, Limits().tables_per_client
    (4096, 20.0, 20)
    """

    #: The largest WebSocket message, in bytes.
    message_bytes: int = 4096
    #: WebSocket messages a second a connection may send on average (a token bucket)...
    rate: float = 20.0
    #: ... with bursts of this many.
    burst: float = 40.0
    #: Messages refused for the rate before the connection is closed.
    strikes: int = 50
    #: The largest HTTP request body, in bytes.
    body_bytes: int = 4096
    #: The most fields in the lobby's form.
    form_fields: int = 20
    #: The most tables in play, in all.
    tables: int = 10_000
    #: The most tables in play created by one client address (an IPv6 address by its /64).
    tables_per_client: int = 20
    #: Seconds after its creation that a table on which no person has played expires.
    unplayed_seconds: float = 3600.0
    #: Seconds after its last action that any table expires.
    idle_seconds: float = 86_400.0
    #: Spectators per table, beside its four seats.
    spectators: int = 60
    #: Connections open at once from one client address.
    connections_per_client: int = 256


#: The limits a server has unless given others.
DEFAULT_LIMITS: Final = Limits()


class CapacityError(PersianRummyError):
    """A request the server turns away for its limits (:class:`Limits`), not for what it asks:
    the server is full, or the client already has as many tables or connections as it may.
    ``reason`` says which limit, and is safe to show; ``status`` is the HTTP status that
    answers it (503 when the server is full, 429 when the client is at its limit).

    >>> error = CapacityError("the server is full", status=503)
    >>> error.reason, error.status
    ('the server is full', 503)
    """

    message_is_public = True

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


class TokenBucket:
    """A token bucket: :meth:`take` says whether one more message fits the rate.

    >>> bucket = TokenBucket(rate=1.0, burst=2.0)
    >>> [bucket.take() for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Whether one more message fits the rate now (it is counted if so)."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True

    def delay(self) -> float:
        """Seconds until :meth:`take` will find a message fits (0 when one fits now).

        >>> bucket = TokenBucket(rate=4.0, burst=1.0)
        >>> bucket.take(), 0.2 < bucket.delay() <= 0.25
        (True, True)
        """
        level = min(self.burst, self.level + (time.monotonic() - self.stamp) * self.rate)
        return max(0.0, (1 - level) / self.rate)


def client_address(connection: starlette.requests.HTTPConnection) -> str:
    """The address a request or WebSocket came from, which the limits per client count by: an
    IPv6 address by its /64 network (one subscriber is commonly given a whole /64).

    >>> from starlette.requests import Request
    >>> client_address(Request({"type": "http", "client": ("2001:db8::5", 1)}))
    '2001:db8::/64'
    """
    host = connection.client.host if connection.client is not None else ""
    if ":" in host:
        with contextlib.suppress(ValueError):
            return str(ipaddress.IPv6Network(f"{host}/64", strict=False))
    return host
