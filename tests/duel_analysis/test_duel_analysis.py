"""What a PV buys (issue 10 "Points value"): Bradley-Terry ratings, the PV fairness curve, PV
outliers, the OV and skill tables (sim/alphastrike/duel/analysis.py), on synthetic round-robins
with known strengths, and the suite's duel experiments listing the catalog's cards."""

from __future__ import annotations

import itertools
import math
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.alphastrike.balance import ov_pv_term
from sim.alphastrike.duel import analysis as A
from sim.alphastrike.pv import pv_at_skill
from sim.errors import UserError
from sim.units import catalog
from sim.units.types import ASCard

REPO = Path(__file__).resolve().parents[2]


def sigmoid(x: np.ndarray | float) -> np.ndarray | float:
    return 1 / (1 + np.exp(-np.asarray(x, float)))


def round_robin(theta: dict[str, float], pv: dict[str, int], trials: int,
                rng: np.random.Generator | None, tie: float = 0.0,
                ranges: tuple[str, ...] = ("short",), turns: int = 1) -> pd.DataFrame:
    """A duel summary frame (the engine's layout) of every ordered pair incl. mirrors, with
    P(A wins or half-ties) = sigmoid(theta_A - theta_B); ``tie`` of the mass a draw/timeout.
    With ``rng`` the win/lose/tie probabilities are Monte Carlo estimates from ``trials``."""
    rows = []
    for a, b in itertools.product(theta, theta):
        for r in ranges:
            s = float(sigmoid(theta[a] - theta[b]))
            pt = tie
            pa, pb = s - pt / 2, 1 - s - pt / 2
            if rng is not None:
                k = rng.multinomial(trials, [max(pa, 0), max(pb, 0), pt])
                pa, pb, pt = k / trials
            for t in range(1, turns + 1):
                rows.append({"a": f"{a}@4", "b": f"{b}@4", "range": r, "turn": t,
                             "policy_a": "never", "policy_b": "never", "trials": trials,
                             "p_win_a": pa, "p_win_b": pb, "p_draw": pt / 2,
                             "p_timeout": pt / 2, "expected_turns": 3.0,
                             "pv_a": pv[a], "pv_b": pv[b]})
    return pd.DataFrame(rows)


def test_split_label_and_scores():
    assert A.split_label("Atlas AS7-D@4") == ("Atlas AS7-D", 4)
    assert A.split_label("Loki A") == ("Loki A", None)
    f = round_robin({"x": 0.0, "y": 0.0}, {"x": 20, "y": 20}, 100, None, tie=0.4)
    d = A.duels(f)
    assert len(d) == 4
    assert np.allclose(d["score_a"], 0.5)  # a draw or timeout counts as half
    assert list(d["unit_a"]) == ["x", "x", "y", "y"] and set(d["skill_a"]) == {4}


def test_bradley_terry_recovers_known_strengths_exactly():
    truth = np.array([-1.5, -0.4, 0.0, 0.3, 1.6])
    truth = truth - truth.mean()
    i, j = np.array(list(itertools.permutations(range(5), 2))).T
    s = sigmoid(truth[i] - truth[j])
    n = np.full(len(i), 1000.0)
    got = A.bradley_terry(i, j, s * n, n, 5, prior=0.0)
    assert np.allclose(got, truth, atol=1e-7)
    # ties counted as half: two players who only draw are equally strong
    eq = A.bradley_terry(np.array([0]), np.array([1]), np.array([50.0]), np.array([100.0]), 2,
                         prior=0.0)
    assert np.allclose(eq, 0.0)


def test_prior_keeps_a_winless_player_finite():
    i, j = np.array([0, 0, 1]), np.array([1, 2, 2])
    wins = np.array([0.0, 0.0, 60.0])
    got = A.bradley_terry(i, j, wins, np.full(3, 100.0), 3, prior=1.0)
    assert np.all(np.isfinite(got)) and got[0] < got[2] < got[1]


def test_ratings_recover_strengths_within_their_monte_carlo_intervals():
    rng = np.random.default_rng(3)
    theta = {f"u{k}": v for k, v in enumerate([-1.2, -0.5, 0.0, 0.4, 1.3])}
    pv = dict.fromkeys(theta, 30)
    f = round_robin(theta, pv, 5000, rng, tie=0.1, ranges=("short", "long"))
    r = A.ratings(A.duels(f), n_boot=150, seed=1)
    t = r.table[r.table["range"] == "all"].set_index("unit")
    truth = np.array(list(theta.values()))
    truth = truth - truth.mean()
    width = (t["ci_high"] - t["ci_low"]).to_numpy()
    assert np.all(width > 0) and np.all(width < 0.2)
    err = np.abs(t.loc[list(theta), "theta"].to_numpy() - truth)
    assert np.all(err < 2 * width)  # about 4 SE: the interval is about 4 SE wide
    assert set(r.table["range"]) == {"short", "long", "all"}
    assert r.boot.shape == (150, 5)


def test_rating_intervals_cover_the_truth_about_95_percent():
    """Coverage sanity: over 30 independent synthetic round-robins the 95% intervals of the
    (centred) strengths hold the truth in most cases (expected 95%; binomial SD ~2.5% on 150
    intervals, so 85% is far below what a correct interval gives)."""
    theta = {"a": -0.8, "b": -0.1, "c": 0.2, "d": 0.7, "e": 0.0}
    truth = np.array(list(theta.values()))
    truth = truth - truth.mean()
    pv = dict.fromkeys(theta, 30)
    rng = np.random.default_rng(12)
    hits = total = 0
    for rep in range(30):
        f = round_robin(theta, pv, 400, rng, tie=0.1)
        t = A.ratings(A.duels(f), n_boot=100, seed=rep, prior=0.0).table.set_index("unit")
        t = t.loc[list(theta)]
        hits += int(np.sum((t["ci_low"] <= truth) & (truth <= t["ci_high"])))
        total += len(theta)
    assert hits / total >= 0.85


def test_logistic_slope_and_fairness_curve_recover_beta():
    x = np.linspace(-1, 1, 21)
    beta = 2.5
    assert A.logistic_slope(x, sigmoid(beta * x), np.ones_like(x)) == pytest.approx(beta,
                                                                                     abs=1e-9)
    pv = {f"u{k}": p for k, p in enumerate([18, 24, 30, 38, 45, 52])}
    theta = {u: beta * math.log(p) for u, p in pv.items()}
    fit = A.fairness(A.duels(round_robin(theta, pv, 1000, None)), n_boot=60, seed=2)
    assert fit.beta == pytest.approx(beta, abs=1e-6)
    assert fit.beta_low <= fit.beta <= fit.beta_high
    c = fit.curve
    assert np.all(c["lo"] <= c["p"] + 1e-12) and np.all(c["p"] <= c["hi"] + 1e-12)
    assert c["p"].iloc[50] == pytest.approx(0.5)  # equal PV: an even fight on the curve
    assert A.fair_score(beta, 2.0) == pytest.approx(float(sigmoid(beta * math.log(2))))


def test_pv_outliers_find_the_mispriced_card():
    """Strength follows PV on a curve with slope 2, except one card that plays like a card of
    twice its PV (under-costed) and one like a card of half its PV (over-costed)."""
    beta = 2.0
    pv = {f"u{k}": p for k, p in enumerate([18, 20, 24, 28, 30, 34, 38, 42, 45, 52])}
    theta = {u: beta * math.log(p) for u, p in pv.items()}
    theta["u3"] += beta * math.log(2)
    theta["u7"] -= beta * math.log(2)
    d = A.duels(round_robin(theta, pv, 4000, np.random.default_rng(5), tie=0.05))
    r = A.ratings(d, n_boot=80, seed=1)
    fit = A.fairness(d, n_boot=80, seed=1)
    out = A.pv_outliers(r, fit)
    assert out["unit"].iloc[0] == "u3" and out["unit"].iloc[-1] == "u7"
    assert out["verdict"].iloc[0] == "under-costed" and out["verdict"].iloc[-1] == "over-costed"
    assert out["z"].iloc[0] > 1.5 and out["z"].iloc[-1] < -1.5
    assert 0 < out["p_value"].iloc[0] < 0.2
    top = out.iloc[0]
    assert top["fair_pv_low"] <= top["fair_pv"] <= top["fair_pv_high"]
    assert top["fair_pv"] > top["pv"] and out["fair_pv"].iloc[-1] < out["pv"].iloc[-1]


def test_win_matrix_averages_both_seatings():
    pv = {"x": 20, "y": 30}
    f = round_robin({"x": 0.0, "y": 1.0}, pv, 1000, None)
    m = A.win_matrix(A.duels(f))
    assert m.loc["x", "x"] == pytest.approx(0.5)
    assert m.loc["y", "x"] == pytest.approx(float(sigmoid(1.0)))
    assert m.loc["x", "y"] + m.loc["y", "x"] == pytest.approx(1.0)


def _policy_frame() -> pd.DataFrame:
    rows = []
    for pol, win, dmg in (("never", 0.40, 2.0), ("fixed:1", 0.55, 3.0), ("max", 0.55, 3.5)):
        for t in (1, 2, 3):
            rows.append({"a": "Axman AXM-1N@4", "b": "Axman AXM-1N@4", "range": "short",
                         "turn": t, "policy_a": pol, "policy_b": "never", "trials": 10000,
                         "p_win_a": win, "p_win_b": 1 - win, "p_draw": 0.0, "p_timeout": 0.0,
                         "expected_turns": 3.0, "expected_damage_a": dmg,
                         "p_shutdown_a": 0.1 * t if pol == "max" else 0.0,
                         "pv_a": 33, "pv_b": 33})
    return pd.DataFrame(rows)


def test_ov_table_best_policy_damage_and_pv_paid():
    t = A.ov_table(A.duels(_policy_frame()))
    row = t.iloc[0]
    assert row["best_policy"] == "fixed:1"  # tied with max: the least overheat wins
    assert row["win_never"] == pytest.approx(0.40) and row["win_best"] == pytest.approx(0.55)
    # damage per turn fought: 3 turns of 2.0 (3.0) over 3 expected turns
    assert row["damage_never"] == pytest.approx(2.0) and row["damage_best"] == pytest.approx(3.0)
    assert row["shutdown_max"] == pytest.approx(0.3)  # at the last turn
    assert row["gain"] == pytest.approx(0.15)
    assert row["pv_for_ov"] == ov_pv_term(catalog.get_alphastrike("Axman AXM-1N")) == 1.0
    f = _policy_frame()
    f = f[f["policy_a"] == "never"].assign(policy_a="never")
    same = pd.concat([f, f.assign(policy_a="max")])
    assert A.ov_table(A.duels(same)).iloc[0]["best_policy"] == "never"  # ties keep never


def test_ov_pv_term_follows_23_4():
    def card(**kw: object) -> ASCard:
        return ASCard(name="x", **kw)  # type: ignore[arg-type]

    assert ov_pv_term(card(ov=0)) == 0.0
    assert ov_pv_term(card(ov=1, damage=(3, 3, 0, 0))) == 1.0
    assert ov_pv_term(card(ov=3, damage=(3, 3, 0, 0))) == 2.0
    assert ov_pv_term(card(ov=2, damage=(3, 0, 0, 0))) == 0.75  # no M or L damage: halved
    ovl = catalog.get_alphastrike("Atlas AS7-K")
    assert ovl.has("OVL") and ov_pv_term(ovl) == 1.5 + 2 / 4


def test_skill_table_prices_each_step_from_the_pv_table():
    rows = []
    for s in range(2, 7):
        for t in (1, 2):
            rows.append({"a": f"Atlas AS7-D@{s}", "b": "Atlas AS7-D@4", "range": "medium",
                         "turn": t, "policy_a": "never", "policy_b": "never", "trials": 100,
                         "p_win_a": 0.1 * (7 - s), "p_win_b": 1 - 0.1 * (7 - s),
                         "p_draw": 0.0, "p_timeout": 0.0, "expected_turns": 3.0,
                         "pv_a": pv_at_skill(52, s), "pv_b": 52})
    t = A.skill_table(A.duels(pd.DataFrame(rows))).set_index("skill")
    assert list(t.index) == [6, 5, 4, 3, 2]
    assert t.loc[3, "pv_step"] == pv_at_skill(52, 3) - pv_at_skill(52, 4) == 10
    assert t.loc[5, "pv_step"] == 5 and math.isnan(t.loc[6, "pv_step"])
    assert t.loc[3, "score_step"] == pytest.approx(0.1)
    assert t.loc[3, "score_per_pv"] == pytest.approx(0.01)
    assert A.pv_price_steps(52) == {s: pv_at_skill(52, s) for s in range(2, 7)}


def _experiment(name: str) -> dict:
    return tomllib.loads((REPO / "experiments" / name).read_text(encoding="utf-8"))


def test_round_robin_experiment_lists_every_catalog_card():
    cards = [e.card.name for e in catalog.entries() if e.card is not None]
    exp = _experiment("08_duel_round_robin.toml")
    assert exp["model"] == "duel" and exp["report"] == "duel-round-robin"
    assert exp["grid"]["a"] == cards and exp["grid"]["b"] == cards
    assert exp["grid"]["range"] == ["short", "medium", "long"]


def test_overheat_experiment_lists_every_catalog_card_with_ov():
    cards = [e.card.name for e in catalog.entries() if e.card is not None and e.card.ov > 0]
    exp = _experiment("09_duel_overheat.toml")
    assert [c["a"] for c in exp["cases"]] == cards
    assert all(c["a"] == c["b"] for c in exp["cases"])
    assert "never" in exp["grid"]["policy_a"] and exp["fixed"]["policy_b"] == "never"


def test_best_policy_needs_more_than_monte_carlo_noise():
    """A policy replaces never only when its score beats never's by more than 3 SE of the
    difference: 3 sqrt(2 * 0.5 * 0.5 / 2000) = 0.047 at 2,000 trials, 0.015 at 20,000."""
    score = pd.Series({"never": 0.50, "fixed:1": 0.53, "max": 0.45})
    assert A._best_policy(score, 2000) == "never"
    assert A._best_policy(score, 20000) == "fixed:1"
    assert A._best_policy(score) == "fixed:1"  # exact values: any gain counts


def test_ov_usable_follows_6_2_and_keeps_never_where_ov_cannot_be_used():
    c1, k = catalog.get_alphastrike("Catapult CPLT-C1"), catalog.get_alphastrike("Atlas AS7-K")
    assert A.ov_usable(c1, "short") and A.ov_usable(c1, "medium")
    assert not A.ov_usable(c1, "long") and A.ov_usable(k, "long")  # Long only with OVL
    assert not A.ov_usable(k, "extreme")
    assert not A.ov_usable(catalog.get_alphastrike("Atlas AS7-D"), "short")  # no OV
    f = _policy_frame()
    f["a"] = f["b"] = "Catapult CPLT-C1@4"
    row = A.ov_table(A.duels(f.assign(range="long"))).iloc[0]
    assert row["best_policy"] == "never" and not row["ov_usable"]
    assert A.ov_table(A.duels(f)).iloc[0]["best_policy"] == "fixed:1"


def classic_round_robin(theta: dict[str, float], bv: dict[str, int], trials: int,
                        rng: np.random.Generator) -> pd.DataFrame:
    """A ``classic-duel`` summary frame: sides named ``unit_a`` / ``unit_b`` (no ``@skill``),
    Battle Value facts ``bv_a`` / ``bv_b``, no ``pv`` and no ``p_timeout`` column (derived)."""
    f = round_robin(theta, dict.fromkeys(theta, 1), trials, rng, tie=0.06)
    f = f.drop(columns=["pv_a", "pv_b"])
    f["p_win_a"] = f["p_win_a"] + 0.5 * f["p_timeout"]  # keep the score: ties all draws
    f["p_win_b"] = f["p_win_b"] + 0.5 * f["p_timeout"]
    f = f.drop(columns=["p_timeout"])
    f["unit_a"] = [split_a for split_a, _ in map(A.split_label, f.pop("a"))]
    f["unit_b"] = [split_b for split_b, _ in map(A.split_label, f.pop("b"))]
    f["bv_a"] = f["unit_a"].map(bv)
    f["bv_b"] = f["unit_b"].map(bv)
    return f


def test_duels_read_classic_frames_with_bv_and_no_timeout_column():
    f = classic_round_robin({"x": 0.0, "y": 1.0}, {"x": 500, "y": 1500}, 100,
                            np.random.default_rng(1))
    d = A.duels(f)
    assert len(d) == 4 and set(d["unit_a"]) == {"x", "y"} and d["skill_a"].isna().all()
    assert np.allclose(d["p_win_a"] + d["p_win_b"] + d["p_draw"] + d["p_timeout"], 1.0)
    assert d["pv_a"].isna().all()  # no PV in a Classic frame
    assert d.set_index(["unit_a", "unit_b"]).loc[("y", "x"), "bv_a"] == 1500
    r = A.ratings(d, n_boot=10, seed=0, cost="bv")
    assert r.cost == "bv" and r.table.set_index("unit").loc["y", "bv"] == 1500
    assert "pv" not in r.table
    with pytest.raises(UserError, match="cost: 'tonnage'"):
        A.fairness(d, cost="tonnage")
    with pytest.raises(UserError, match="no columns pv_a/pv_b"):
        A.fairness(d.drop(columns=["pv_a", "pv_b"]), cost="pv")


def test_bv_fairness_curve_and_outliers_find_the_mispriced_mech():
    """The PV machinery with cost="bv": strength follows BV on a slope-1.5 curve except one
    'Mech that plays like twice its BV and one like half its BV."""
    beta = 1.5
    bv = {f"m{k}": p for k, p in enumerate([430, 540, 850, 900, 1040, 1100, 1370, 1400,
                                            1600, 1900])}
    theta = {u: beta * math.log(p) for u, p in bv.items()}
    exact = A.fairness(A.duels(classic_round_robin(theta, bv, 4000,
                                                   np.random.default_rng(0))), n_boot=0,
                       cost="bv")
    assert exact.cost == "bv" and exact.beta == pytest.approx(beta, abs=0.05)
    theta["m2"] += beta * math.log(2)
    theta["m8"] -= beta * math.log(2)
    d = A.duels(classic_round_robin(theta, bv, 4000, np.random.default_rng(5)))
    r = A.ratings(d, n_boot=60, seed=1, cost="bv")
    fit = A.fairness(d, n_boot=60, seed=1, cost="bv")
    out = A.cost_outliers(r, fit)
    assert list(out.columns[:2]) == ["unit", "bv"] and "fair_bv" in out and "fair_pv" not in out
    assert out["unit"].iloc[0] == "m2" and out["unit"].iloc[-1] == "m8"
    assert out["verdict"].iloc[0] == "under-costed" and out["verdict"].iloc[-1] == "over-costed"
    top = out.iloc[0]
    assert top["fair_bv_low"] <= top["fair_bv"] <= top["fair_bv_high"]
    assert top["fair_bv"] > top["bv"] and out["fair_bv"].iloc[-1] < out["bv"].iloc[-1]


def test_cost_outliers_mark_a_unit_without_bv_unknown():
    bv = {"m0": 400, "m1": 800, "m2": 1600, "m3": 0}  # m3: BV unknown (0 / None)
    theta = {"m0": 0.0, "m1": 1.0, "m2": 2.0, "m3": 1.0}
    d = A.duels(classic_round_robin(theta, bv, 1000, np.random.default_rng(2)))
    fit = A.fairness(d, n_boot=20, seed=0, cost="bv")
    assert set(fit.points["unit_a"]) == {"m0", "m1", "m2"}  # m3's duels are not fitted
    out = A.cost_outliers(A.ratings(d, n_boot=20, seed=0, cost="bv"), fit).set_index("unit")
    assert out.loc["m3", "verdict"] == "unknown" and math.isnan(out.loc["m3", "residual"])
    assert np.all(np.isfinite(out.loc[["m0", "m1", "m2"], "residual"]))
    with pytest.raises(UserError, match="known for no duel"):
        A.fairness(d, cost="pv")  # the Classic frame has no PV


def test_classic_round_robin_experiment_lists_every_classic_catalog_mech():
    mechs = {e.name for e in catalog.entries() if e.classic is not None}
    exp = _experiment("11_classic_round_robin.toml")
    assert exp["model"] == "classic-duel" and exp["report"] == "classic-round-robin"
    assert set(exp["grid"]["unit_a"]) == mechs and exp["grid"]["unit_b"] == exp["grid"]["unit_a"]
