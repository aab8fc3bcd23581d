"""Precision odds and ends: t quantiles, the cache file format, the model commands' flags,
the bench figures."""

import json

import numpy as np
import pytest

from sim import bench, engine
from sim.aggregate import Aggregate
from sim.cache import dump_chunks, load_chunks
from sim.cli import main as cli
from sim.demo import MODEL as DEMO


def test_t975_matches_student_t():
    stats = pytest.importorskip("scipy.stats")
    df = np.array([1, 2, 3, 7, 10, 11, 20, 50, 1000])
    assert np.abs(engine.t975(df) - stats.t.ppf(0.975, df)).max() < 2e-4


def test_paired_ci_with_few_chunks_uses_t():
    d = engine.PairedDiff()
    for n, a in ((100, 0.5), (100, 0.7), (100, 0.6)):
        d.add(n, {"x": np.array([a])}, {"x": np.array([0.0])})
    diff, se, lo, hi = d.result("x")
    assert diff[0] == pytest.approx(0.6)
    assert se[0] == pytest.approx(np.std([0.5, 0.7, 0.6], ddof=1) / np.sqrt(3))
    assert (hi[0] - diff[0]) / se[0] == pytest.approx(4.3027)  # t, 2 degrees of freedom
    one = engine.PairedDiff()
    one.add(10, {"x": np.array([1.0])}, {"x": np.array([0.0])})
    assert np.isnan(one.result("x")[1][0])  # one chunk: no standard error


def test_cache_file_round_trip_and_damage(tmp_path):
    scn = DEMO.scenario({"tons": 70})
    parts = [(c, DEMO.sample(scn, engine.chunk_rng(0, 0, c), 100 + c)) for c in (3, 4)]
    odd = Aggregate(5)
    odd.add_hist("damage_dist", np.array([0, 1, 2, 9, 9]), bins=10)  # another layout
    parts.append((5, odd))
    path = tmp_path / "x.agg"
    path.write_bytes(dump_chunks(parts))
    back = load_chunks(path)
    for (c, a), (c2, b) in zip(parts, back, strict=True):
        assert c == c2 and a.n == b.n and list(a.stats) == list(b.stats)
        assert all(np.array_equal(a.stats[k], b.stats[k]) for k in a.stats)
        assert all(np.array_equal(a.hists[k], b.hists[k]) for k in a.hists)
    path.write_bytes(path.read_bytes()[:-8])
    with pytest.raises(ValueError):
        load_chunks(path)


def test_damaged_cache_file_is_recomputed(tmp_path):
    from sim.experiment import run

    exp = {"name": "d", "model": "punch-demo", "trials": 4000, "seed": 1}
    first = run(exp, out=tmp_path, chunk_size=500, progress=False)
    victim = sorted((tmp_path / "d" / ".cache").rglob("*.agg"))[0]
    victim.write_bytes(b"garbage")
    # the finished scenario's description holds its result too: damaged, then recomputed
    (tmp_path / "d" / ".cache" / "scenarios.rec").write_bytes(b"garbage")
    info: dict = {}
    again = run(exp, out=tmp_path, chunk_size=500, progress=False, info=info)
    assert info["chunks_computed"] > 0 and again.equals(first)


def test_attack_and_heat_target_error_flags(capsys):
    assert cli(["attack", "punch", "--tons", "70", "--target-error", "0.02",
                "--target-metric", "p_hit", "--chunk-size", "256", "--seed", "3",
                "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["mode"] == "monte-carlo" and doc["trials"] in (256 * 2**k for k in range(12))
    assert cli(["heat", "--ov", "2", "--turns", "3", "--target-error", "0.05",
                "--chunk-size", "512", "--seed", "1"]) == 0
    assert "Monte Carlo" in capsys.readouterr().out
    assert cli(["heat", "--exact", "--target-error", "0.05"]) == 2
    assert cli(["attack", "punch", "--tons", "70", "--target-error", "0"]) == 2
    assert cli(["attack", "punch", "--tons", "70", "--max-trials", "10"]) == 2
    assert capsys.readouterr().err.count("btsim: error:") == 3


def test_api_target_error_metadata():
    from sim.api import attack

    res = attack("punch", tons=70, target_error=0.05, target_metric="p_hit", chunk_size=128,
                 seed=2)
    meta = res.metadata
    assert meta["target_reached"] is True and meta["target_error"] == 0.05
    assert meta["trials"] == int(res.frame["trials_used"].iloc[0])


def test_bench_precision_figures_shape():
    res = bench.precision_figures(["punch-demo"], quick=True, coverage_runs=50)
    (c,) = res["cache"]
    assert c["model"] == "punch-demo" and 0 <= c["cache_time_share"] < 1
    assert c["cache_bytes"] > 0 and c["seconds_finished_rerun"] > 0
    assert res["coverage"]["runs"] == 50 and 0.8 <= res["coverage"]["coverage"] <= 1
    lines = "\n".join(bench._precision_lines(res))
    assert "chunk cache" in lines and "coverage" in lines


def test_bench_pairing_gain_shape():
    g = bench.pairing_gain("punch-demo", {"common": {"tons": 70}, "a": {"piloting": 4},
                                          "b": {"piloting": 5}}, trials=8192, chunk=512)
    assert g["metrics"]["expected_damage"]["ratio"] > 1  # shared dice: a smaller SE
    assert g["best_metric"] in g["metrics"]
