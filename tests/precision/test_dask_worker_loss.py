"""A Dask worker lost mid-run does not lose the run (issue 12): the scheduler reruns its
task elsewhere and the result is bit-identical to a sequential run."""

import pandas.testing as pdt
import pytest

from sim import engine
from sim.demo import MODEL as DEMO

SCENARIOS = [{"tons": 70}, {"tons": 20, "piloting": 7}]


@pytest.mark.slow
def test_killed_worker_task_is_rerun_and_result_identical(tmp_path, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    reference = engine.simulate(DEMO, SCENARIOS, 24_000, seed=9, chunk_size=1000,
                                backend="sequential")
    marker = tmp_path / "killed-once"
    # the worker that runs the task starting at chunk 6 kills itself (SIGKILL) once
    monkeypatch.setenv(engine._KILL_WORKER_ENV, "6")
    monkeypatch.setenv("BTSIM_TEST_KILL_WORKER_MARKER", str(marker))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        got = engine.simulate(DEMO, SCENARIOS, 24_000, seed=9, chunk_size=1000,
                              backend="dask", scheduler=cluster.scheduler_address)
    assert marker.exists()  # a worker really died mid-run
    pdt.assert_frame_equal(got, reference, check_exact=True)
