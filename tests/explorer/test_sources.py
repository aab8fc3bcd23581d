"""The explorer's data layer (issue 24): columnar JSON, the declared sources, the numbers
the page embeds (the report's own), the rating source, and the page's size."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from explorer_synth import rating_summary

from sim.explorer import SOURCES, Inputs, build_data, build_explorer, render
from sim.explorer.columnar import column, dumps, table
from sim.report import load_results


def decode(t: dict) -> dict:
    """The page's ``decode`` in Python: dictionary-encoded columns expanded."""
    return {k: ([v["dict"][c] if c is not None else None for c in v["codes"]]
                if isinstance(v, dict) else v) for k, v in t["cols"].items()}


def test_columnar_encoding_round_trips_and_dictionary_encodes_repeats():
    names = ["Atlas AS7-D", "Locust LCT-1V"] * 10
    col = column(names)
    assert isinstance(col, dict) and col["dict"] == ["Atlas AS7-D", "Locust LCT-1V"]
    t = table({"unit": names, "p": [0.123456789, float("nan")] * 10, "ok": [True, False] * 10})
    back = decode(t)
    assert back["unit"] == names and t["n"] == 20
    assert back["p"][:2] == [0.12346, None] and back["ok"][:2] == [1, 0]
    assert "</" not in dumps({"x": "</script><script>"})
    with pytest.raises(ValueError, match="lengths"):
        table({"a": [1, 2], "b": [1]})


def test_every_declared_source_builds_from_the_suite(doc: dict):
    # every source but the rating summary has results in the synthetic suite
    assert doc["order"] == [s.name for s in SOURCES if s.name != "rating"]
    cat = decode(doc["sources"]["catalog"]["units"]["table"])
    assert "Atlas AS7-D" in cat["unit"] and len(set(cat["unit"])) == len(cat["unit"])
    atlas = cat["unit"].index("Atlas AS7-D")
    assert cat["tons"][atlas] == 100 and cat["pv"][atlas] == 52 and cat["bv"][atlas] == 1897
    # every view's block names its assumptions from the metadata
    for name in doc["order"][1:]:
        assert doc["sources"][name]["assumptions"], name


def test_duel_numbers_are_the_reports(synthetic_results: Path, doc: dict):
    """P(win) and its interval per duel, and the fair PV with its interval, equal the
    numbers the report section computes (one computation, sim.report.fits)."""
    from sim.alphastrike.duel import analysis as DA
    from sim.report.sections import duel_round_robin
    from sim.results import read

    N_BOOT = duel_round_robin.N_BOOT  # noqa: N806 (the tests' small bootstrap)
    block = doc["sources"]["as_duels"]
    duels = decode(block["tables"]["duels"])
    frame, meta = read(synthetic_results / "duel_round_robin")
    d = DA.duels(frame)
    assert len(duels["a"]) == len(d)
    mc = frame.drop(columns=[c for c in frame.columns if c.endswith("_exact")])
    for k in range(0, len(d), 7):
        a, b, r = duels["a"][k], duels["b"][k], duels["range"][k]
        row = frame[(frame["a"] == f"{a}@4") & (frame["b"] == f"{b}@4")
                    & (frame["range"] == r)].iloc[0]
        # the exact value where the model gave one (then no interval), else the Monte
        # Carlo mean with its interval
        assert duels["p_win_a"][k] == pytest.approx(row["p_win_a_exact"], rel=1e-4)
        assert duels["p_win_a_lo"][k] is None
        assert duels["p_win_a_hi"][k] is None
    assert "p_win_a_exact" not in mc.columns
    rat = DA.ratings(d, n_boot=N_BOOT, seed=int(meta["seed"]))
    out = DA.cost_outliers(rat, DA.fairness(d, n_boot=N_BOOT, seed=int(meta["seed"])))
    pts = decode(block["fairness"]["points"])
    for u, fair, lo in zip(out["unit"], out["fair_pv"], out["fair_pv_low"], strict=True):
        i = pts["unit"].index(u)
        assert pts["fair"][i] == pytest.approx(fair, rel=1e-4)
        assert pts["fair_lo"][i] == pytest.approx(lo, rel=1e-4)
    assert set(pts["verdict"]) <= {"under-costed", "fair", "over-costed", "unknown"}


def test_monte_carlo_duels_carry_their_interval(tmp_path: Path, synthetic_results: Path):
    """A Monte Carlo-only round-robin (the default suite's): P(win) is the mean with its
    95% interval."""
    from sim.explorer.sources import _duel_table
    from sim.report.types import Result
    from sim.results import read

    frame, meta = read(synthetic_results / "duel_round_robin")
    mc = frame.drop(columns=[c for c in frame.columns if c.endswith("_exact")])
    t = decode(_duel_table(Result("rr", tmp_path, mc, meta))[0])
    row = mc[(mc["a"] == "Atlas AS7-D@4") & (mc["b"] == "Locust LCT-1V@4")
             & (mc["range"] == "short")].iloc[0]
    k = next(i for i in range(len(t["a"])) if t["a"][i] == "Atlas AS7-D"
             and t["b"][i] == "Locust LCT-1V" and t["range"][i] == "short")
    assert t["p_win_a"][k] == pytest.approx(row["p_win_a"], rel=1e-4)
    assert t["p_win_a_lo"][k] == pytest.approx(row["p_win_a_ci_low"], rel=1e-4)
    assert t["p_win_a_hi"][k] == pytest.approx(row["p_win_a_ci_high"], rel=1e-4)


def test_rating_summary_is_a_source_and_joins_the_catalog(tmp_path: Path,
                                                         synthetic_results: Path):
    root = tmp_path / "results"
    shutil.copytree(synthetic_results / "fire_profiles", root / "fire_profiles")
    rating_summary(root, 12)
    doc = build_data(Inputs(root, load_results(root)))
    assert "rating" in doc["order"]
    r = doc["sources"]["rating"]
    assert r["file"] == "rating_synth/ratings.csv"
    units = decode(r["units"]["table"])
    assert units["unit"][0] == "Synth 0000" and len(units["unit"]) == 12
    assert {s["key"] for s in r["units"]["specs"]} >= {"r_fair", "r_verdict", "r_robust"}


def test_page_is_self_contained_and_small(explorer_page: Path):
    html = explorer_page.read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=['\"]?(https?:)?//", html)
    assert "<link" not in html and "@import" not in html and "url(http" not in html
    assert "default-src 'none'" in html  # the page forbids itself every fetch
    data = re.search(r"<script type='application/json' id='btsim-data'>(.*?)</script>",
                     html, re.S)
    assert data is not None
    doc = json.loads(data.group(1))
    assert "as_duels" in doc["sources"] and doc["uplot"]
    assert html.count("id='btsim-data'") == 1  # the results go in once
    assert explorer_page.stat().st_size < 5e6


def test_a_thousand_rated_units_stay_small(tmp_path: Path, synthetic_results: Path):
    """The page grows with the catalog, not with its square: 1,000 rated units (catalog
    rows and fairness points) stay far under 5 MB."""
    root = tmp_path / "results"
    shutil.copytree(synthetic_results / "fire_profiles", root / "fire_profiles")
    rating_summary(root, 1000)
    path = build_explorer(root)
    small = render(build_data(Inputs(root, load_results(root)), [
        s for s in SOURCES if s.name != "rating"]))
    per_unit = (path.stat().st_size - len(small.encode())) / 1000
    assert 0 < per_unit < 400  # bytes per rated unit
    assert path.stat().st_size < 2e6


def test_computed_prices_tactics_and_forces_blocks(doc: dict):
    """The computed BV/PV are sim.units' own (with their steps); a saved tactic matrix and a
    force fight become blocks with P(win) and its interval."""
    from sim.units import alpha_strike_card, battle_value
    from sim.units import catalog as C

    pr = doc["sources"]["prices"]
    t = decode(pr["units"]["table"])
    k = t["unit"].index("Wolverine WVR-6R")
    mech = C.get_classic("Wolverine WVR-6R")
    assert t["bv_computed"][k] == battle_value(mech).bv
    assert t["pv_computed"][k] == alpha_strike_card(mech).fields["pv"]
    assert pr["steps"]["Wolverine WVR-6R"]["bv"] == battle_value(mech).lines()
    from explorer_synth import CLASSIC_MATRIX_PAIR

    tab = decode(doc["sources"]["tactics"]["tables"]["cells"])
    saved = [i for i, s in enumerate(tab["src"]) if s.endswith(".json")]
    cells = {k: [v[i] for i in saved] for k, v in tab.items()}
    assert len(cells["a"]) == 4 and set(cells["tactic_a"]) == {"competent", "brawler"}
    i = cells["tactic_b"].index("brawler")
    assert cells["p_win_a"][i] == pytest.approx(0.62)
    assert cells["p_win_a_lo"][i] < 0.62 < cells["p_win_a_hi"][i]
    # the Classic round-robin's recorded matrix (its most surprising pairing): 3 x 3 cells
    rr = [i for i, s in enumerate(tab["src"]) if s == "classic_round_robin"]
    assert len(rr) == 9 and {(tab["a"][i], tab["b"][i], tab["range"][i]) for i in rr} == {
        (*CLASSIC_MATRIX_PAIR, "3")}
    k = next(i for i in rr if (tab["tactic_a"][i], tab["tactic_b"][i]) == ("kite", "sniper"))
    assert tab["p_win_a"][k] == pytest.approx(0.4)
    assert tab["p_win_a_lo"][k] < 0.4 < tab["p_win_a_hi"][k]
    assert any("tactic_matrices" in w for w in doc["sources"]["tactics"]["where"])
    fights = decode(doc["sources"]["forces"]["tables"]["fights"])
    assert set(fights["range"]) == {"short", "long"} and all("," in a for a in fights["a"])
    cat = decode(doc["sources"]["catalog"]["units"]["table"])
    assert not any("," in u for u in cat["unit"])  # a force is not a catalog unit
    causes = decode(doc["sources"]["classic_duels"]["tables"]["causes"])
    assert len(causes["a"]) == 4 * 4 * 2  # one row a duel, not one a turn
