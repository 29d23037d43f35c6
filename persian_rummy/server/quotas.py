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
import math
import numbers
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import attrs

if TYPE_CHECKING:  # a client paces itself by these limits without Starlette installed
    import starlette.requests

from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, PersianRummyError, excerpt

__all__ = ["DEFAULT_LIMITS", "CapacityError", "Limits", "TokenBucket", "client_address"]


def _whole(least: int) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    # A whole number (not a bool) of at least ``least``.
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise ArgumentTypeError(f"Limits.{attribute.name} must be a whole number, not {excerpt(value)}")
        if value < least:
            raise InvalidArgumentError(f"Limits.{attribute.name} must be at least {least}, not {value}")

    return check


def _real(least: float, *, above: bool) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    # A finite real number (not a bool) above ``least``, or at least it.
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ArgumentTypeError(f"Limits.{attribute.name} must be a number, not {excerpt(value)}")
        if not math.isfinite(value) or value < least or (above and value == least):
            bound = f"above {least:g}" if above else f"at least {least:g}"
            raise InvalidArgumentError(f"Limits.{attribute.name} must be a finite number {bound}, not {value!r}")

    return check


@attrs.frozen
class Limits:
    """What the server allows, per WebSocket connection, per HTTP request, in tables and in
    connections: the attributes below. Each is checked where it enters: the counts and sizes
    are whole numbers of at least 1 (the strikes and the spectators at least 0), the rate and
    the seconds finite numbers above 0 and the burst at least 1 (a smaller one lets no message
    through); anything else raises :class:`~persian_rummy.InvalidArgumentError` (or
    :class:`~persian_rummy.ArgumentTypeError` for what is no number).

    >>> Limits().message_bytes, Limits().rate, Limits().tables_per_client
    (4096, 20.0, 20)
    >>> Limits(rate=0)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: Limits.rate must be a finite number above 0, not 0
    """

    #: The largest WebSocket message, in bytes.
    message_bytes: int = attrs.field(default=4096, validator=_whole(1))
    #: WebSocket messages a second a connection may send on average (a token bucket)...
    rate: float = attrs.field(default=20.0, validator=_real(0, above=True))
    #: ... with bursts of this many.
    burst: float = attrs.field(default=40.0, validator=_real(1, above=False))
    #: Messages refused for the rate before the connection is closed.
    strikes: int = attrs.field(default=50, validator=_whole(0))
    #: The largest HTTP request body, in bytes.
    body_bytes: int = attrs.field(default=4096, validator=_whole(1))
    #: The most fields in the lobby's form.
    form_fields: int = attrs.field(default=20, validator=_whole(1))
    #: The most tables in play, in all.
    tables: int = attrs.field(default=10_000, validator=_whole(1))
    #: The most tables in play created by one client address (an IPv6 address by its /64).
    tables_per_client: int = attrs.field(default=20, validator=_whole(1))
    #: Seconds after its creation that a table on which no person has played expires.
    unplayed_seconds: float = attrs.field(default=3600.0, validator=_real(0, above=True))
    #: Seconds after its last action that any table expires.
    idle_seconds: float = attrs.field(default=86_400.0, validator=_real(0, above=True))
    #: Spectators per table, beside its four seats.
    spectators: int = attrs.field(default=60, validator=_whole(0))
    #: Connections open at once from one client address.
    connections_per_client: int = attrs.field(default=256, validator=_whole(1))
    #: The most work one decision of a served bot may cost, in rollout turns of the Monte
    #: Carlo bot (an expert's turn counts 32, as it runs the network):
    #: about 0.7 s of one core (``mc:samples=32,horizon=32,candidates=32`` is 32,768; the
    #: expert's default 5,120).
    bot_work: int = attrs.field(default=40_000, validator=_whole(1))
    #: The most work the bots of one client's tables in play may ask for at once (each table
    #: its costliest seat's decision): four tables of the costliest bots, or twenty of the expert.
    bot_work_per_client: int = attrs.field(default=160_000, validator=_whole(1))


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
    """A token bucket: :meth:`take` says whether one more message fits the rate. Time is read
    from ``clock`` (seconds, never going back; ``time.monotonic`` unless given), so a test
    can give one it moves itself and a message refused depends on the messages alone, not on
    how fast the machine runs.

    >>> now = [0.0]
    >>> bucket = TokenBucket(rate=1.0, burst=2.0, clock=lambda: now[0])
    >>> [bucket.take() for _ in range(3)]
    [True, True, False]
    >>> now[0] += 1.0  # a second later: one message more
    >>> [bucket.take() for _ in range(2)]
    [True, False]
    >>> TokenBucket(1.0, 2.0, clock=0.0)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: a clock is a function that returns seconds, not 0.0
    """

    def __init__(self, rate: float, burst: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if not callable(clock):
            raise ArgumentTypeError(f"a clock is a function that returns seconds, not {excerpt(clock)}")
        self.rate, self.burst = rate, burst
        self.clock = clock
        self.level = burst
        self.stamp = clock()

    def take(self) -> bool:
        """Whether one more message fits the rate now (it is counted if so)."""
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True

    def delay(self) -> float:
        """Seconds until :meth:`take` will find a message fits (0 when one fits now).

        >>> now = [0.0]
        >>> bucket = TokenBucket(rate=4.0, burst=1.0, clock=lambda: now[0])
        >>> bucket.take(), bucket.delay()
        (True, 0.25)
        >>> now[0] += 0.125
        >>> bucket.delay()
        0.125
        """
        level = min(self.burst, self.level + (self.clock() - self.stamp) * self.rate)
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
