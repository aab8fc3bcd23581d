"""The engine never starts more workers than a run has tasks (or, locally, cores)."""

from __future__ import annotations

import os

from sim import engine
from sim.cli import main as cli
from sim.demo import MODEL as DEMO


def test_effective_jobs_caps_at_tasks_and_cores() -> None:
    cores = os.cpu_count() or 1
    assert engine.effective_jobs(999, "loky", 1) == 1
    assert engine.effective_jobs(999, "threading", 3) == min(3, cores)
    assert engine.effective_jobs(999, "loky", 10**6) == cores
    assert engine.effective_jobs(2, "loky", 10**6) == min(2, cores)
    assert engine.effective_jobs(8, "sequential", 100) == 1
    assert engine.effective_jobs(999, "dask", 1) == 999   # the cluster sizes itself


def test_run_records_the_workers_it_used() -> None:
    scn = DEMO.scenario({"tons": 50})
    one_chunk = engine.sample_run(DEMO, [scn], 100, 0, n_jobs=999, backend="threading")
    assert one_chunk.workers == 1 and one_chunk.tasks_computed == 1
    many = engine.sample_run(DEMO, [scn, scn], 4000, 0, n_jobs=999, backend="threading",
                             chunk_size=500)
    assert many.workers == min(many.tasks_computed, os.cpu_count() or 1)
    alone = engine.sample_run(DEMO, [scn, scn], 4000, 0, chunk_size=500, backend="sequential")
    assert alone.workers == 1
    assert all(many.parts[s].stats.keys() == alone.parts[s].stats.keys() for s in (0, 1))
    assert all((many.parts[s].stats["p_hit"] == alone.parts[s].stats["p_hit"]).all()
               for s in (0, 1))


def test_huge_jobs_on_one_chunk_runs(capsys) -> None:
    assert cli(["attack", "kick", "--tons", "70", "--trials", "100", "--jobs", "999",
                "--json"]) == 0
    assert '"trials": 100' in capsys.readouterr().out
