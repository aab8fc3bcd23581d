"""Issue 23's declared scenario set (both sides competent, plus the tactic matrix's maximin),
the whole catalog a player owns (``catalog = "all"``, ``max_units``) and ``btsim run``'s
options for a rating experiment."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from sim.errors import ConfigError


def test_a_scenario_tactic_is_each_games_parameters():
    from sim.rating import run as R

    assert R.tactic_params("alphastrike", "competent", "kite") == {
        "tactic_a": "competent", "tactic_b": "kite"}
    assert R.tactic_params("classic", "competent", "stand-and-fire") == {
        "policy_a": "max-expected", "policy_b": "all"}
    with pytest.raises(ConfigError, match="tactic"):
        R.tactic_params("classic", "kite", "kite")
    for game in ("alphastrike", "classic"):
        names = [s["name"] for s in R.default_scenarios(game)]
        assert names == ["short", "medium", "long", "maximin"]
        assert R.maximin_set(game, R.default_scenarios(game)[-1]) == R.tactic_names(game)
    with pytest.raises(ConfigError, match="maximin"):
        R.maximin_set("alphastrike", {"name": "m", "maximin": ["competent"]})
    with pytest.raises(ConfigError, match="tactic"):
        R.scenario_params("alphastrike", {"name": "m", "maximin": True, "tactic": "kite"})
    pl = R.plan("classic", ["Hunchback HBK-4G"], ["Locust LCT-1V"],
                [{"name": "short", "range": 3, "tactic": "competent"}], seatings="one")
    assert pl.pairings[0].params["policy_a"] == "max-expected"
    crossed = R.expand_scenarios(R.default_scenarios("classic"), ["stand-and-fire"])
    assert [s["name"] for s in crossed][-1] == "maximin" and len(crossed) == 4


def test_the_maximin_scenario_plays_each_sides_maximin_of_its_screen():
    from sim import tactics as G
    from sim.rating.run import rate

    kw = dict(game="alphastrike", pool=["Commando COM-1B"], chunk_size=40, max_trials=40,
              seed=5, scenarios=[{"name": "maximin", "range": "medium",
                                  "maximin": ["competent", "brawler"], "screen_trials": 40}])
    a = rate(["Locust LCT-1V"], backend="sequential", **kw)
    assert a.meta["screen_duels"] == 2 * 4 * 40 and len(a.meta["maximin"]) == 2
    for m in a.meta["maximin"]:
        i, _, j, _ = G.maximin(np.array(m["score_a"]))
        assert (m["tactic_a"], m["tactic_b"]) == (m["tactics"][i], m["tactics"][j])
        row = a.pairings[(a.pairings["a"] == m["a"]) & (a.pairings["b"] == m["b"])].iloc[0]
        assert (row["tactic_a"], row["tactic_b"]) == (m["tactic_a"], m["tactic_b"])
    b = rate(["Locust LCT-1V"], backend="threading", n_jobs=2, **kw)
    assert a.frame.equals(b.frame) and a.meta["maximin"] == b.meta["maximin"]


def _import(tmp_path, monkeypatch, models):
    from sim.cli import main
    from sim.units.catalog import get_classic

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "units"))
    try:
        from units_helpers import mtf_text  # the tests' own .mtf writer (no MegaMek text)
    finally:
        sys.path.pop(0)

    monkeypatch.setenv("BTSIM_HOME", str(tmp_path / "home"))
    src = tmp_path / "imp"
    src.mkdir(exist_ok=True)
    base = mtf_text(get_classic("Hunchback HBK-4G"))
    for model, weapon in models:
        text = base.replace("model:HBK-4G", f"model:{model}").replace("mul id:1552\n", "")
        (src / f"{model}.mtf").write_text(text.replace("Medium Laser", weapon) if weapon
                                          else text)
    assert main(["units", "import", str(src)]) == 0


def test_catalog_all_rates_imported_units_in_both_games(tmp_path, monkeypatch):
    from sim.rating import run as R
    from sim.rating.experiment import load

    _import(tmp_path, monkeypatch, [("HBK-4X", None), ("HBK-4P", "Plasma Flux Cannon")])
    classic, left = R.catalog_split("classic", "all")
    assert "Hunchback HBK-4X" in classic and "Hunchback HBK-4P" in left
    assert "Hunchback HBK-4X" not in R.catalog_units("classic")  # builtin
    assert "Hunchback HBK-4X" in R.catalog_units("alphastrike", "all")  # converted card
    res = R.rate(None, game="classic", catalog="all", max_units=3, pool=["Locust LCT-1V"],
                 scenarios=[{"name": "short", "range": 3, "turns": 4}], chunk_size=20,
                 max_trials=20, seatings="one", seed=1)
    assert len(res.meta["units"]) == 3 and "max_units" in res.meta["units_how"]
    assert res.meta["catalog"] == "all" and "Hunchback HBK-4P" in res.meta["left_out"]
    exp = load({"kind": "rating", "name": "r", "game": "classic", "catalog": "all"})
    before = exp.to_dict()["user_catalog_digest"]
    _import(tmp_path, monkeypatch, [("HBK-4Y", None)])
    assert exp.to_dict()["user_catalog_digest"] != before  # a new import reruns it
    with pytest.raises(ConfigError, match="catalog"):
        load({"kind": "rating", "name": "r", "catalog": "mine"})
    with pytest.raises(ConfigError, match="catalog"):
        load({"kind": "rating", "name": "r", "catalog": "all", "units": ["Atlas AS7-D"]})


def test_btsim_run_trials_caps_a_rating_and_exact_is_refused(tmp_path, capsys):
    from sim.cli import main
    from sim.results import read

    exp = tmp_path / "r.toml"
    exp.write_text('kind = "rating"\nname = "r"\nunits = ["Locust LCT-1V"]\n'
                   'pool = ["Commando COM-1B"]\nchunk_size = 200\nmax_trials = 3200\n'
                   '[[scenario]]\nname = "short"\nrange = "short"\n')
    assert main(["run", str(exp), "--exact", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "exact" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()
    assert main(["run", str(exp), "--trials", "30", "--out", str(tmp_path / "o"),
                 "--quiet"]) == 0
    _, meta = read(tmp_path / "o" / "r")
    assert meta["max_trials"] == 30 and meta["chunk_size"] == 30
    assert all(n <= 30 for n in meta["pairings_table"]["n"])
    assert main(["run", str(exp), "--trials", "100000", "--out", str(tmp_path / "p"),
                 "--quiet"]) == 0  # never above the file's cap
    assert read(tmp_path / "p" / "r")[1]["max_trials"] == 3200


def test_cli_rate_catalog_flags():
    from sim.cli import main

    assert main(["rate", "Atlas AS7-D", "--catalog", "all"]) == 2
    assert main(["rate", "--all", "--catalog", "mine"]) == 2
