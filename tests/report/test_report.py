"""The balance report (issue 6, "Figures and report" and "Proof"): every section and figure is
present, each figure sits beside its data files, the HTML is self-contained, and every number
quoted in the lead equals the table value it cites and is computed from the data."""

from __future__ import annotations

import re
import shutil
from html import escape as html_escape
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image
from report_synth import EXPERIMENTS, make_results

from sim import report as R
from sim.cli import main
from sim.report import rendering
from sim.results import read, write

SECTIONS = list(EXPERIMENTS)
NUMBER = re.compile(r"\d+(?:\.\d+)?%|\d+\.\d+")


def test_every_experiment_has_a_section_with_figures_and_tables(built_report):
    """Issue 6: one section per experiment, each with its figures and a compact table."""
    names = [s.result.name for s in built_report.sections]
    assert names == SECTIONS  # report order follows the suite, not the folder names
    html = built_report.html.read_text(encoding="utf-8")
    md = built_report.markdown.read_text(encoding="utf-8")
    for sec in built_report.sections:
        assert sec.figures, sec.result.name
        assert sec.tables, sec.result.name
        assert f"data-experiment='{sec.result.name}'" in html
        assert f"## {sec.result.title}" in md
        for fig in sec.figures:
            assert f"data-figure='{fig.key}'" in html
            assert f"]({sec.result.name}/{fig.png.name})" in md
        for t in sec.tables:
            assert t.title in html and f"**{t.title}**" in md


def test_each_figure_is_one_compressed_png_150dpi_beside_its_data(built_report):
    """Issue 6 / 24: every figure saved once, as a palette PNG (150 dpi), beside
    summary.parquet/csv; no second format drawn."""
    assert built_report.figures
    for sec in built_report.sections:
        folder = sec.result.folder
        for data in ("summary.parquet", "summary.csv", "metadata.json"):
            assert (folder / data).is_file()
        assert not list(folder.glob("*.svg"))
        for fig in sec.figures:
            assert fig.png.parent == folder
            with Image.open(fig.png) as im:
                dpi = im.info.get("dpi")
                assert dpi is not None and abs(dpi[0] - 150) < 1, dpi
                assert im.size[0] > 600 and im.size[1] > 300
                assert im.mode == "P"  # 256-colour palette: the compressed file


def test_report_links_the_explorer(built_report):
    """Issue 24: build_report writes explorer.html beside report.html, and both reports
    link it (the round-robin sections to its heat map)."""
    assert built_report.explorer is not None and built_report.explorer.is_file()
    assert built_report.explorer.parent == built_report.html.parent
    html = built_report.html.read_text(encoding="utf-8")
    assert "href='explorer.html'" in html
    assert "href='explorer.html#view=heatmap&amp;game=as_duels'" in html
    assert "](explorer.html)" in built_report.markdown.read_text(encoding="utf-8")


def test_html_is_self_contained(built_report):
    """Issue 6: one self-contained report.html (figures embedded, opens offline)."""
    html = built_report.html.read_text(encoding="utf-8")
    imgs = re.findall(r"<img [^>]*src='([^']*)'", html)
    n_figs = sum(len(s.figures) for s in built_report.sections)
    assert len(imgs) == n_figs
    assert all(src.startswith("data:image/png;base64,") for src in imgs)
    assert "<link" not in html and "<script" not in html
    assert not re.search(r"(src|href)=['\"]https?://", html)
    assert "<style>" in html


def test_lead_numbers_equal_table_values(built_report):
    """Issue 6 "Proof": numbers in the lead equal the tables. Each quoted number is the
    formatted table cell, and no other decimal or percentage appears in a finding."""
    html = built_report.html.read_text(encoding="utf-8")
    lead = [f for f in built_report.findings if f.lead]
    assert len(lead) >= len(SECTIONS)
    by_name = {s.result.name: s for s in built_report.sections}
    for fd in built_report.findings:
        sec = by_name[fd.experiment]
        quoted = []
        for key, row, col, val, disp in fd.quotes:
            table = sec.table(key)
            cell_value = table.values.loc[row, col]
            assert cell_value == pytest.approx(val, rel=1e-12, abs=1e-12)
            assert table.format(col, cell_value) == disp
            assert disp in table.cell(row, col)
            assert disp in fd.text
            quoted.append(disp)
        for tok in NUMBER.findall(fd.text):
            assert tok in quoted, (tok, fd.text)
        if fd.lead:
            assert html_escape(fd.text) in html


def test_lead_is_generated_from_the_data(tmp_path):
    """The lead is computed, not typed: doubling a metric in the saved data doubles the
    numbers the lead quotes."""
    root = make_results(tmp_path / "a", ["ammo_protection"])
    first = R.build_report(root)
    fd = first.findings[0]
    frame, meta = read(root / "ammo_protection")
    for c in [c for c in frame.columns if c.startswith("expected_turns_survived")
              and not c.endswith(("_se", "_n"))]:
        frame[c] = frame[c] * 2
    write(root / "ammo_protection", frame, meta)
    second = R.build_report(root)
    fd2 = second.findings[0]
    html = second.html.read_text(encoding="utf-8")
    for q1, q2 in zip(fd.quotes, fd2.quotes, strict=True):
        assert q2[:3] == q1[:3]
        assert q2[3] == pytest.approx(2 * q1[3])
        assert q2[4] in html and q2[4] in fd2.text


def test_self_risk_definition():
    """Self-risk = expected self-damage + expected fall damage (both unconditional), per the
    report's definition; exact values are preferred over Monte Carlo means."""
    f = pd.DataFrame({"expected_self_damage": [1.0, 0.0], "expected_self_damage_exact":
                      [1.5, np.nan], "expected_fall_damage_attacker": [2.0, 0.5]})
    assert R.self_risk(f).tolist() == [3.5, 0.5]


def test_formatting_is_shared_by_tables_and_findings():
    assert R.fmt_pct(0.0) == "0%" and R.fmt_pct(1.0) == "100%"
    assert R.fmt_pct(0.1234) == "12.3%" and R.fmt_pct(0.00034) == "0.034%"
    assert R.fmt_num(3.14159) == "3.14" and R.fmt_num(float("nan")) == "–"


def test_attack_labels():
    row = pd.Series({"attack": "charge", "hexes": 5, "arm": "right"})
    assert R.attack_label(row) == "charge (5 hexes)"
    assert R.attack_label(pd.Series({"attack": "punch", "arm": "both"})) == "punch ×2"
    assert R.ordered_attacks(["DFA", "kick", "charge (7 hexes)", "charge (3 hexes)",
                              "punch"]) == ["punch", "kick", "charge (3 hexes)",
                                            "charge (7 hexes)", "DFA"]


def test_atomic_writes_leave_no_temporary_files(built_report):
    root = built_report.html.parent
    leftovers = [p for p in root.rglob(".*") if p.is_file()]
    assert leftovers == []


def test_failed_build_keeps_the_previous_report(tmp_path, monkeypatch):
    """Atomic writes: an error while rendering leaves the old report untouched."""
    root = make_results(tmp_path / "r", ["ammo_protection"])
    R.build_report(root)
    before = (root / "report.html").read_bytes()

    def boom(*args, **kwargs):
        raise RuntimeError("render failed")

    monkeypatch.setattr(rendering, "render_markdown", boom)
    with pytest.raises(RuntimeError):
        R.build_report(root, title="changed")
    assert (root / "report.html").read_bytes() == before


def test_unknown_experiment_gets_a_generic_section(tmp_path):
    """An experiment that names no section (and is not one of the suite's, saved before the
    ``report`` key existed) gets the generic section, placed after the suite."""
    root = make_results(tmp_path / "g", ["ammo_protection"])
    shutil.copytree(root / "ammo_protection", root / "my_study")
    frame, meta = read(root / "my_study")
    meta["name"] = "my_study"
    del meta["experiment"]["report"]
    write(root / "my_study", frame, meta)
    rep = R.build_report(root)
    names = [s.result.name for s in rep.sections]
    assert names == ["ammo_protection", "my_study"]
    generic = rep.sections[1]
    assert generic.tables and generic.tables[0].key == "summary"


def test_cli_report_rebuilds_from_saved_results(tmp_path, capsys):
    """`btsim report RESULTS_DIR` rebuilds without rerunning; bad dir -> one line, exit 2."""
    root = make_results(tmp_path / "c", ["head_risk"])
    assert main(["report", str(root)]) == 0
    out = capsys.readouterr().out
    assert "report.html" in out
    assert (root / "report.html").is_file() and (root / "report.md").is_file()
    assert (root / "head_risk" / "fig_head_risk.png").is_file()
    assert main(["report", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "results_dir" in err[0]
    (tmp_path / "empty").mkdir()
    assert main(["report", str(tmp_path / "empty")]) == 2


def test_report_from_real_models_on_a_reduced_suite(tmp_path):
    """End to end with the real models: the default experiment files, grids cut down and a
    few hundred trials, run into a results folder and turned into a report. The expected
    sections come from the files themselves: every experiment appears once, in report order
    (its section's order, then its file name), built by the section its file names, with
    figures, tables and findings."""
    from sim.experiment import load, run
    from sim.report import registry

    repo = Path(__file__).resolve().parents[2]
    cut = {"tons": [20, 100], "piloting": [4], "attacker": ["Atlas AS7-D", "Locust LCT-1V"],
           "target": ["Atlas AS7-D", "Locust LCT-1V"], "policy": ["never", "max"],
           # duels: four cards (light to assault), round-robin included
           "a": ["Atlas AS7-D", "Catapult CPLT-C1", "Hunchback HBK-4G", "Locust LCT-1V"],
           "b": ["Atlas AS7-D", "Catapult CPLT-C1", "Hunchback HBK-4G", "Locust LCT-1V"],
           "unit_a": ["Hunchback HBK-4G", "Locust LCT-1V"],
           "unit_b": ["Hunchback HBK-4G", "Locust LCT-1V"]}
    # Classic fire: two 'Mechs, one that overheats and one that never does
    fire_units = ["Catapult CPLT-C1", "Wolverine WVR-6R"]
    out = tmp_path / "results"
    expected: list[tuple[int, str, str, str]] = []
    for path in sorted((repo / "experiments").glob("*.toml")):
        exp = load(path)
        exp.grid = {k: (cut[k] if k in cut else v) for k, v in exp.grid.items()}
        if exp.model in ("fire", "profile") and "unit" in exp.grid:
            exp.grid["unit"] = fire_units
        if exp.model == "attack" or exp.name == "overheat_curves":
            exp.cases = exp.cases[::3]  # e.g. punch, club, charge 7 hexes
        if exp.model == "duel" and exp.cases:
            exp.cases = exp.cases[:2]
        if exp.name == "change_costs":  # one 'Mech, unchanged and one more ton of armor
            exp.cases = exp.cases[:1]
            exp.grid["edit_a"] = exp.grid["edit_a"][::2]
        if getattr(exp, "tactic_matrices", None):  # one pairing each way, two tactics
            exp.tactic_matrices = {"pairings": 1, "trials": 200,
                                   "tactics": ["competent", "stand-and-fire"]}
        if getattr(exp, "kind", "") == "rating":  # sim.rating: two units, a pool of two
            pick = cut["a"] if exp.model == "duel" else cut["unit_a"] + ["Atlas AS7-D"]
            exp.units, exp.pool = pick[:2], pick[-2:]  # type: ignore[attr-defined]
            exp.scenario = [{"name": "medium", "range": "medium" if exp.model == "duel"
                             else 9}]  # type: ignore[attr-defined]
            exp.chunk_size, exp.max_trials = 40, 40  # type: ignore[attr-defined]
        run(exp, trials=300, seed=1, out=out, progress=False)
        expected.append((registry.get(exp.report).order, path.name, exp.name, exp.report))
    assert len(expected) >= 7  # the suite's files were found
    rep = R.build_report(out)
    got = [(s.result.name, registry.for_result(s.result).name) for s in rep.sections]
    assert got == [(name, section) for _, _, name, section in sorted(expected)]
    for sec in rep.sections:
        assert sec.figures and sec.tables and sec.findings, sec.result.name
        assert sec.result.section is not None  # recorded by the run, not guessed


def test_damage_per_risk_floors_the_denominator():
    """Reviewer finding 1: the damage-per-self-risk ratio divides by max(self-risk, 0.5 points),
    so near-riskless attacks get no huge ratios and riskless ones stay finite and ranked."""
    ev = pd.Series([20.0, 20.0, 20.0, 30.0])
    risk = pd.Series([0.0, 0.0095, 0.5, 6.0])
    got = R.risk_ratio(ev, risk)
    assert R.RISK_FLOOR == 0.5
    assert got.tolist() == pytest.approx([40.0, 40.0, 40.0, 5.0])
    assert np.isfinite(got).all()


def test_best_ratio_table_is_finite_and_marks_riskless_cells(built_report):
    """Every cell of the damage-per-risk table ranks all attacks (no unbounded values), cells
    whose best attack carries no risk say so, and the caption states the floor."""
    sec = next(s for s in built_report.sections if s.result.name == "physical_damage")
    tb, tn = sec.table("best_ratio"), sec.table("best_net")
    vals = tb.values.to_numpy(float)
    assert np.isfinite(vals).all()
    labels = tb.labels.stack().astype(str)
    assert labels.str.endswith(R.NO_RISK).any()  # synthetic punches carry no risk
    assert f"floored at {R.RISK_FLOOR:g} points" in tb.title
    assert "max(self-risk, 0.5)" in tb.note
    # the net table is expected damage - self-risk of the named attack
    frame = sec.result.frame
    f = frame[(frame["target_hexes"] == 0)]
    ev, risk = R.value(f, "expected_damage"), R.self_risk(f)
    best = (ev - risk).groupby([f["tons"], f["piloting"]]).max()
    for (t, p), v in best.items():
        assert tn.values.loc[f"{t} t", f"piloting {p}"] == pytest.approx(v)
    fig = next(x for x in sec.figures if x.key == "fig_best_risk")
    assert "0.5 points" in fig.caption


def test_real_units_findings_answer_clear_questions(built_report):
    """Reviewer finding 2: each unit's best attack (by damage and net of self-risk) and the
    impossible attacks with their reasons, all generated from the data."""
    sec = next(s for s in built_report.sections if s.result.name == "real_units_melee")
    texts = [fd.text for fd in sec.findings]
    assert any("most damaging legal attack" in t for t in texts)
    assert any("net of self-risk" in t for t in texts)
    imp = next(t for t in texts if t.startswith("Impossible attacks"))
    assert "club for the Locust LCT-1V (no hands or lower arms: a club needs both hands)" in imp
    assert "DFA for the Atlas AS7-D and Locust LCT-1V (no jump MP" in imp
    table = sec.table("impossible").display()
    assert table.loc["hatchet: no hatchet", "can make it"] == "Hatchetman HCT-3F"
    best = sec.table("best_per_unit")
    assert set(best.values.index) == {"Atlas AS7-D", "Hatchetman HCT-3F", "Locust LCT-1V"}


def test_unit_fact_wording():
    assert R.missing_text("left-hand,left-lower-arm,right-hand,right-lower-arm") == \
        "no hands or lower arms"
    assert R.missing_text("left-hand") == "no left hand"
    assert R.missing_text(None) == ""
    assert R.reason_text("attacker Locust LCT-1V has no jump MP: a DFA is a jump",
                         "Locust LCT-1V") == "no jump MP: a DFA is a jump"
    assert R.grid_text([20, 25, 30], "attacker tonnage", "t") == \
        "attacker tonnage 20 to 30 t in steps of 5 t"


def test_ammo_finding_explains_the_small_difference(built_report):
    """Reviewer finding 4: the ammo section says how rare an Ammo Hit is (from the crit table,
    reference 6.6) and quotes the turns gained, which equals the table difference."""
    sec = next(s for s in built_report.sections if s.result.name == "ammo_protection")
    fd = sec.findings[0]
    assert "1 in 36 critical-hit rolls (a 2 on 2D6)" in fd.text
    t = sec.table("survival").values
    gain_col = [c for c in t.columns if c.startswith("turns gained")][0]
    best = t["expected turns survived"].idxmax()
    assert t.loc[best, gain_col] == pytest.approx(
        t.loc[best, "expected turns survived"] - t.loc["none", "expected turns survived"])
    assert R.fmt_num(t.loc[best, gain_col]) in fd.text
