"""`btsim sensitivity` (issue 12): one-step effects with SE, exact when available, tornado."""

import json

import pytest

from sim.cli import main as cli
from sim.experiment import run
from sim.sensitivity import sensitivity

GRID = {"tons": [20, 50, 80], "piloting": [3, 4, 5], "target_hexes": [0, 1]}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("sens")
    base = {"model": "punch-demo", "trials": 8000, "seed": 3, "grid": GRID}
    run(base | {"name": "mc", "exact": False}, out=out, chunk_size=1000, progress=False)
    run(base | {"name": "ex"}, out=out, chunk_size=1000, progress=False)
    run(base | {"name": "pr", "exact": False, "paired": ["piloting"]}, out=out,
        chunk_size=1000, progress=False)
    return out


def _row(table, metric, factor):
    return table[(table["metric"] == metric) & (table["factor"] == factor)].iloc[0]


def test_exact_effects_are_the_exact_one_step_change(results):
    t = sensitivity(results / "ex")
    r = _row(t, "p_hit", "piloting")
    assert r["source"] == "exact" and r["se"] == 0
    assert r["effect"] == pytest.approx(-(5 / 36) / 2)  # TN 5 -> 7 loses 2/36 + 3/36 in 2 steps
    r = _row(t, "p_hit", "tons")
    assert r["effect"] == 0 and not r["significant"]  # tonnage never changes the to-hit roll


def test_monte_carlo_effects_within_4_se_of_exact(results):
    mc, ex = sensitivity(results / "mc"), sensitivity(results / "ex")
    assert set(mc["source"]) == {"monte-carlo"}
    for _, r in mc.iterrows():
        e = _row(ex, r["metric"], r["factor"])["effect"]
        assert abs(r["effect"] - e) < 4 * r["se"] + 1e-12, (r["metric"], r["factor"])
        assert r["significant"] == (abs(r["effect"]) >= 2 * r["se"])
    assert not _row(mc, "p_hit", "target_hexes")["significant"]  # 0 or 1 hex: same TMM
    assert _row(mc, "expected_damage", "tons")["significant"]


def test_paired_axis_uses_paired_se(results):
    t = sensitivity(results / "pr", ["expected_damage"])
    r = _row(t, "expected_damage", "piloting")
    assert r["source"] == "paired"
    assert _row(t, "expected_damage", "tons")["source"] == "monte-carlo"


def test_cli_table_json_and_tornado(results, capsys):
    assert cli(["sensitivity", str(results / "mc"), "--metric", "p_hit"]) == 0
    out = capsys.readouterr().out
    assert "not significant" in out and "piloting" in out
    for ext in ("png", "svg"):
        assert (results / "mc" / f"sensitivity.{ext}").stat().st_size > 1000
    assert cli(["sensitivity", str(results / "ex"), "--json", "--no-plot"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {e["source"] for e in doc["effects"]} == {"exact"} and doc["plots"] == []


def test_cli_errors(results, tmp_path, capsys):
    assert cli(["sensitivity", str(tmp_path)]) == 2
    assert cli(["sensitivity", str(results / "mc"), "--metric", "damage_dist"]) == 2
    run({"name": "nogrid", "model": "punch-demo", "trials": 100}, out=tmp_path,
        progress=False)
    assert cli(["sensitivity", str(tmp_path / "nogrid")]) == 2
    assert capsys.readouterr().err.count("btsim: error:") == 3
