"""Review of ``btsim units import`` (issue 13): units the models cannot use are skipped, every
.mtf path lands in exactly one outcome with counts, imported units are listed, filtered and
make prefixes ambiguous, sources are absolute, a unit file's BV comes from btsim's BV catalog
by MUL id or name, and skills are validated once. Synthetic .mtf files only (written from the
catalog's facts by ``units_helpers.mtf_text``); ``$BTSIM_HOME`` is a scratch folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from units_helpers import MTF_DIR, mtf_text, needs_shared

from sim.classic.bv import bv_facts, check_skill
from sim.classic.duel.scenario import build
from sim.classic.fire.unit import fire_unit
from sim.cli import main
from sim.errors import ConfigError, UserError
from sim.units.catalog import get_classic, list_units, lookup, read_unit_file
from sim.units.types import WeaponMount
from sim.units.usable import completeness, not_simulated
from sim.units.user_catalog import SKIP_KINDS, import_dir, load_user_units

HBK = "Hunchback HBK-4G"


def _variant(model: str, mul_id: int | None, weapon: str | None = None) -> str:
    """The catalog Hunchback as .mtf text, renamed to ``model`` with MUL id ``mul_id`` (the
    line dropped for None); ``weapon`` renames its medium lasers."""
    text = mtf_text(get_classic(HBK)).replace("model:HBK-4G", f"model:{model}")
    text = text.replace("mul id:1552\n", f"mul id:{mul_id}\n" if mul_id else "")
    return text.replace("Medium Laser", weapon) if weapon else text


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    monkeypatch.setenv("BTSIM_HOME", str(h))
    return h


def _cli(home: Path, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BTSIM_HOME": str(home),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([sys.executable, "-m", "sim", *argv], capture_output=True,
                          text=True, env=env, check=False, cwd=cwd)


def _folder(root: Path) -> Path:
    """Three Hunchback variants (one twice), one with an unknown weapon, a catalog name, a
    broken file, a dangling link, a folder named .mtf and a text file."""
    src = root / "imp"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "hbk4x.mtf").write_text(_variant("HBK-4X", 990002))
    (src / "sub" / "hbk4z.mtf").write_text(_variant("HBK-4Z", 990003))
    (src / "hbk4e.mtf").write_text(_variant("HBK-4E", 990004))
    (src / "zz_dup.mtf").write_text(_variant("HBK-4Z", 990005))
    (src / "plasma.mtf").write_text(_variant("HBK-4P", 990006, "Plasma Flux Cannon"))
    (src / "catalog4g.mtf").write_text(_variant("HBK-4G", 1552))
    (src / "broken.mtf").write_text("chassis:Half\nmodel:H-1\nmass:50\n")
    (src / "dangling.mtf").symlink_to(src / "nowhere.mtf")
    (src / "dir.mtf").mkdir()
    (src / "readme.txt").write_text("not a unit")
    return src


# ---- 1. one completeness judgement, shared by the import, the listing and the models ------

def test_unknown_weapon_unit_imports_incomplete_and_never_fires_it(
        tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19: a weapon btsim does not simulate never fires; the unit imports, marked
    incomplete, and every result that uses it says so."""
    src = tmp_path / "one"
    src.mkdir()
    (src / "plasma.mtf").write_text(_variant("HBK-4P", 990006, "Plasma Flux Cannon"))
    (src / "fine.mtf").write_text(_variant("HBK-4X", 990002))
    rep = import_dir(src)
    assert sorted((i.name, i.simulated) for i in rep.imported) == [
        ("Hunchback HBK-4P", "incomplete"), ("Hunchback HBK-4X", "complete")]
    assert rep.skipped == []
    [item] = [it for it in rep.items() if it["kind"] == "weapon"]
    assert item["name"] == "Plasma Flux Cannon" and item["units"] == ["Hunchback HBK-4P"]
    assert item["count"] == 1 and "never fires" in item["reason"]
    mech = lookup("Hunchback HBK-4P").classic
    assert mech is not None and completeness(mech) == "incomplete"
    fu = fire_unit(mech)
    assert [m.weapon.key for m in fu.mounts if m.weapon] == ["IS AC/20", "Small Laser"]
    assert fu.notes[0].startswith("Hunchback HBK-4P is incomplete: not simulated: weapon "
                                  "Plasma Flux Cannon (LA): never fires")
    assert main(["units", "show", "Hunchback HBK-4P"]) == 0
    out = capsys.readouterr().out
    assert "simulated: incomplete" in out and "not simulated: weapon Plasma Flux Cannon" in out


def test_not_simulated_reads_mounts_and_the_weapons_list() -> None:
    m = get_classic(HBK)
    assert {i.kind for i in not_simulated(m)} == {"quirk"} and completeness(m) == "complete"
    bad = replace(m, weapon_mounts=(*m.weapon_mounts, WeaponMount("Zap Gun", None, "RA")))
    assert [(i.kind, i.name, i.location) for i in not_simulated(bad)
            if i.kind != "quirk"] == [("weapon", "Zap Gun", "RA")]
    hand = replace(m, weapon_mounts=(), weapons=(("Medium Laser", "LA"), ("Zap Gun", "RA")))
    assert [i.name for i in not_simulated(hand) if i.kind == "weapon"] == ["Zap Gun"]
    gizmo = replace(m, unknown_equipment=(("Gizmo", "LT", 3),))
    assert completeness(gizmo) == "incomplete"
    assert completeness(replace(m, quirks=("stable",))) == "complete"  # optional rule


# ---- 4./5. every path in exactly one outcome; counts; absolute sources ----------------------

def test_every_mtf_path_lands_in_exactly_one_outcome(tmp_path: Path, home: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    rep = import_dir("imp")  # a relative folder
    found = sorted([i.file for i in rep.imported] + [s.file for s in rep.skipped])
    assert rep.found == 9 == len(set(found))
    assert sorted(n for n, _, _ in rep.imported) == ["Hunchback HBK-4E", "Hunchback HBK-4P",
                                                     "Hunchback HBK-4X",
                                                 "Hunchback HBK-4Z"]
    kinds = {Path(s.file).name: s.kind for s in rep.skipped}
    assert kinds == {"broken.mtf": "unreadable", "catalog4g.mtf": "shadowed by the catalog",
                     "dangling.mtf": "not a file", "dir.mtf": "not a file",
                     "zz_dup.mtf": "duplicate"}
    reasons = {Path(s.file).name: s.reason for s in rep.skipped}
    assert "'Hunchback HBK-4G'" in reasons["catalog4g.mtf"]
    assert reasons["zz_dup.mtf"].startswith("duplicate of imp/sub/hbk4z.mtf")
    assert "dangling" in reasons["dangling.mtf"] and "folder" in reasons["dir.mtf"]
    assert rep.counts() == {"imported": 4, "not a file": 2, "unreadable": 1,
                            "not supported": 0, "shadowed by the catalog": 1,
                            "duplicate": 1}
    assert set(rep.counts()) == {"imported", *SKIP_KINDS}
    units = load_user_units()
    assert len(units) == 4  # written = imported
    for u in units:  # 5. absolute, resolved sources: usable from any directory
        assert Path(u.source).is_absolute() and Path(u.source).is_file()
        assert Path(u.source) == Path(u.source).resolve()
    # a second import of the same folder replaces, and says so
    rep2 = import_dir(tmp_path / "imp")
    assert len(rep2.replaced) == 4 and len(load_user_units()) == 4


def test_import_cli_prints_counts_and_refuses_an_empty_folder(tmp_path: Path,
                                                              home: Path) -> None:
    src = _folder(tmp_path)
    p = _cli(home, "units", "import", str(src), "--skipped", str(tmp_path / "skipped.txt"))
    assert p.returncode == 0, p.stderr
    assert "9 .mtf path(s)" in p.stdout
    assert "imported 4 (3 complete, 1 incomplete)" in p.stdout
    assert "skipped 5 (not a file 2, unreadable 1, shadowed by the catalog 1, duplicate 1)" \
        in p.stdout
    assert "   1  weapon Plasma Flux Cannon: never fires" in p.stdout  # issue 19 summary
    assert len(p.stderr.strip().splitlines()) == 5
    assert len((tmp_path / "skipped.txt").read_text().splitlines()) == 5
    p = _cli(home, "units", "import", str(src), "--json")
    doc = json.loads(p.stdout)
    assert doc["found"] == 9 and doc["counts"]["imported"] == 4
    assert (doc["complete"], doc["incomplete"]) == (3, 1)
    assert {s["kind"] for s in doc["skipped"]} == {"not a file", "unreadable", "duplicate",
                                                   "shadowed by the catalog"}
    [weapon] = [i for i in doc["not_simulated"] if i["kind"] == "weapon"]
    assert weapon["units"] == ["Hunchback HBK-4P"] and weapon["count"] == 1
    before = (home / "units.json").read_text()
    for name in ("empty", "textonly"):
        d = tmp_path / name
        d.mkdir()
        if name == "textonly":
            (d / "a.txt").write_text("x")
        p = _cli(home, "units", "import", str(d))
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
        assert "no .mtf files" in p.stderr
    assert (home / "units.json").read_text() == before


# ---- 2. imported units are listed, filtered, and take part in prefix resolution -------------

def test_imported_units_are_listed_filtered_and_ambiguous(tmp_path: Path, home: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    base = list_units()
    import_dir(_folder(tmp_path))
    frame = list_units()
    assert len(frame) == len(base) + 4 and int(frame["imported"].sum()) == 4
    assert int(frame["classic"].sum()) == int(base["classic"].sum()) + 4
    assert list(list_units("4x")["name"]) == ["Hunchback HBK-4X"]
    assert main(["units"]) == 0
    out = capsys.readouterr().out
    assert "Hunchback HBK-4X (imported)" in out
    assert f"{len(base) + 4} units ({len(base)} built-in, 4 imported)" in out
    assert main(["units", "--filter", "4x"]) == 0
    out = capsys.readouterr().out
    assert "Hunchback HBK-4X (imported)" in out and "no catalog" not in out
    # a prefix of catalog and imported names is ambiguous, listing the candidates
    with pytest.raises(UserError, match="ambiguous") as exc:
        get_classic("Hunchback HBK-4")
    for n in ("HBK-4G", "HBK-4X", "HBK-4Z", "HBK-4E"):
        assert n in str(exc.value)
    assert get_classic("hunchback hbk-4x").model == "HBK-4X"
    assert get_classic(HBK).source == "btsim catalog"  # exact catalog name: the catalog's
    p = _cli(home, "hit", "Hunchback HBK-4", "--damage", "5", "--location", "CT")
    assert p.returncode == 2 and "ambiguous" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    p = _cli(home, "hit", "Hunchback HBK-4Z", "--damage", "5", "--location", "CT", "--json",
             cwd=tmp_path / "imp" / "sub")
    assert p.returncode == 0, p.stderr


def test_import_fills_the_classic_side_of_a_card_only_catalog_unit(tmp_path: Path,
                                                                   home: Path) -> None:
    card_only = next(r for r in list_units().itertuples() if not r.classic)
    chassis, _, model = card_only.name.rpartition(" ")
    src = tmp_path / "c"
    src.mkdir()
    text = _variant(model, None).replace("chassis:Hunchback", f"chassis:{chassis}")
    (src / "x.mtf").write_text(text)
    rep = import_dir(src)
    assert [i.name for i in rep.imported] == [card_only.name], rep.skipped
    entry = lookup(card_only.name, "classic")
    assert entry.imported and entry.card is not None and entry.classic is not None
    assert len(list_units()) == len(list_units("")) and card_only.name in list(
        list_units(card_only.name)["name"])


# ---- 3. a unit file's BV from btsim's BV catalog --------------------------------------------

def test_file_bv_by_mul_id_then_name_else_unknown(tmp_path: Path) -> None:
    cat = get_classic(HBK)
    assert cat.bv == 1041 and cat.bv_record == 1552
    by_id = tmp_path / "byid.mtf"
    by_id.write_text(_variant("HBK-4G", 1552))
    m = read_unit_file(by_id)
    assert (m.bv, m.bv_source, m.bv_record) == (1041, "MUL record 1552", 1552)
    assert (m.pv, m.pv_source) == (28, "MUL record 1552")  # issue 19: the MUL's own PV
    by_name = tmp_path / "byname.mtf"
    by_name.write_text(_variant("HBK-4G", None))
    assert read_unit_file(by_name).bv == 1041
    renamed = tmp_path / "renamed.mtf"
    renamed.write_text(_variant("HBK-4Q", 1552))
    m = read_unit_file(renamed)
    assert m.bv == 1041 and any("MUL record 1552" in n for n in m.notes)
    unknown = tmp_path / "unknown.mtf"
    unknown.write_text(_variant("HBK-4Q", 990009))
    assert read_unit_file(unknown).bv is None
    scn = build({"unit_a": str(by_id), "unit_b": str(unknown), "turns": 1})
    assert scn.a.bv["bv"] == 1041 and scn.a.bv["bv_record"] == 1552
    assert scn.b.bv["bv"] is None
    assert any("Hunchback HBK-4Q: no Battle Value known" in n for n in scn.notes)
    # an edited loadout keeps the name and MUL id but is not the catalog's build
    edited = tmp_path / "edited.mtf"
    edited.write_text(_variant("HBK-4G", 1552, "Small Laser"))
    m = read_unit_file(edited)
    assert m.bv is None
    assert any("matches its name or MUL id but not its build" in n for n in m.notes)


@needs_shared
def test_shared_hunchback_file_has_its_catalog_bv(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(MTF_DIR / "Hunchback HBK-4G.mtf")
    assert main(["units", "show", path]) == 0
    out = capsys.readouterr().out
    assert "BV 1041" in out and "record 1552" in out and "unknown" not in out
    assert main(["units", "show", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["classic"]["bv"] == 1041


# ---- 6. one skill validator -------------------------------------------------------------------

def test_units_show_refuses_skills_the_duel_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    for flag in ("--gunnery", "--piloting"):
        assert main(["units", "show", HBK, flag, "9"]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and flag[2:] in err and "[0, 8]" in err
    assert main(["units", "show", HBK, "--gunnery", "8"]) == 0
    capsys.readouterr()
    with pytest.raises(ConfigError):
        bv_facts(get_classic(HBK), 9, 5)
    with pytest.raises(ConfigError):
        build({"unit_a": HBK, "unit_b": HBK, "gunnery_a": 9})
    assert check_skill("gunnery", "8") == 8


def test_a_rearmed_copy_keeping_the_mul_id_gets_neither_card_nor_bv(tmp_path: Path,
                                                                    home: Path) -> None:
    """A Hunchback file re-armed with small lasers, renamed, its MUL id kept: not the
    catalog's HBK-4G, so no Alpha Strike card and no Battle Value of record 1552; a renamed
    copy of the same build keeps both."""
    src = tmp_path / "r"
    src.mkdir()
    (src / "rearmed.mtf").write_text(_variant("HBK-4YY", 1552, "Small Laser"))
    (src / "renamed.mtf").write_text(_variant("HBK-4YZ", 1552))
    import_dir(src)
    rearmed = lookup("Hunchback HBK-4YY")
    assert rearmed.card is None and rearmed.classic is not None and rearmed.classic.bv is None
    renamed = lookup("Hunchback HBK-4YZ")
    assert renamed.card is not None and renamed.classic is not None
    assert renamed.classic.bv == 1041


def test_an_earlier_import_sharing_an_alias_is_replaced(tmp_path: Path, home: Path) -> None:
    """Two imports whose units share an alias (the same model under another chassis
    spelling) never leave two stored units that one name finds: the later replaces the
    earlier, and the report says so."""
    first, second = tmp_path / "1", tmp_path / "2"
    first.mkdir()
    second.mkdir()
    (first / "a.mtf").write_text(_variant("HBK-4W", 990011).replace(
        "chassis:Hunchback", "chassis:Hunchback\nclanname:Humpback"))
    (second / "b.mtf").write_text(_variant("HBK-4W", 990012).replace(
        "chassis:Hunchback", "chassis:Humpback"))
    import_dir(first)
    assert [u.name for u in load_user_units()] == ["Hunchback (Humpback) HBK-4W"]
    rep = import_dir(second)
    assert rep.replaced == ["Humpback HBK-4W"]
    assert [u.name for u in load_user_units()] == ["Humpback HBK-4W"]
    assert lookup("Humpback HBK-4W").classic is not None
