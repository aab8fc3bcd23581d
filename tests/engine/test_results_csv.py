"""summary.csv stays small: long repeated texts once in metadata.json, and one row per
scenario when every metric of the run has one value per scenario (a round-robin of win
probabilities over per-turn rows). summary.parquet, which the readers use, is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pandas.testing as pdt

import sim
from sim import results

UNITS = ["Locust LCT-1V", "Commando COM-1B"]


def _run(tmp_path: Path, metrics: list[str]) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    exp = {"name": "rr", "model": "duel", "trials": 64, "seed": 2, "exact": False,
           "metrics": metrics, "fixed": {"turns": 4},
           "grid": {"a": UNITS, "b": UNITS, "range": ["short", "long"]}}
    res = sim.run(exp, out=tmp_path, progress="never")
    folder = tmp_path / "rr"
    frame, meta = results.read(folder)
    pdt.assert_frame_equal(frame, res.frame.reset_index(drop=True), check_exact=True)
    return frame, pd.read_csv(folder / "summary.csv"), meta


def test_scalar_metrics_give_one_csv_row_per_scenario(tmp_path: Path) -> None:
    frame, csv, meta = _run(tmp_path, ["p_win_a", "expected_turns"])
    assert len(frame) == 8 * 4 and len(csv) == 8      # 8 scenarios of 4 turn rows
    assert "turn" in frame.columns and "turn" not in csv.columns
    assert meta["csv"]["dropped_columns"] == ["turn"]
    first = frame[frame["turn"] == 1].reset_index(drop=True)
    for col in ("a", "b", "range", "p_win_a", "p_win_a_se", "expected_turns_ci_high"):
        assert list(csv[col]) == list(first[col]), col
    # notes: an id into the texts kept once in metadata.json
    assert "notes" not in csv.columns
    texts = meta["csv"]["texts"]["notes"]
    assert [texts[i] for i in csv["notes_id"]] == list(first["notes"])
    assert len(texts) == first["notes"].nunique()


def test_a_per_row_metric_keeps_every_row(tmp_path: Path) -> None:
    frame, csv, meta = _run(tmp_path, ["p_win_a", "p_end_by"])
    assert len(csv) == len(frame) == 32 and list(csv["turn"]) == list(frame["turn"])
    assert "dropped_columns" not in meta["csv"]
    assert list(csv.columns) == [c if c != "notes" else "notes_id" for c in frame.columns]


def test_csv_view_texts_and_lists() -> None:
    frame = pd.DataFrame({"x": [1, 2, 3], "notes": ["a", None, "a"],
                          "rule_options": [{"k": 1}, {"k": 1}, {"k": 2}],
                          "hist": [[0.5, 0.5], [1.0], [0.0, 1.0]]})
    out, info = results.csv_view(frame)
    assert list(out.columns) == ["x", "notes_id", "rule_options_id", "hist"]
    assert info["texts"]["notes"] == ["a"]
    assert out["notes_id"].isna().tolist() == [False, True, False]
    assert [json.loads(info["texts"]["rule_options"][i]) for i in out["rule_options_id"]] == \
        [{"k": 1}, {"k": 1}, {"k": 2}]
    assert json.loads(out["hist"][0]) == [0.5, 0.5]


def test_a_row_column_that_is_also_a_parameter_stays(tmp_path: Path) -> None:
    """The Classic duel's rows carry ``turn`` and ``range``; ``range`` is also the grid's
    axis, one value per scenario: the folded CSV keeps it, so its rows stay distinct."""
    exp = {"name": "cd", "model": "classic-duel", "trials": 32, "seed": 3, "exact": False,
           "metrics": ["p_win_a", "expected_turns"], "fixed": {"turns": 2},
           "grid": {"unit_a": ["Locust LCT-1V"], "unit_b": ["Locust LCT-1V"],
                    "range": [3, 9]}}
    sim.run(exp, out=tmp_path, progress="never")
    folder = tmp_path / "cd"
    frame, meta = results.read(folder)
    csv = pd.read_csv(folder / "summary.csv")
    assert len(csv) == 2 and meta["csv"]["dropped_columns"] == ["turn"]
    assert sorted(csv["range"].astype(int)) == [3, 9]
    first = frame[frame["turn"] == 1]
    for r in (3, 9):
        want = first[first["range"].astype(int) == r]["p_win_a"].iloc[0]
        assert csv[csv["range"].astype(int) == r]["p_win_a"].iloc[0] == want
