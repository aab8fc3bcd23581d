"""Report sections as plug-ins (issue 9): one module per section under sim/report/sections/,
found automatically; an experiment names its section with ``report = "..."`` (checked when
it is loaded, recorded in its results); every section renders from synthetic results; labels
and orders come from the models' tables."""

from __future__ import annotations

import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from report_synth import EXPERIMENTS, SECTIONS, make_results

from sim.classic import tables as CT
from sim.cli import main
from sim.errors import ConfigError
from sim.experiment import Experiment, load, run
from sim.report import build_report, load_results, ordered_attacks, registry
from sim.report import sections as sections_pkg
from sim.report.sections import head_risk
from sim.results import read, write

REPO = Path(__file__).resolve().parents[2]
SUITE = ("physical-damage", "head-risk", "real-units", "heat-curves", "ammo-protection")


def test_registry_lists_every_section_module():
    """Each module in sim/report/sections/ registers a section, and each section comes from
    one; the names the suite uses and the default are among them, in report order."""
    modules = {m.name for m in pkgutil.iter_modules(sections_pkg.__path__)
               if not m.name.startswith("_")}
    specs = registry.sections()
    assert {s.module.rsplit(".", 1)[1] for s in specs.values()} == modules
    assert set(SUITE) | {registry.DEFAULT} <= set(specs)
    assert registry.names() == tuple(specs)
    assert [s.order for s in specs.values()] == sorted(s.order for s in specs.values())
    assert list(specs)[:len(SUITE)] == list(SUITE)
    for spec in specs.values():
        assert spec.doc, f"section {spec.name!r} needs a docstring"


def test_a_name_registered_twice_is_refused():
    spec = registry.get("generic")
    with pytest.raises(ValueError, match="registered twice"):
        registry.section("generic")(lambda res: spec.build(res))


def test_every_experiment_file_names_its_section():
    """The suite's experiments name their sections (the ones the synthetic suite renders);
    any other experiment file names a registered section."""
    for path in sorted((REPO / "experiments").glob("*.toml")):
        exp = load(path)
        assert exp.report in registry.names()
        if exp.name in SECTIONS:
            assert exp.report == SECTIONS[exp.name], exp.name


@pytest.mark.parametrize("bad", ["heat_curves", "no-such-section", "", 3, ["generic"]])
def test_unknown_section_is_an_error_when_the_experiment_is_loaded(bad):
    with pytest.raises(ConfigError) as err:
        load({"name": "x", "model": "heat", "report": bad})
    msg = str(err.value)
    assert err.value.field == "report" and err.value.value == bad
    assert "'report'" in msg and repr(bad) in msg
    for name in registry.names():
        assert repr(name) in msg
    assert "\n" not in msg


def test_unknown_section_in_a_file_exits_2_before_running(tmp_path, capsys):
    src = (REPO / "experiments" / "05_ammo_protection.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(src.replace('report = "ammo-protection"', 'report = "ammo_protection"'),
                   encoding="utf-8")
    assert main(["run", str(bad), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'report'" in err[0] and "'ammo_protection'" in err[0]
    assert "'ammo-protection'" in err[0]
    assert not (tmp_path / "out").exists()


def test_default_section_is_generic_and_the_section_is_recorded(tmp_path):
    base = {"model": "attack", "trials": 200, "seed": 1,
            "fixed": {"attack": "punch", "tons": 50}, "grid": {"piloting": [4, 5]}}
    plain = load({"name": "plain", **base})
    assert plain.report == registry.DEFAULT == "generic" == Experiment.report
    named = load({"name": "named", "report": "physical-damage", **base})
    for exp in (plain, named):
        run(exp, out=tmp_path, progress=False)
        _, meta = read(tmp_path / exp.name)
        assert meta["experiment"]["report"] == exp.report
    found = {r.name: (r.section, registry.for_result(r).name) for r in load_results(tmp_path)}
    assert found == {"plain": ("generic", "generic"),
                     "named": ("physical-damage", "physical-damage")}


@pytest.mark.parametrize("name", [n for n in registry.names() if n != registry.DEFAULT])
def test_every_section_renders_from_synthetic_results(built_report, name):
    """Each registered section builds figures, tables and findings whose quoted numbers equal
    their cells (build_report checks it) from the synthetic results, found by the section
    their metadata records. A new section adds its synthetic experiment to report_synth.py."""
    built = [s for s in built_report.sections if registry.for_result(s.result).name == name]
    assert built, f"add synthetic results for section {name!r} to report_synth.py"
    html = built_report.html.read_text(encoding="utf-8")
    for sec in built:
        assert sec.result.section == name  # recorded, not guessed from the name
        assert sec.tables and sec.figures and sec.findings, name
        assert all(f.png.is_file() for f in sec.figures)
        assert f"data-experiment='{sec.result.name}'" in html


def test_generic_section_renders_any_model_results(tmp_path):
    """The default section shows any experiment: Classic match-ups with impossible rows and
    an Alpha Strike per-turn curve, each as a summary table and a chart."""
    exps = ["real_units_melee", "ammo_protection"]
    root = make_results(tmp_path, exps, sections=dict.fromkeys(exps, registry.DEFAULT))
    rep = build_report(root)
    assert [s.result.name for s in rep.sections] == sorted(exps)  # same section: by name
    for sec in rep.sections:
        assert registry.for_result(sec.result).name == registry.DEFAULT
        assert [t.key for t in sec.tables] == ["summary"]
        assert [f.key for f in sec.figures] == ["fig_summary"]
        assert sec.tables[0].values.notna().any().any()


def test_results_saved_before_the_report_key_get_the_same_sections(tmp_path):
    """Old results folders (no ``report`` in their metadata) fall back to the section that
    lists the experiment's name as legacy, else the generic one."""
    root = make_results(tmp_path, legacy=True)
    results = load_results(root)
    assert all(r.section is None for r in results)
    legacy = {n for spec in registry._REGISTRY.values() for n in spec.legacy}
    # an experiment newer than the report key (change_costs) has no legacy name: generic
    want = {n: (s if n in legacy else registry.DEFAULT) for n, s in SECTIONS.items()}
    assert {r.name: registry.for_result(r).name for r in results} == want
    assert "change_costs" not in legacy and want["change_costs"] == registry.DEFAULT
    # report order: section order (change_costs, generic here, moves with its fallback)
    assert ([r.name for r in results if r.name != "change_costs"]
            == [n for n in EXPERIMENTS if n != "change_costs"])


def test_the_recorded_section_wins_over_the_experiment_name(tmp_path):
    root = make_results(tmp_path, ["ammo_protection"], sections={"ammo_protection": "generic"})
    shutil.copytree(root / "ammo_protection", root / "my_study")
    frame, meta = read(root / "my_study")
    meta["name"] = "my_study"
    meta["experiment"]["report"] = "ammo-protection"
    write(root / "my_study", frame, meta)
    got = {r.name: registry.for_result(r).name for r in load_results(root)}
    assert got == {"ammo_protection": "generic", "my_study": "ammo-protection"}
    assert [r.name for r in load_results(root)] == ["my_study", "ammo_protection"]


def test_saved_result_naming_an_unknown_section_exits_2(tmp_path, capsys):
    root = make_results(tmp_path, ["ammo_protection"], sections={"ammo_protection": "gone"})
    assert main(["report", str(root)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'report'" in err[0] and "'gone'" in err[0]


def test_loading_an_experiment_does_not_import_matplotlib():
    """The registry is cheap to ask: section modules draw nothing on import and sim.plots
    imports Matplotlib on first use."""
    code = ("import sys; from sim.experiment import load; "
            "load('experiments/04_overheat_curves.toml'); "
            "from sim.report import registry; registry.sections(); "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def test_attack_labels_follow_the_model_table(monkeypatch):
    labels = ["DFA", "kick", "punch ×2", "charge (7 hexes)", "punch", "push",
              "charge (3 hexes)", "club", "hatchet"]
    assert ordered_attacks(labels) == ["punch", "punch ×2", "kick", "club", "hatchet", "push",
                                       "charge (3 hexes)", "charge (7 hexes)", "DFA"]
    monkeypatch.setattr(CT, "ATTACKS", tuple(reversed(CT.ATTACKS)))
    assert ordered_attacks(labels)[:2] == ["DFA", "charge (3 hexes)"]


def test_location_groups_cover_the_model_locations(monkeypatch):
    groups = head_risk.location_groups()
    flat = [c for codes in groups.values() for c in codes]
    assert sorted(flat) == sorted(CT.LOCATIONS) and len(flat) == len(set(flat))
    monkeypatch.setattr(CT, "LOCATIONS", (*CT.LOCATIONS, "XX"))
    assert head_risk.location_groups()["XX"] == ("XX",)


# ---- firerep: the generic section and histogram metrics
def test_generic_section_leaves_histogram_metrics_out(tmp_path):
    """A result with a histogram metric (a distribution array per row, as the fire model's
    ``heat_hist``) renders with the generic section: the histogram is no parameter and no
    table column, and the parameters that vary still label the rows."""
    import numpy as np

    root = make_results(tmp_path, ["weapon_fire"], sections={"weapon_fire": "generic"})
    frame, meta = read(root / "weapon_fire")
    hist = [np.eye(31)[min(int(h), 30)] for h in frame["mean_heat_exact"]]
    frame["heat_hist"] = hist
    frame["heat_hist_exact"] = hist
    meta["metric_kinds"]["heat_hist"] = "hist"
    write(root / "weapon_fire", frame, meta)
    rep = build_report(root)
    (sec,) = rep.sections
    table = sec.tables[0]
    assert "heat_hist" not in table.values.columns
    assert "heat_hist" not in table.index_name
    assert "unit" in table.index_name.split(" / ") and "policy" in table.index_name.split(" / ")
    assert table.values.notna().any().any()
# ---- end firerep


def test_change_costs_note_names_the_duels_tactics() -> None:
    """The change-costs section says what a jump MP can buy under the run's tactics (a
    competent duel moves; only stand-and-fire stands still)."""
    import pandas as pd

    from sim.report.sections.change_costs import _movement_note

    still = _movement_note(pd.DataFrame({"tactic_a": ["stand-and-fire"],
                                         "tactic_b": ["stand-and-fire"]}))
    assert "stands still" in still and "buys nothing" in still
    moving = _movement_note(pd.DataFrame({"tactic_a": ["competent"], "tactic_b": ["competent"]}))
    assert "competent" in moving and "stands still" not in moving
