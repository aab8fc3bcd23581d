"""The explorer in a real browser (issue 24): headless Chromium opens explorer.html from
disk; the page makes no network request and logs no error, the catalog sorts and filters,
a unit draws its curves, a URL hash restores a view, every view draws, and 1,000 rated
units stay responsive. Skips with the reason when Chromium or Playwright is absent."""

from __future__ import annotations

import shutil
from pathlib import Path

from explorer_synth import rating_summary

from sim.explorer import build_explorer


def catalog_units(page) -> list[str]:
    return page.page.eval_on_selector_all("#cat-table tbody tr", "rs => rs.map(r => "
                                          "r.dataset.unit)")


def test_loads_offline_without_errors(page, explorer_page: Path):
    page.open(explorer_page)
    assert page.network == [], page.network
    assert page.requests and all(u.startswith("file://") for u in page.requests)
    assert page.errors == []
    assert page.page.locator("#cat-table tbody tr").count() > 10


def test_catalog_sorts_and_filters(page, explorer_page: Path, doc: dict):
    from test_sources import decode

    cat = decode(doc["sources"]["catalog"]["units"]["table"])
    tons = {u: t for u, t in zip(cat["unit"], cat["tons"], strict=True)}
    page.open(explorer_page)
    page.page.click("#cat-table th[data-key='tons']")  # ascending
    page.page.click("#cat-table th[data-key='tons']")  # descending
    shown = catalog_units(page)
    values = [tons.get(u) for u in shown]
    known = [v for v in values if v is not None]
    assert known == sorted(known, reverse=True) and known[0] == 100
    assert values[: len(known)] == known  # units without a tonnage last
    assert "sort=tons" in page.page.url and "desc=1" in page.page.url
    page.page.fill("#q", "atlas")
    want = sorted((u for u in tons if "atlas" in u.lower()), key=lambda u: -tons[u])
    assert catalog_units(page) == want
    assert page.page.text_content("#cat-count").startswith(f"{len(want)} of ")
    page.page.fill("#q", "")
    page.page.fill("#tmin", "60")
    assert all(tons[u] >= 60 for u in catalog_units(page))
    # hide a column, and it stays hidden in the URL
    page.page.click("details.cols summary")
    page.page.uncheck("input[data-col='era']")
    assert page.page.locator("#cat-table th[data-key='era']").count() == 0
    assert "hide=" in page.page.url
    assert page.errors == []


def test_a_row_opens_the_unit_and_draws_its_curves(page, explorer_page: Path):
    page.open(explorer_page, "view=catalog&q=catapult")
    page.page.click("#cat-table tbody tr[data-unit='Catapult CPLT-C1']")
    page.page.wait_for_selector("#plot-profile canvas")
    assert "view=unit" in page.page.url and "Catapult" in page.page.url
    plots = {p["id"]: p for p in page.api()["plots"]}
    assert plots["plot-profile"]["series"] == 4 and plots["plot-profile"]["points"] == 21
    assert plots["plot-heat"]["points"] > 1 and "plot-shutdown" in plots
    assert page.page.locator("#plot-profile canvas").count() >= 1
    assert page.page.locator(".assume").count() == 1  # the view names its assumptions
    assert page.errors == []


def test_the_url_hash_restores_a_view(page, explorer_page: Path):
    page.open(explorer_page, "view=matchup&unit=Atlas%20AS7-D&vs=Locust%20LCT-1V")
    assert page.page.input_value("#pick-a") == "Atlas AS7-D"
    assert page.page.input_value("#pick-b") == "Locust LCT-1V"
    rows = page.page.locator("#mu-as_duels tbody tr")
    assert rows.count() == 6  # 3 ranges x both seatings
    text = rows.first.inner_text()  # P(win) with its interval, or marked exact
    assert ("[" in text or "exact" in text) and "no CI" not in text
    page.page.wait_for_selector("[id^='plot-destroyed-']")  # Classic per-turn curves
    page.open(explorer_page, "view=heatmap&game=classic_duels&zoom=30")
    assert page.api()["state"] == {"view": "heatmap", "game": "classic_duels", "zoom": "30"}
    assert page.page.locator("#hm").count() == 1
    assert page.errors == []


def test_every_view_draws(page, explorer_page: Path):
    for view in ("catalog", "unit", "matchup", "heatmap", "fairness", "about"):
        page.open(explorer_page, f"view={view}")
        assert page.page.get_attribute("body", "data-view") == view
    page.open(explorer_page, "view=fairness&src=as_duels")
    assert page.page.locator("#fair-plot circle").count() == 6
    assert "Most under-costed" in page.page.inner_text("#fair-lead")
    page.page.hover("#fair-plot circle >> nth=0")
    assert not page.page.locator("#tip").is_hidden()
    page.open(explorer_page, "view=heatmap&game=as_duels")
    box = page.page.locator("#hm").bounding_box()
    page.page.mouse.move(box["x"] + box["width"] - 20, box["y"] + box["height"] - 20)
    assert "P(A wins)" in page.page.inner_text("#tip")
    assert page.network == [] and page.errors == []


def test_a_thousand_rated_units_stay_responsive(page, tmp_path: Path,
                                                synthetic_results: Path):
    """1,000 rated units: the table holds them all, sorts and filters them, and the fairness
    view draws every point; no table update blocks the page for seconds (a freeze check
    with a wide margin, not a benchmark)."""
    root = tmp_path / "results"
    shutil.copytree(synthetic_results / "fire_profiles", root / "fire_profiles")
    rating_summary(root, 1000)
    path = build_explorer(root)
    page.open(path)
    assert page.page.locator("#cat-table tbody tr").count() >= 1000
    page.page.click("#cat-table th[data-key='r_fair']")
    shown = catalog_units(page)
    assert shown[0].startswith("Synth") and len(shown) >= 1000
    assert page.api()["tableMs"] < 5000
    page.page.fill("#q", "synth 09")
    assert len(catalog_units(page)) == 100
    assert page.api()["tableMs"] < 5000
    page.open(path, "view=unit&unit=Synth%200001")  # no duels: says where matrices come from
    assert "--tactics matrix" in page.page.inner_text("#unit-tactics")
    page.open(path, "view=fairness&src=rating")
    assert page.page.locator("#fair-plot circle").count() == 1000
    assert "Most under-priced" in page.page.inner_text("#fair-lead")
    assert page.errors == [] and page.network == []


def test_unit_view_shows_computed_prices_and_tactic_matrices(page, explorer_page: Path,
                                                            doc: dict):
    """Issue 24: the catalog has the computed BV/PV beside the official ones; the unit view
    shows the BV 2 and card-conversion steps and the tactic matrix of its closest matchups
    (a saved matrix; the Classic round-robin's recorded one); a unit without one says so."""
    from test_sources import decode

    prices = decode(doc["sources"]["prices"]["units"]["table"])
    bv = prices["bv_computed"][prices["unit"].index("Atlas AS7-D")]
    page.open(explorer_page)
    heads = page.page.eval_on_selector_all("#cat-table th", "hs => hs.map(h => h.dataset.key)")
    assert heads.index("bv_computed") == heads.index("bv") + 1
    assert heads.index("pv_computed") == heads.index("pv") + 1
    page.open(explorer_page, "view=unit&unit=Atlas%20AS7-D")
    steps = page.page.locator("#unit-bv-steps li")
    assert steps.count() > 10
    assert steps.last.text_content().endswith(f"BV {bv}")  # (the details are closed)
    assert "PV" in page.page.locator("#unit-as-steps li").last.text_content()
    m = page.page.locator("#unit-tactics #tm-0")
    assert m.locator("tbody tr").count() == 2 and m.locator("tr.maximin").count() == 1
    assert "[" in m.locator("tbody td").nth(1).inner_text()  # P(A wins) with its interval
    page.open(explorer_page, "view=unit&unit=Hunchback%20HBK-4G")  # the Classic round-robin's
    m = page.page.locator("#unit-tactics #tm-0")                    # recorded matrix
    assert m.locator("tbody tr").count() == 3 and m.locator("tr.maximin").count() == 1
    assert "classic_round_robin" in page.page.inner_text("#unit-tactics")
    page.open(explorer_page, "view=unit&unit=Griffin%20GRF-2N")
    assert "No tactic matrix" in page.page.inner_text("#unit-tactics")
    assert page.errors == [] and page.network == []


def test_matchup_view_shows_tactics_causes_and_forces(page, explorer_page: Path):
    """Issue 24: the matchup view shows P(win) per tactic (a saved matrix), the causes of
    destruction per scenario with intervals, and a force fight picked from its list."""
    page.open(explorer_page, "view=matchup&unit=Atlas%20AS7-D&vs=Locust%20LCT-1V")
    assert page.page.locator("#mu-tactics-0 tbody tr").count() == 2
    causes = page.page.locator("#mu-causes tbody tr")
    assert causes.count() == 10  # 5 causes x 2 sides
    assert causes.first.locator("td").count() == 3  # the cause and the two ranges
    assert "[" in causes.first.inner_text() or "exact" in causes.first.inner_text()
    page.page.click("#force-list a")
    page.page.wait_for_selector("#mu-forces")
    assert page.page.locator("#mu-forces tbody tr").count() == 2  # two ranges
    assert "," in page.page.input_value("#pick-a")
    assert page.errors == [] and page.network == []
