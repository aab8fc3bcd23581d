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


def test_batches_keep_every_task_once_in_order() -> None:
    """Small tasks go several to a call (engine._batches): every task exactly once, in plan
    order, about BATCHES_PER_WORKER calls a worker, and a batch closes at TASK_TRIALS."""
    small = engine._plan(100, 200, 16384)           # 100 one-chunk tasks of 200 trials
    batches = engine._batches(small, 2)
    assert [t for b in batches for t in b] == small
    per = -(-100 // (engine.BATCHES_PER_WORKER * 2))     # ceil: 7 a batch at 8 a worker
    assert [len(b) for b in batches] == [per] * (100 // per) + [100 % per] * (100 % per > 0)
    big = engine._plan(3, engine.TASK_TRIALS, engine.TASK_TRIALS)  # one full task each
    assert engine._batches(big, 1) == [[t] for t in big]


def test_workers_describe_the_scenarios_they_finish() -> None:
    """A fixed-trials run asked for ``descriptions`` gets each scenario's description from
    the worker of its last chunk, the same as the driver's own (sim.described.same), and the
    same bits as a run without them."""
    from sim.aggregate import Aggregate
    from sim.described import describe, same

    scns = [DEMO.scenario({"tons": t}) for t in (20, 50, 90)]
    made: dict[int, object] = {}
    got = engine.sample_run(DEMO, scns, 3000, 5, n_jobs=2, backend="threading",
                            chunk_size=1000, descriptions=made)
    plain = engine.sample_run(DEMO, scns, 3000, 5, chunk_size=1000, backend="sequential")
    assert sorted(made) == [0, 1, 2]
    for s, scn in enumerate(scns):
        want = describe(DEMO, scn, "", Aggregate(0))
        assert all(same(getattr(made[s], f), getattr(want, f))
                   for f in ("params", "rows", "row_count", "facts", "notes", "options",
                             "rule_entries"))
        assert (got.parts[s].stats["p_hit"] == plain.parts[s].stats["p_hit"]).all()


def test_a_worker_raises_lokys_leak_guard(monkeypatch) -> None:
    """A worker's first batch raises loky's leak threshold (300 MB) to the engine's bound
    (engine.WORKER_MEMORY_SLACK): bounded caches that pass 300 MB over a suite made loky
    restart workers mid-run ("A worker stopped while some jobs were given ...")."""
    from joblib.externals.loky import process_executor as pe

    monkeypatch.setattr(pe, "_MAX_MEMORY_LEAK_SIZE", int(3e8))
    engine.sample_run(DEMO, [DEMO.scenario({"tons": 50})], 100, 0, backend="sequential")
    assert pe._MAX_MEMORY_LEAK_SIZE == engine.WORKER_MEMORY_SLACK > 3e8
