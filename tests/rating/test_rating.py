"""Issue 23 "Checks and goals": ratings with known answers (synthetic Bradley-Terry pools),
the error rate of the verdicts over seeds, the coverage of the strength intervals, and the
rating run on the real duel models (bit-identical across backends, exact pairings, files)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim.errors import ConfigError
from sim.rating import fit as F
from sim.rating.synthetic import rating, records

REPO = Path(__file__).resolve().parents[2]


def test_strength_intervals_cover_the_true_strengths():
    """Coverage of the 95% strength intervals >= 94% over repeated seeded synthetic pools
    (8 units, a round-robin of 100 duels a pairing, both seatings, ties)."""
    hit = tot = 0
    theta = np.linspace(-1.5, 1.5, 8)
    for seed in range(150):
        r = records(theta, 100, np.random.default_rng(seed))
        f = F.bradley_terry(r["i"], r["j"], r["s"], r["v"], 8)
        hit += int(np.sum((f.ci_low <= theta) & (theta <= f.ci_high)))
        tot += 8
    assert hit / tot >= 0.94, hit / tot
    assert hit / tot <= 0.985  # not trivially wide


def test_pool_fit_recovers_the_ordering():
    """Against a pool (not a round-robin) the fit still orders the units as their true
    strengths, and an exact record adds no Monte Carlo error."""
    theta = np.linspace(-2, 2, 10)
    theta -= theta.mean()
    r = records(theta, 400, np.random.default_rng(3), opponents=np.array([0, 4, 9]))
    f = F.bradley_terry(r["i"], r["j"], r["s"], r["v"], 10)
    assert list(np.argsort(f.theta)) == list(range(10))
    s = F.sigma(theta[r["i"]] - theta[r["j"]])
    ex = F.bradley_terry(r["i"], r["j"], s, np.zeros_like(s), 10)
    assert np.allclose(ex.theta, theta, atol=0.02) and np.allclose(ex.se, 0)


def test_planted_mispricing_is_found_and_the_curve_recovered():
    res = rating(seed=300, k=12, slope=2.0, misprice={4: 0.8, 8: -0.8}, incomplete=(1,),
                 n_boot=50)
    a = res.frame[res.frame["scenario"] == "all"].set_index("unit")
    assert a.loc["U04", "verdict"] == F.UNDER and a.loc["U08", "verdict"] == F.OVER
    assert a.loc["U04", "robustness"] == "holds in 3 of 3 scenarios"
    assert a.loc["U04", "price"] < a.loc["U04", "fair_price_ci_low"]
    assert a.loc["U08", "price"] > a.loc["U08", "fair_price_ci_high"]
    # the not fully simulated unit is rated (a strength, a fair price) but never judged
    assert a.loc["U01", "verdict"] == F.NONE and "not simulated" in a.loc["U01", "reason"]
    assert np.isfinite(a.loc["U01", "strength"])
    others = a.drop(index=["U04", "U08"])
    assert (others["verdict"] == F.NONE).all()
    truth = res.meta["true_strength"]
    cover = [a.loc[u, "strength_ci_low"] <= truth[u] <= a.loc[u, "strength_ci_high"]
             for u in a.index]
    assert sum(cover) >= len(cover) - 1
    c = res.meta["curve"]["all"]
    assert c["b_low"] <= 2.0 <= c["b_high"]


@pytest.mark.parametrize("random_prices", [True, False])
def test_no_verdicts_at_the_stated_error_rate(random_prices):
    """Prices at random (no relation to strength) or all fair: a verdict anywhere in a run at
    most at the stated 5% rate, over seeds (here: at most 1 run of 16)."""
    runs = 0
    for seed in range(16):
        res = rating(seed=500 + seed, k=12, slope=2.0, incomplete=(),
                     random_prices=random_prices, n_boot=1)
        a = res.frame[res.frame["scenario"] == "all"]
        runs += int((a["verdict"] != F.NONE).any())
    assert runs <= 1


def test_holm_and_bh():
    p = np.array([0.01, 0.04, 0.03, np.nan, 0.005])
    assert np.allclose(F.adjust(p, "holm")[[4, 0, 2, 1]], [0.02, 0.03, 0.06, 0.06])
    assert np.isnan(F.adjust(p, "holm")[3])
    assert np.allclose(F.adjust(p, "bh")[[4, 0, 2, 1]], [0.02, 0.02, 0.04, 0.04])
    with pytest.raises(ValueError):
        F.adjust(p, "bonferroni")


def test_fieller_is_unbounded_without_a_slope():
    flat = F.Line(0.0, 0.05, 3.0, 0.01, 0.04, 10)
    assert F.fieller(0.5, 0.001, flat)[1:] == (-np.inf, np.inf)
    steep = F.Line(0.0, 2.0, 3.0, 0.01, 0.01, 10)
    pt, lo, hi = F.fieller(0.5, 0.001, steep)
    assert lo < pt < hi and pt == pytest.approx(3.25)


def test_robustness_text():
    v, t = F.robustness([np.array([F.OVER, F.OVER, F.NONE]),
                         np.array([F.OVER, F.NONE, F.NONE])], ["short", "long"])
    assert list(v) == [F.OVER, F.NONE, F.NONE]
    assert t[0] == "holds in 2 of 2 scenarios"
    assert t[1] == "over-priced in 1 of 2 scenarios; depends on: long (no verdict)"
    assert t[2] == "no verdict in any of 2 scenarios"


# -- the real duel models (small) -------------------------------------------------------------
SMALL = dict(game="alphastrike", pool=["Commando COM-1B", "Colossus CL-P3"],
             scenarios=[{"name": "short", "range": "short"}], chunk_size=40, max_trials=80,
             target_error=0.05, seed=4)


def test_rating_is_bit_identical_across_backends_and_marks_unsimulated_specials():
    from sim.rating.run import rate

    units = ["Catapult CPLT-C3", "Hunchback HBK-4G"]
    a = rate(units, n_jobs=1, backend="sequential", **SMALL)
    b = rate(units, n_jobs=2, backend="threading", **SMALL)
    assert a.frame.equals(b.frame) and a.pairings.equals(b.pairings)
    row = a.frame[(a.frame["scenario"] == "all")].set_index("unit")
    assert row.loc["Catapult CPLT-C3", "verdict"] == F.NONE
    assert "ARTAIS" in row.loc["Catapult CPLT-C3", "reason"]
    assert a.meta["rounds"][0]["duels_per_pairing"] == 40
    assert (a.pairings["n"] <= 80).all() and (a.pairings["n"] >= 40).all()


def test_exact_pairings_need_no_sampling():
    from sim.rating.run import rate

    res = rate(["Locust LCT-1V"], exact=True, rule_overrides={"crits": False},
               **{**SMALL, "pool": ["Commando COM-1B"]})
    assert res.pairings["exact"].all() and (res.pairings["n"] == 0).all()
    assert res.meta["duels"] == 0


def test_experiment_kind_rating_runs_and_writes(tmp_path):
    from sim.experiment import load, run
    from sim.results import read

    exp = load({"kind": "rating", "name": "r", "units": ["Hunchback HBK-4G"],
                "pool": SMALL["pool"], "scenario": SMALL["scenarios"], "chunk_size": 40,
                "max_trials": 40, "seed": 1})
    assert exp.report == "rating" and exp.model == "duel"
    run(exp, out=tmp_path)
    frame, meta = read(tmp_path / "r")
    assert set(F.NONE for _ in [0]) <= set(frame["verdict"])
    assert meta["kind"] == "rating" and meta["pool"] == SMALL["pool"]
    assert {"unit", "price", "fair_price", "fair_price_ci_low", "fair_price_ci_high", "ratio",
            "strength", "strength_ci_low", "strength_ci_high", "verdict", "robustness", "n",
            "reason"} <= set(frame.columns)
    with pytest.raises(ConfigError):
        load({"kind": "rating", "name": "r", "bogus": 1})
    with pytest.raises(ConfigError):
        load({"kind": "nonsense", "name": "r"})


def test_default_suite_experiments_load():
    from sim.experiment import load

    for name in ("12_rating_alphastrike.toml", "13_rating_classic.toml"):
        exp = load(REPO / "experiments" / name)
        assert exp.report == "rating"


def test_cli_rate_errors_are_one_line(capsys):
    from sim.cli import main

    assert main(["rate", "--game", "chess", "Atlas AS7-D"]) == 2
    err = capsys.readouterr().err
    assert "game" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["rate"]) == 2
    assert "--all" in capsys.readouterr().err


def test_cli_rate_json(tmp_path, capsys):
    from sim.cli import main

    code = main(["rate", "Hunchback HBK-4G", "--pool", "Commando COM-1B,Colossus CL-P3",
                 "--chunk-size", "40", "--max-trials", "40", "--out", str(tmp_path), "--json",
                 "--seed", "2"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["meta"]["game"] == "alphastrike" and doc["units"]
    assert (tmp_path / "rating_alphastrike" / "summary.parquet").is_file()


def test_classic_equipment_without_a_duel_effect_is_not_judged():
    from sim.rating.run import unsimulated

    loki = unsimulated("classic", "Loki (Hellbringer) Prime")
    assert any("ECM" in n for n in loki)
    assert unsimulated("classic", "Hunchback HBK-4G") == []


def test_a_rating_resumes_from_its_cache(tmp_path):
    from sim.experiment import load, run
    from sim.results import read

    exp = load({"kind": "rating", "name": "r", "units": ["Hunchback HBK-4G"],
                "pool": ["Commando COM-1B"], "scenario": SMALL["scenarios"],
                "chunk_size": 40, "max_trials": 80, "target_error": 0.01, "seed": 3})
    first = run(exp, out=tmp_path)
    assert (tmp_path / "r" / ".cache").is_dir()
    again = run(exp, out=tmp_path)
    assert first.equals(again) and read(tmp_path / "r")[0].equals(first)


def test_a_card_against_copies_of_itself_at_other_skills_is_ordered_by_skill():
    """Known answer on the real duel: the same card at skills 2 to 6 (a better skill is
    stronger and dearer); the fit orders them by skill and the curve's slope is positive."""
    from sim.rating.run import rate

    copies = [f"Griffin GRF-2N@{s}" for s in (2, 3, 4, 5, 6)]
    res = rate(copies, game="alphastrike", pool=copies, seatings="one", seed=8,
               scenarios=[{"name": "medium", "range": "medium"}], chunk_size=200,
               max_trials=200)
    a = res.frame[res.frame["scenario"] == "all"].set_index("unit").loc[copies]
    assert list(a["strength"]) == sorted(a["strength"], reverse=True)
    assert list(a["price"]) == sorted(a["price"], reverse=True)
    assert res.meta["curve"]["all"]["b"] > 0


def test_a_rating_built_a_few_pairings_at_a_time_is_bit_identical(monkeypatch, tmp_path):
    """A rating holds parameters and builds a step's scenarios BATCH at a time (memory: a
    Classic scenario holds its sides' fire situations); any batch size gives the same bits,
    the maximin screen and a resumed cache included."""
    from sim.rating import run as R

    kw = dict(SMALL, scenarios=[{"name": "short", "range": "short"},
                                {"name": "mm", "range": "medium",
                                 "maximin": ["competent", "brawler"], "screen_trials": 20}])
    units = ["Locust LCT-1V", "Hunchback HBK-4G"]
    whole = R.rate(units, n_jobs=1, backend="sequential", **kw)
    monkeypatch.setattr(R, "BATCH", 3)
    parts = R.rate(units, n_jobs=1, backend="sequential", cache_dir=tmp_path / "c", **kw)
    assert whole.frame.equals(parts.frame) and whole.pairings.equals(parts.pairings)
    assert len(whole.pairings) > 3  # more pairings (and screen cells) than a batch
    again = R.rate(units, n_jobs=1, backend="sequential", cache_dir=tmp_path / "c", **kw)
    assert again.frame.equals(whole.frame)
