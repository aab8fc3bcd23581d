"""Engine: chunk seeding, bit-identical results for any worker count and backend, bounded
memory, confidence intervals and the exact twin (issue 2)."""

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest

from sim import engine
from sim.aggregate import Aggregate
from sim.demo import MODEL as DEMO
from sim.errors import ConfigError, UserError

SCENARIOS = [{"tons": 70}, {"tons": 20, "upper_arm_damaged": True, "target_hexes": 5},
             {"tons": 95, "piloting": 3}]
TRIALS = 3 * engine.DEFAULT_CHUNK + 12345  # not a multiple of the chunk size


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    return engine.simulate(DEMO, SCENARIOS, TRIALS, seed=11, n_jobs=1, backend="sequential")


@pytest.mark.parametrize(("n_jobs", "backend"), [(1, "loky"), (2, "loky"), (2, "threading")])
def test_bit_identical_for_any_jobs_and_backend(reference, n_jobs, backend):
    got = engine.simulate(DEMO, SCENARIOS, TRIALS, seed=11, n_jobs=n_jobs, backend=backend)
    pdt.assert_frame_equal(got, reference, check_exact=True)


@pytest.mark.parametrize("target_tasks", [1, 2, 1000])
def test_task_grouping_does_not_change_results(reference, monkeypatch, target_tasks):
    """Tasks of several chunks (1-2 tasks for the run) or one chunk each: same bits."""
    monkeypatch.setattr(engine, "TARGET_TASKS", target_tasks)
    plan = engine._plan(len(SCENARIOS), TRIALS, engine.DEFAULT_CHUNK)
    chunks_per_task = {t.last_chunk - t.first_chunk for t in plan}
    assert (max(chunks_per_task) > 1) == (target_tasks < 12)
    got = engine.simulate(DEMO, SCENARIOS, TRIALS, seed=11, n_jobs=2)
    pdt.assert_frame_equal(got, reference, check_exact=True)


def test_seed_changes_results(reference):
    other = engine.simulate(DEMO, SCENARIOS, TRIALS, seed=12)
    assert not np.array_equal(other["p_hit"], reference["p_hit"])


def test_chunk_seeding_is_spawn_tree():
    """Chunk c of scenario s is SeedSequence(seed).spawn(s+1)[s].spawn(c+1)[c]."""
    child = np.random.SeedSequence(11).spawn(3)[2].spawn(5)[4]
    a = np.random.Generator(np.random.PCG64DXSM(child)).integers(0, 2**63, 4)
    b = engine.chunk_rng(11, 2, 4).integers(0, 2**63, 4)
    assert (a == b).all()


def test_summary_layout_and_counts(reference):
    assert len(reference) == len(SCENARIOS)
    for m in ("p_hit", "expected_damage", "p_head_hit"):
        for suffix in ("", "_se", "_ci_low", "_ci_high", "_n", "_exact"):
            assert m + suffix in reference.columns
    assert (reference["p_hit_n"] == TRIALS).all()
    assert (reference["trials"] == TRIALS).all()
    dist = reference["damage_dist"].iloc[0]
    assert abs(sum(dist) - 1) < 1e-12


def test_monte_carlo_matches_exact_within_4_se(reference):
    z = engine.zscores(reference)
    assert set(z["metric"]) == {"p_hit", "expected_damage", "p_head_hit"}
    assert (z["z"].abs() < 4).all(), z


def test_exact_frame_same_names():
    ex = engine.exact_frame(DEMO, SCENARIOS)
    assert ex.loc[0, "p_hit"] == pytest.approx(30 / 36)
    assert ex.loc[1, "target_number"] == 9  # 5 + 2 (5 hexes) + 2 (upper arm)
    assert ex.loc[1, "damage_points"] == 1  # ceil(20/10)=2, halved -> 1 (minimum 1)
    assert "p_hit_se" not in ex.columns


def test_wilson_interval_contains_estimate_and_handles_zero():
    mean, se, lo, hi = engine._interval("probability", np.array([100.0, 100.0]),
                                        np.array([0.0, 37.0]), np.array([0.0, 37.0]))
    assert mean.tolist() == [0.0, 0.37]
    assert lo[0] == pytest.approx(0.0, abs=1e-12) and hi[0] > 0.02  # Wilson never collapses
    assert lo[1] < 0.37 < hi[1]
    assert se[1] == pytest.approx(np.sqrt(0.37 * 0.63 / 100))


def test_mean_interval_uses_sample_variance():
    values = np.array([1, 2, 3, 4], dtype=np.int64)
    agg = Aggregate(4)
    agg.add_mean("x", values)
    c, s, q = agg.stats["x"][0]
    mean, se, lo, hi = engine._interval("mean", np.array([c]), np.array([s]), np.array([q]))
    assert mean[0] == 2.5
    assert se[0] == pytest.approx(np.std(values, ddof=1) / 2)


def test_memory_is_bounded_by_chunk_not_trials():
    """Aggregates have the same size whatever the trial count."""
    scn = DEMO.scenario({"tons": 50})
    small = DEMO.sample(scn, engine.chunk_rng(0, 0, 0), 1000)
    big = Aggregate.merge_all([DEMO.sample(scn, engine.chunk_rng(0, 0, c), 2**16)
                               for c in range(8)])
    assert small.nbytes == big.nbytes
    assert big.n == 8 * 2**16


def test_conditional_mean_and_hist_merge():
    a = Aggregate(4)
    a.add_mean("d", np.array([0, 5, 0, 7]), where=np.array([False, True, False, True]))
    a.add_hist("h", np.array([0, 5, 0, 7]), bins=8)
    b = Aggregate(2)
    b.add_mean("d", np.array([3, 0]), where=np.array([True, False]))
    b.add_hist("h", np.array([3, 11]), bins=12)
    a.merge(b)
    assert a.stats["d"].tolist() == [[3.0, 15.0, 83.0]]
    assert a.hists["h"].shape == (1, 12) and a.hists["h"].sum() == 6


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"trials": -1}, "trials"), ({"trials": 0}, "trials"), ({"seed": -2}, "seed"),
     ({"backend": "mpi"}, "backend"), ({"n_jobs": 0}, "jobs")],
)
def test_bad_run_parameters(kwargs, field):
    args = {"trials": 10, "seed": 0, "n_jobs": 1, "backend": "loky"} | kwargs
    with pytest.raises(ConfigError) as err:
        engine.simulate(DEMO, SCENARIOS[:1], **args)
    assert err.value.field == field


def test_bad_scenario_parameter_names_field():
    with pytest.raises(ConfigError, match="'tons'.*multiple of 5 in \\[20, 100\\]; got 73"):
        engine.simulate(DEMO, [{"tons": 73}], 10, 0)


def test_unknown_metric_is_rejected():
    with pytest.raises(ConfigError, match="metrics"):
        engine.simulate(DEMO, SCENARIOS[:1], 10, 0, metrics=["nope"])


def test_unreachable_scheduler_is_a_user_error():
    with pytest.raises(UserError, match="scheduler"):
        engine.simulate(DEMO, SCENARIOS[:1], 10, 0, backend="dask", scheduler="tcp://127.0.0.1:9")


@pytest.mark.slow
def test_dask_local_cluster_equals_loky_bit_for_bit(reference):
    """A two-worker LocalCluster through joblib's Dask backend gives the loky result."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        got = engine.simulate(DEMO, SCENARIOS, TRIALS, seed=11, backend="dask",
                              scheduler=cluster.scheduler_address)
    pdt.assert_frame_equal(got, reference, check_exact=True)


@pytest.mark.slow
def test_dask_backend_without_scheduler_starts_local_cluster(reference):
    pytest.importorskip("dask.distributed")
    got = engine.simulate(DEMO, SCENARIOS, TRIALS, seed=11, backend="dask")
    pdt.assert_frame_equal(got, reference, check_exact=True)


def test_assert_mc_matches_exact_passes_and_fails(reference):
    from sim import testing

    table = testing.assert_mc_matches_exact(reference)
    assert "damage_dist[0]" in set(table["metric"])
    broken = reference.copy()
    broken["p_hit_exact"] = broken["p_hit_exact"] + 0.01
    with pytest.raises(AssertionError, match="p_hit"):
        testing.assert_mc_matches_exact(broken)
