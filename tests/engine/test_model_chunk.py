"""A model's default chunk (``Model.default_chunk``): used when the caller gives none, an
explicit ``chunk_size`` wins, and models without one keep the engine's default."""

from __future__ import annotations

import sim
from sim import engine
from sim.classic.duel import kernel
from sim.classic.duel.model import MODEL as DUEL
from sim.demo import MODEL as DEMO


def test_validate_run_reads_the_models_default_chunk() -> None:
    assert DUEL.default_chunk == kernel.BLOCK
    assert engine.validate_run(10, 1, 1, "sequential", None, DUEL)[4] == kernel.BLOCK
    assert engine.validate_run(10, 1, 1, "sequential", 1000, DUEL)[4] == 1000
    assert DEMO.default_chunk is None
    assert engine.validate_run(10, 1, 1, "sequential", None, DEMO)[4] == engine.DEFAULT_CHUNK
    assert engine.validate_run(10, 1, 1, "sequential")[4] == engine.DEFAULT_CHUNK


def test_classic_duel_runs_in_its_own_chunks() -> None:
    res = sim.classic_duel("Hunchback HBK-4G", "Wolverine WVR-6R", range=6, turns=2,
                           trials=200, seed=1)
    assert res.metadata["chunk_size"] == kernel.BLOCK
    res = sim.classic_duel("Hunchback HBK-4G", "Wolverine WVR-6R", range=6, turns=2,
                           trials=200, seed=1, chunk_size=100)
    assert res.metadata["chunk_size"] == 100


def test_sim_run_records_the_chunk_it_used(tmp_path) -> None:  # type: ignore[no-untyped-def]
    exp = {"name": "cd", "model": "classic-duel", "trials": 40, "seed": 1, "exact": False,
           "metrics": ["p_win_a"], "fixed": {"turns": 2},
           "grid": {"unit_a": ["Locust LCT-1V"], "unit_b": ["Locust LCT-1V"], "range": [3]}}
    res = sim.run(exp, out=tmp_path, progress="never")
    assert res.metadata["chunk_size"] == kernel.BLOCK
