"""The round-robins' tactic matrices (issue 22), Alpha Strike and Classic
(sim/tactic_report.py): the experiment picks the most and least surprising pairings, plays
their tactic matrices once and records them; the report section shows them without
recomputing."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sim.errors import ConfigError

CARDS = ["Locust LCT-1V", "Commando COM-1B", "Atlas AS7-D"]


def _exp(tm: dict) -> dict:
    return {"name": "rr_tactics", "model": "duel", "report": "duel-round-robin",
            "trials": 300, "seed": 3, "exact": False,
            "metrics": ["p_win_a", "p_win_b", "p_draw", "p_timeout", "expected_turns"],
            "fixed": {"turns": 8}, "grid": {"a": CARDS, "b": CARDS, "range": ["short"]},
            "tactic_matrices": tm}


def test_surprise_orders_by_the_gap_to_the_pv_curve() -> None:
    import numpy as np
    import pandas as pd

    from sim.tactic_report import surprise

    rows = []
    for a, pa, sa in (("X", 20, 0.9), ("Y", 40, 0.2), ("Z", 30, 0.5)):
        for b, pb in (("X", 20), ("Y", 40), ("Z", 30)):
            if a != b:
                rows.append({"a": a, "b": b, "range": "short", "p_win_a": sa, "p_win_b": 1 - sa,
                             "p_draw": 0.0, "p_timeout": 0.0, "expected_turns": 3.0,
                             "pv_a": pa, "pv_b": pb, "trials": 100})
    s = surprise(pd.DataFrame(rows))
    assert (np.diff(s["surprise"].to_numpy()) <= 1e-12).all()
    assert ((s["score"] - s["expected"]).abs() - s["surprise"]).abs().max() < 1e-12


def _constructed(cost: str, sides: tuple[str, str]) -> pd.DataFrame:
    """Five units whose score follows the cost ratio (slope 1) except where planted: X beats
    Y far more often than its price says, W loses to V far more; two ranges."""
    import math

    price = {"V": 300, "W": 500, "X": 400, "Y": 800, "Z": 600}
    plant = {("X", "Y", "3"): 0.9, ("W", "V", "3"): 0.2, ("X", "Y", "9"): 0.7}
    rows = []
    for a, b, r in ((a, b, r) for a in price for b in price for r in ("3", "9")):
        if a == b:
            continue
        fair = 1 / (1 + math.exp(-math.log(price[a] / price[b])))
        sa = plant.get((a, b, r), fair)
        rows.append({sides[0]: a, sides[1]: b, "range": r, "p_win_a": sa, "p_win_b": 1 - sa,
                     "p_draw": 0.0, "p_timeout": 0.0, "expected_turns": 4.0,
                     f"{cost}_a": price[a], f"{cost}_b": price[b], "trials": 1000})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("model", ["duel", "classic-duel"])
def test_picks_most_and_least_surprising_on_constructed_data(model: str) -> None:
    """Both games (PV for Alpha Strike, BV for Classic, their side columns): the planted
    pairings come first, most surprising first; the least surprising are those the curve
    fits best, least first; ``ranges`` keeps only the pairings at those ranges."""
    from sim.tactic_report import GAMES, picks, surprise

    g = GAMES[model]
    f = _constructed(g.cost, g.sides)
    got = picks(f, 2, g.cost)
    assert [k for k, _ in got] == ["most", "most", "least", "least"]
    assert [(r["a"], r["b"], r["range"]) for _, r in got[:2]] == [("X", "Y", "3"),
                                                                  ("W", "V", "3")]
    s = surprise(f, g.cost)
    least = s.sort_values("surprise", kind="stable")["surprise"].to_numpy()[:2]
    assert [r["surprise"] for _, r in got[2:]] == pytest.approx(least)
    assert got[2][1]["surprise"] <= got[3][1]["surprise"] < got[1][1]["surprise"]
    at9 = picks(f, 1, g.cost, ranges=["9"])
    assert [(r["a"], r["b"], r["range"]) for _, r in at9][0] == ("X", "Y", "9")
    assert all(r["range"] == "9" for _, r in at9)
    assert len(picks(f.head(3), 3, g.cost)) == 2  # fewer duels: one each way
    other = "pv" if g.cost == "bv" else "bv"   # the other game's cost is absent: no picks
    assert surprise(f, other).empty and picks(f, 3, other) == []


def test_scenario_of_finds_the_pairings_own_scenario() -> None:
    """The matrix plays from the round-robin's scenario of that duel (its physical attacks,
    turns...), matched on the units, range and the duel's key columns."""

    from sim.tactic_report import scenario_of

    scns = [{"turns": 15, "range": r, "physical_a": p, "unit_a": a, "unit_b": b}
            for r, p in ((3, "none"), (1, "best")) for a in "XY" for b in "XY"]
    row = pd.Series({"a": "X", "b": "Y", "range": "1", "physical_a": "best", "turns": "15"})
    assert scenario_of(row, scns, ("unit_a", "unit_b")) == scns[5]
    with pytest.raises(ValueError, match="0 scenarios"):
        scenario_of(pd.Series({**row, "range": "9"}), scns, ("unit_a", "unit_b"))


CLASSIC = ["Locust LCT-1V", "Commando COM-2D", "Hunchback HBK-4G"]


def test_classic_round_robin_records_and_shows_matrices(tmp_path: Path) -> None:
    """The Classic round-robin's section renders the Classic tactic matrices its experiment
    recorded (three 'Mechs, two cases, two tactics, few duels): P(A wins), P(B wins) and
    E[turns] with intervals in every cell, maximin and the game's value in the note, the
    BV curve named; the matrices are those of sim.classic.duel.api.tactic_matrix (the
    CLI's), same seed, same bits."""
    from sim import experiment
    from sim.classic.duel.api import tactic_matrix
    from sim.report.build import build_section, load_results

    tm = {"pairings": 1, "trials": 100, "tactics": ["competent", "stand-and-fire"],
          "ranges": [3]}
    exp = experiment.load({
        "name": "crr", "model": "classic-duel", "report": "classic-round-robin",
        "trials": 100, "seed": 2, "exact": False, "fixed": {"turns": 6},
        "grid": {"unit_a": CLASSIC, "unit_b": CLASSIC},
        "cases": [{"range": 3, "physical_a": "none", "physical_b": "none"},
                  {"range": 1, "physical_a": "best", "physical_b": "best"}],
        "tactic_matrices": tm})
    experiment.run(exp, out=tmp_path, progress=False)
    (res,) = load_results(tmp_path)
    got = res.meta["tactic_matrices"]
    assert [e["kind"] for e in got] == ["most", "least"]
    assert all(e["range"] == "3" and e["cost"] == "bv" for e in got)
    assert got[0]["surprise"] >= got[1]["surprise"]
    e = got[0]
    again = tactic_matrix(e["a"], e["b"], tm["tactics"], trials=100, seed=2, range=3,
                          turns=6, physical_a="none", physical_b="none").to_dict()
    assert again["cells"] == e["matrix"]["cells"]
    sec = build_section(res)
    t = sec.table("tactics_1")
    assert list(t.values.index) == ["competent", "stand-and-fire"]
    assert "at 3 hexes" in t.title and "BV fairness curve" in t.note
    assert "Maximin: A plays" in t.note and "zero-sum game" in t.note
    cell = t.display().iloc[0, 0]
    assert cell.startswith("A ") and ", B " in cell and "turns; score" in cell
    assert cell.count("–") == 3  # three intervals
    assert sec.table("tactics_2").title.startswith("Tactic matrix of a least surprising")


def test_experiment_records_matrices_and_section_reads_them(tmp_path: Path) -> None:
    from sim import experiment
    from sim.report.build import build_section, load_results

    tm = {"pairings": 1, "trials": 200, "tactics": ["competent", "stand-and-fire"]}
    experiment.run(experiment.load(_exp(tm)), out=tmp_path, progress=False)
    (res,) = load_results(tmp_path)
    got = res.meta["tactic_matrices"]
    assert [e["kind"] for e in got] == ["most", "least"]
    assert got[0]["surprise"] >= got[1]["surprise"]
    for e in got:
        assert e["matrix"]["rows"] == ["competent", "stand-and-fire"]
        assert 0.0 <= e["matrix"]["game"]["value"] <= 1.0
    sec = build_section(res)
    t = sec.table("tactics_1")
    assert list(t.values.index) == ["competent", "stand-and-fire"]
    assert "Maximin" in t.note


@pytest.mark.parametrize("tm,field", [({"pairings": 0}, "pairings"),
                                      ({"trials": 5}, "trials"),
                                      ({"tactics": ["lurker"]}, "tactics"),
                                      ({"tactics": ["kite", "kite"]}, "tactics"),
                                      ({"ranges": ["extreme"]}, "ranges"),
                                      ({"ranges": []}, "ranges"),
                                      ({"depth": 2}, "depth")])
def test_bad_tactic_matrices_key(tm: dict, field: str) -> None:
    from sim import experiment

    with pytest.raises(ConfigError, match=field):
        experiment.load(_exp(tm))


def test_tactic_matrices_keys_per_game() -> None:
    """Classic takes its own tactics and ranges, with its default trials; a model without
    a matrix runner is refused naming the key."""
    from sim import experiment
    from sim.tactic_report import GAMES

    d = {"name": "c", "model": "classic-duel", "trials": 100,
         "grid": {"unit_a": CLASSIC[:2], "unit_b": CLASSIC[:2], "range": [3, 9]},
         "tactic_matrices": {"ranges": [9], "tactics": "sniper,kite"}}
    got = experiment.load(d).tactic_matrices
    assert got == {"pairings": 3, "trials": GAMES["classic-duel"].trials,
                   "tactics": ["sniper", "kite"], "ranges": ["9"]}
    for bad, field in (({"ranges": [6]}, "ranges"), ({"tactics": ["lurker"]}, "tactics")):
        with pytest.raises(ConfigError, match=field):
            experiment.load({**d, "tactic_matrices": bad})
    with pytest.raises(ConfigError, match="tactic_matrices"):
        experiment.load({"name": "h", "model": "heat", "tactic_matrices": {}})
