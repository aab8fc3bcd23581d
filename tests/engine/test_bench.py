"""``btsim bench`` reports figures (never pass/fail); this checks their shape, not speed."""

import json
import math

from sim import bench
from sim.cli import main


def test_bench_reports_every_figure(capsys):
    assert main(["bench", "--quick", "--json", "--model", "punch-demo",
                 "--big-trials", "200000"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert set(res["dice"]) == {"numpy_integers_d6_per_s", "d6_per_s", "two_d6_per_s"}
    (row,) = res["kernels"]
    for key in ("rate_one_core", "rate_engine_one_core", "engine_overhead", "rate_all_cores",
                "parallel_efficiency", "exact_ms"):
        assert math.isfinite(row[key]), key
    mem = res["memory"]
    assert mem["trials_large"] == 200000 and mem["peak_mib_large"] > 0
    text = bench.format_table(res)
    assert "punch-demo" in text and "peak traced memory" in text


def test_bench_counts_the_units_a_trial_really_held(monkeypatch):
    """``BenchCase.per_trial_metric``: the rate counts the metric's value per trial (measured
    by the engine run the bench times), not the declared ``per_trial``."""
    from sim import engine
    from sim.demo import MODEL as DEMO
    from sim.model import BenchCase

    case = BenchCase("demo", {"tons": 50, "piloting": 5}, unit="hits", per_trial=1,
                     per_trial_metric="p_hit")
    model = DEMO  # bench_case takes the case itself
    monkeypatch.setattr(bench, "SLOW_PROBE_S", 0.0)  # measured in the smallest chunks
    row = bench.bench_case(model, case, cores=1, seconds=0.0)
    assert row["chunk_size"] == bench.MIN_BENCH_CHUNK
    assert row["per_trial_from"] == "p_hit"
    frame = engine.simulate(model, [case.params], row["trials"], 0, n_jobs=1,
                            backend="sequential", chunk_size=row["chunk_size"],
                            progress=False, with_exact=False)
    assert row["per_trial"] == float(frame["p_hit"].iloc[0])
    assert 0.5 < row["per_trial"] < 1
    assert math.isclose(row["rate_one_core"] / row["rate_engine_one_core"],
                        1 + row["engine_overhead"])


def test_bench_chunk_keeps_the_default_for_fast_kernels(monkeypatch):
    from sim import engine
    from sim.demo import MODEL as DEMO

    scn = DEMO.scenario({"tons": 50, "piloting": 5})
    monkeypatch.setattr(bench, "SLOW_PROBE_S", float("inf"))
    assert bench.bench_chunk(DEMO, scn, 0.3) == engine.DEFAULT_CHUNK
    monkeypatch.setattr(bench, "SLOW_PROBE_S", 0.0)
    assert bench.bench_chunk(DEMO, scn, 0.0) == bench.MIN_BENCH_CHUNK
    assert bench.bench_chunk(DEMO, scn, float("inf")) == engine.DEFAULT_CHUNK


def test_declared_bench_cases_of_the_classic_duel_and_hit():
    """The Classic duel counts the duel-turns it played (``expected_turns``, a mean metric)
    beside its scalar oracle; ``hit`` times the exact answers of one 20-point group from the
    front and on the CT."""
    from sim.models import get_model
    from sim.oracles import scalar_baseline

    duel = get_model("classic-duel")
    case, saf = duel.bench_cases        # competent (the default) and stand-and-fire
    assert saf.params["tactic_a"] == saf.params["tactic_b"] == "stand-and-fire"
    assert case.unit == "duel-turns" and case.per_trial_metric == "expected_turns"
    kinds = {m.name: m.kind for m in duel.metrics}
    assert kinds["expected_turns"] == "mean"
    assert scalar_baseline("classic-duel") is not None
    hit = {c.label: c.params for c in get_model("hit").bench_cases}
    assert hit["hit-20-front"]["side"] == "front" and hit["hit-20-CT"]["location"] == "CT"
    assert hit["hit-20-CT"]["groups"] == [20] and hit["hit-20-front"]["damage"] == 20


def test_table_names_played_units_and_small_chunks():
    row = {"kernel": "classic-duel:classic-duel", "unit": "duel-turns", "per_trial": 5.72,
           "per_trial_from": "expected_turns", "chunk_size": 4096, "rate_one_core": 6e4,
           "engine_overhead": 0.05, "rate_all_cores": 1.1e5, "parallel_efficiency": 0.9,
           "rate_scalar_python": 3e3, "speedup_vs_scalar": 20.0}
    res = {"btsim_version": "x", "chunk_size": 2**18, "kernels": [row],
           "machine": {"cores": 2, "processor": "p", "python": "3", "numpy": "2"},
           "dice": {"numpy_integers_d6_per_s": 1e8, "d6_per_s": 1e8, "two_d6_per_s": 1e8}}
    text = bench.format_table(res)
    assert "5.72 per trial, counted by expected_turns" in text
    assert "classic-duel:classic-duel 4096" in text and "0.06 " in text


def test_profile_figure_of_the_catalog_mechs():
    """The exact-profile figure (issue 18): a CPU time per unit, never pass/fail."""
    res = bench.profile_times(["Locust LCT-1V", "Commando COM-2D"])
    assert res["units"] == 2 and res["slowest"] in ("Locust LCT-1V", "Commando COM-2D")
    assert 0 <= res["median_s"] <= res["max_s"] <= res["total_s"]
    base = {"btsim_version": "x", "chunk_size": 2**18, "kernels": [],
            "machine": {"cores": 2, "processor": "p", "python": "3", "numpy": "2"},
            "dice": {"numpy_integers_d6_per_s": 1e8, "d6_per_s": 1e8, "two_d6_per_s": 1e8}}
    text = bench.format_table({**base, "profile": res})
    assert "btsim profile (exact, in-process CPU) of the 2 catalog 'Mechs" in text


def test_table_shows_the_classic_duel_scenario_figures():
    res = {"btsim_version": "x", "machine": {"cores": 2, "processor": "p", "python": "3",
                                             "numpy": "2"},
           "chunk_size": 4096, "dice": {"numpy_integers_d6_per_s": 1e8, "d6_per_s": 1e8,
                                        "two_d6_per_s": 1e8},
           "kernels": [],
           "classic_duel": {"scenarios": 192, "duels_per_scenario": 200, "duel_turns": 2e5,
                            "cpu_s": 1.0, "rate_200": 2e5, "fixed_ms": 1.5,
                            "kernel_load_s": 0.4, "wall_jobs1_s": 2.0, "wall_jobs2_s": 1.1,
                            "jobs2_speedup": 1.82}}
    text = bench.format_table(res)
    assert "at 200 duels per scenario" in text and "0.200 M played duel-turns/s" in text
    assert "fixed cost 1.50 ms" in text and "--jobs 2 1.82x" in text
    assert "cold compile" not in text                 # --quick does not measure it
    res["classic_duel"]["compile_cpu_s"] = 38.6
    assert "cold compile 39 s CPU" in bench.format_table(res)
