"""The old name of :mod:`persian_rummy.server.quotas` (what the table server allows
strangers), kept so that code importing it keeps working; importing it warns. The library's
own input bounds are :mod:`persian_rummy.limits`, which this name was easily taken for.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     import importlib, persian_rummy.server.limits as old
...     _ = importlib.reload(old)
>>> from persian_rummy.server import quotas
>>> old.Limits is quotas.Limits, caught[-1].category.__name__
(True, 'DeprecationWarning')
"""

from __future__ import annotations

import warnings

from persian_rummy.server.quotas import DEFAULT_LIMITS, CapacityError, Limits, TokenBucket, client_address

__all__ = ["DEFAULT_LIMITS", "CapacityError", "Limits", "TokenBucket", "client_address"]

warnings.warn(
    "persian_rummy.server.limits is now persian_rummy.server.quotas (persian_rummy.limits holds the "
    "library's input bounds); the old name will go in a later release",
    DeprecationWarning,
    stacklevel=2,
)
