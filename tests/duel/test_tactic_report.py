"""The round-robin's tactic matrices (issue 22): the experiment picks the most and least
surprising pairings, plays their tactic matrices once and records them; the report section
shows them without recomputing."""

from __future__ import annotations

from pathlib import Path

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
                                      ({"depth": 2}, "depth")])
def test_bad_tactic_matrices_key(tm: dict, field: str) -> None:
    from sim import experiment

    with pytest.raises(ConfigError, match=field):
        experiment.load(_exp(tm))
