"""Issue 23's declared scenario set (both sides competent, plus the tactic matrix's maximin),
the whole catalog a player owns (``catalog = "all"``, ``max_units``) and ``btsim run``'s
options for a rating experiment."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from sim.errors import ConfigError
from sim.rating.fit import NONE as F_NONE


def test_a_scenario_tactic_is_each_games_parameters():
    from sim.rating import run as R

    assert R.tactic_params("alphastrike", "competent", "kite") == {
        "tactic_a": "competent", "tactic_b": "kite"}
    assert R.tactic_params("classic", "competent", "stand-and-fire") == {
        "tactic_a": "competent", "tactic_b": "stand-and-fire"}
    with pytest.raises(ConfigError, match="tactic"):
        R.tactic_params("classic", "rush", "kite")
    for game in ("alphastrike", "classic"):
        names = [s["name"] for s in R.default_scenarios(game)]
        assert names == ["short", "medium", "long", "maximin"]
        want = R.CLASSIC_MAXIMIN if game == "classic" else R.tactic_names(game)
        assert R.maximin_set(game, R.default_scenarios(game)[-1]) == want
    with pytest.raises(ConfigError, match="maximin"):
        R.maximin_set("alphastrike", {"name": "m", "maximin": ["competent"]})
    with pytest.raises(ConfigError, match="tactic"):
        R.scenario_params("alphastrike", {"name": "m", "maximin": True, "tactic": "kite"})
    pl = R.plan("classic", ["Hunchback HBK-4G"], ["Locust LCT-1V"],
                [{"name": "short", "range": 3, "tactic": "competent"}], seatings="one")
    assert pl.pairings[0].params["tactic_a"] == "competent"
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


#: a biped .mtf text made a quad (the Classic duel plays quads: issue 19)
QUAD = (("Config:Biped", "Config:Quad"), ("LL armor", "RLL armor"), ("RL armor", "RRL armor"),
        ("LA armor", "FLL armor"), ("RA armor", "FRL armor"), ("Left Leg", "Rear Left Leg"),
        ("Right Leg", "Rear Right Leg"), ("Left Arm", "Front Left Leg"),
        ("Right Arm", "Front Right Leg"), ("Shoulder", "Hip"),
        ("Upper Arm Actuator", "Upper Leg Actuator"),
        ("Lower Arm Actuator", "Lower Leg Actuator"), ("Hand Actuator", "Foot Actuator"))


def _import(tmp_path, monkeypatch, models):
    """Import Hunchback HBK-4G copies into a user catalog under a temporary $BTSIM_HOME:
    ``(model, weapon)`` swaps its medium lasers for ``weapon`` (None: none), ``"quad"``
    makes it a quad."""
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
        if weapon == "quad":
            for a, b in QUAD:
                text = text.replace(a, b)
        elif weapon:
            text = text.replace("Medium Laser", weapon)
        (src / f"{model}.mtf").write_text(text)
    assert main(["units", "import", str(src)]) == 0


def test_catalog_all_rates_imported_units_in_both_games(tmp_path, monkeypatch):
    from sim.rating import run as R
    from sim.rating.experiment import load

    _import(tmp_path, monkeypatch, [("HBK-4X", None), ("HBK-4P", "Plasma Flux Cannon")])
    classic, left = R.catalog_split("classic", "all")
    assert "Hunchback HBK-4X" in classic and "Hunchback HBK-4P" in classic and not left
    assert "Hunchback HBK-4X" not in R.catalog_units("classic")  # builtin
    assert "Hunchback HBK-4X" in R.catalog_units("alphastrike", "all")  # converted card
    res = R.rate(None, game="classic", catalog="all", max_units=3, pool=["Locust LCT-1V"],
                 scenarios=[{"name": "short", "range": 3, "turns": 4}], chunk_size=20,
                 max_trials=20, seatings="one", seed=1)
    assert len(res.meta["units"]) == 3 and "max_units" in res.meta["units_how"]
    assert res.meta["catalog"] == "all" and "Hunchback HBK-4P" not in res.meta["units"]
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


def test_incomplete_imports_are_rated_without_a_verdict_and_refused_units_listed(
        tmp_path, monkeypatch):
    """Issue 23: every imported 'Mech the Classic duel plays is rated; one with something not
    simulated gets a strength and a fair price but no verdict, the reason beside it; a quad
    is rated as any complete unit (issue 19: the Classic duel plays quads)."""
    from sim.rating import run as R
    from sim.rating.text import summary_lines

    _import(tmp_path, monkeypatch, [("HBK-4H", None), ("HBK-4P", "Plasma Flux Cannon"),
                                    ("HBK-4Q", "quad")])
    res = R.rate(None, game="classic", catalog="all", pool=["Locust LCT-1V", "Atlas AS7-D"],
                 scenarios=[{"name": "short", "range": 3, "turns": 4}], chunk_size=20,
                 max_trials=20, seatings="one", seed=1)
    units, left = res.meta["units"], res.meta["left_out"]
    assert {"Hunchback HBK-4H", "Hunchback HBK-4P", "Hunchback HBK-4Q"} <= set(units)
    assert "Hunchback HBK-4Q" not in left
    a = res.frame[res.frame["scenario"] == "all"].set_index("unit")
    inc, ok = a.loc["Hunchback HBK-4P"], a.loc["Hunchback HBK-4H"]
    assert inc["verdict"] == F_NONE and not inc["complete"]
    assert inc["reason"].startswith("not simulated: weapon Plasma Flux Cannon")
    assert np.isfinite(inc["strength"]) and np.isfinite(inc["fair_price"])
    assert np.isnan(inc["p_adjusted"])
    assert ok["complete"] and np.isfinite(ok["price"]) and "not simulated" not in ok["reason"]
    # the correction's family: every rated (priced) unit, judged or not
    priced = a.loc[units, "price"].notna()
    assert res.meta["family"] == int(priced.sum())
    assert res.meta["judged"] == int((priced & a.loc[units, "complete"]).sum()) < len(units)
    text = "\n".join(summary_lines(res.frame, res.meta))
    assert "not rated: Hunchback HBK-4Q" not in text
    assert a.loc["Hunchback HBK-4Q", "complete"]
    assert next(ln for ln in text.splitlines() if ln.startswith("Hunchback HBK-4P")).endswith(
        inc["reason"]) and "no verdict: not simulated" in text
    # max_units: the fully simulated first, then the others at evenly spaced ranks
    names = R.catalog_units("classic", "all")
    full = [n for n in names if not R.unsimulated("classic", n)]
    rest = [n for n in names if n not in full]
    assert len(rest) >= 2 and "Hunchback HBK-4P" in rest
    some = R.cap_units("classic", names, 3)
    assert len(some) == 3 and set(some) <= set(full) and some == R.cap_units("classic", names, 3)
    more = R.cap_units("classic", names, len(full) + 1)
    lightest = min(rest, key=lambda n: (R._weight("classic", n), R._rows("classic", [n])[0][2],
                                        n))
    assert more == [n for n in names if n in {*full, lightest}]
    # Alpha Strike: a design outside the card conversion is listed with its reason
    cards, no_card = R.catalog_split("alphastrike", "all")
    assert "Hunchback HBK-4H" in cards and "no Alpha Strike card" in no_card["Hunchback HBK-4P"]


def test_the_correction_counts_every_rated_unit():
    """Holm over all rated units: a rated unit that cannot get a verdict counts in the family
    (p = 1), a pool unit that is not rated does not."""
    from sim.rating import fit as F

    rng = np.random.default_rng(2)
    price = np.exp(np.linspace(6.0, 7.5, 9))
    theta = 2.0 * (np.log(price) - np.log(price).mean()) + rng.normal(0, 0.05, 9)
    theta[4] += 1.0  # under-priced
    fit = F.BTFit(theta - theta.mean(), np.diag(np.full(9, 0.01)))
    judged = np.ones(9, bool)
    judged[8] = False  # something not simulated
    every = F.judge(fit, price, judged)
    pool = np.ones(9, bool)
    pool[8] = False  # a pool unit, not rated
    fewer = F.judge(fit, price, judged, rated=pool)
    assert (every.family, fewer.family) == (9, 8)
    assert every.p_adjusted[4] < 0.05 and every.verdict[4] == F.UNDER
    assert every.p_adjusted[4] == pytest.approx(fewer.p_adjusted[4] * 9 / 8)
    assert np.isnan(every.p_adjusted[8]) and every.verdict[8] == F.NONE


def test_prices_come_from_a_declared_source(tmp_path, monkeypatch, capsys):
    """Issue 23 price option: a made-up model (no MUL record) gets its computed BV and, being
    complete, can be judged; a file named like a MUL unit (matched by name only) whose
    weapons differ is flagged and priced by its computed BV under the default; the shipped
    catalog keeps its official prices."""
    from sim.cli import main
    from sim.rating import prices as P
    from sim.rating import run as R
    from sim.rating.text import summary_lines
    from sim.units import battle_value
    from sim.units.catalog import get_classic
    from sim.units.mul import mul_by_name

    _import(tmp_path, monkeypatch, [("HBK-4X", None), ("HBK-4P", "Small Laser")])
    made_up, renamed = "Hunchback HBK-4X", "Hunchback HBK-4P"
    real = mul_by_name(renamed)
    assert real is not None and real.bv is not None and mul_by_name(made_up) is None
    bv_x, bv_p = (battle_value(get_classic(u)).bv for u in (made_up, renamed))
    assert abs(bv_p - real.bv) > P.BV_TOLERANCE * real.bv
    kw = dict(game="classic", pool=["Locust LCT-1V", "Atlas AS7-D"],
              scenarios=[{"name": "short", "range": 3, "turns": 4}], chunk_size=20,
              max_trials=20, seatings="one", seed=1)
    res = R.rate([made_up, renamed], **kw)
    a = res.frame[res.frame["scenario"] == "all"].set_index("unit")
    assert a.loc[made_up, "price"] == bv_x and a.loc[renamed, "price"] == bv_p
    assert a.loc[made_up, "price_source"].startswith("computed")
    src = a.loc[renamed, "price_source"]
    assert src.startswith(f"{P.BY_NAME_DIFFERS}{bv_p} vs {real.bv}") and "computed" in src
    assert P.short_source(src) == f"computed: MUL by name, BV {bv_p} vs {real.bv}"
    assert a.loc["Atlas AS7-D", "price_source"].startswith("official: MUL record")
    assert res.meta["price_mode"] == "official-else-computed"
    assert res.meta["judged"] == 2 and a.loc[made_up, "complete"]
    text = "\n".join(summary_lines(res.frame, res.meta))
    assert f"price of {renamed}: {src}" in text and "0 of 2 official" in text
    off = R.rate([made_up, renamed], price="official", **kw)
    o = off.frame[off.frame["scenario"] == "all"].set_index("unit")
    assert np.isnan(o.loc[made_up, "price"]) and o.loc[renamed, "price"] == real.bv
    assert o.loc[renamed, "price_source"].endswith("official kept")
    assert off.meta["judged"] == 1 and "no official BV" in o.loc[made_up, "robustness"]
    # Alpha Strike: the converted card's PV for both (the renamed file is not record 1558)
    pa = P.unit_prices("alphastrike", renamed)
    assert P.choose(pa, "official-else-computed", "PV")[0] == pa.computed != real.pv
    assert P.choose(pa, "official", "PV")[0] == real.pv
    # the shipped catalog: official under the default, the price the duel already gives
    for game in R.GAMES:
        for u in R.catalog_units(game):
            up = P.unit_prices(game, u)
            base, s = P.choose(up, P.DEFAULT_PRICE, R.GAMES[game]["label"])
            assert base == up.played and s.startswith("official: "), (game, u, s)
    with pytest.raises(ConfigError, match="price"):
        R.rate(["Locust LCT-1V"], price="mul", **{**kw, "pool": ["Atlas AS7-D"]})
    from sim.rating.experiment import load

    assert load({"kind": "rating", "name": "r", "price": "computed"}).price == "computed"
    with pytest.raises(ConfigError, match="price"):
        load({"kind": "rating", "name": "r", "price": "cheap"})
    assert main(["rate", "Locust LCT-1V", "--price", "cheap", "--no-save"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--price" in err and "'cheap'" in err
