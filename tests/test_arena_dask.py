"""The arena on a Dask cluster (the ``[dask]`` extra): the same results as a serial run (R7, R26).

Collected only when the extra is installed (``OPTIONAL`` in the root ``conftest.py``); CI
installs it and requires it.
"""

from __future__ import annotations

import distributed
from test_arena import LINEUPS

from persian_rummy import Rules
from persian_rummy.arena import run_match


def test_dask_local_cluster_gives_the_serial_results() -> None:
    serial = [run_match(*sides, games=6, seed="dask", rules=Rules(deals=1), workers=1) for sides in LINEUPS]  # type: ignore[arg-type]
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        for sides, expected in zip(LINEUPS, serial, strict=True):
            executor = client.get_executor()
            result = run_match(*sides, games=6, seed="dask", rules=Rules(deals=1), executor=executor, chunk_size=2)  # type: ignore[arg-type]
            assert result == expected
        # The client itself is accepted too, through its concurrent.futures interface.
        assert run_match(*LINEUPS[0], games=6, seed="dask", rules=Rules(deals=1), executor=client) == serial[0]
