"""Issue 19: a whole folder of real MegaMek files (``shared/data/units/corpus``, 82 files of
the 3025-3067 eras and after: Inner Sphere, Clan, OmniMechs, quads, IndustrialMechs).

Per file: it imports (or is refused with a reason of the issue's list: quads,
IndustrialMechs); every weapon in it fires in the fire model at gunnery 0 and range 1 (the
maximum damage at range 1 is the sum of the front-arc weapons, computed here from the
file's own mounts) or is listed as not simulated; its BV and PV equal the MUL values by MUL
id. Plus Artemis IV, Artemis-capable ammunition, and bad files in a folder."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest
from units_helpers import SHARED_UNITS, mtf_text

from sim.classic.fire import cluster as C
from sim.classic.fire.profile import single_turn
from sim.classic.fire.rules import rules_from
from sim.classic.fire.scenario import build_scenario
from sim.classic.fire.unit import fire_unit
from sim.classic.weapons import AMMO, WEAPONS, rounds_for
from sim.errors import UserError
from sim.units import user_catalog as uc
from sim.units.catalog import get_classic, lookup, read_unit_file
from sim.units.mtf import MtfError, parse_mtf, read_mtf
from sim.units.mul import mul_by_id
from sim.units.usable import completeness, not_simulated

CORPUS = SHARED_UNITS / "corpus"
FILES = sorted(CORPUS.glob("*.mtf")) if CORPUS.is_dir() else []
needs_corpus = pytest.mark.skipif(not FILES, reason=f"corpus not found at {CORPUS}")

#: The issue's reasons a file may be refused for (until simulated).
REFUSALS = ("IndustrialMechs", "LAM", "Tripod", "QuadVee", "superheavy")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    monkeypatch.setenv(uc.HOME_ENV, str(h))
    return h


def _expected_max(mech) -> tuple[int, list[str]]:
    """Sum of the maximum salvo of every forward weapon the file carries that btsim fires
    (rear mounts fire into the rear arc; 10.1), and the names of those weapons."""
    rules = rules_from({})
    shots = {"ultra": 2 if rules.ultra_mode == "ultra" else 1, "rotary": rules.rotary_shots}
    fed = {AMMO[b.ammo].weapon_family_key for b in mech.ammo_bins
           if b.ammo in AMMO and b.shots > 0}
    total, names = 0, []
    for m in mech.weapon_mounts:
        w = WEAPONS.get(m.weapon) if m.weapon else None
        if w is None or not w.fires or m.rear or (w.damage <= 0 and w.family not in ("plasma", "narc")):
            continue        # a plasma cannon fires for its heat on the target, a Narc
            # launcher for its beacon (issue 19)
        # the kinds of round it has ammunition for (MML SRM, ATM ER/HE: rounds_for); at range
        # 1 the one with the most damage is also the one the fire model picks
        kinds = [c for c in rounds_for(w) if c.ammo is None or c.ammo in fed]
        if not kinds:
            continue
        total += max(c.damage * max(c.cluster, 1) * shots.get(c.family, 1) for c in kinds)
        names.append(w.key)
    # a machine gun array's guns (up to 4 of its type in its location) fire as one weapon
    for m in mech.weapon_mounts:
        w = WEAPONS.get(m.weapon) if m.weapon else None
        if w is not None and w.name.endswith(" Array"):
            base = w.name.removesuffix(" Array")
            n = min(4, sum(1 for x in mech.weapon_mounts if x.location == m.location
                           and not x.rear and x.weapon and WEAPONS[x.weapon].name == base))
            if n >= 2:
                key = next(WEAPONS[x.weapon].key for x in mech.weapon_mounts
                           if x.location == m.location and x.weapon
                           and WEAPONS[x.weapon].name == base)
                for _ in range(n - 1):
                    names.remove(key)
    return total, names


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_corpus_file_imports_fires_everything_and_carries_mul_prices(path: Path) -> None:
    try:
        mech = read_unit_file(path)
    except MtfError as exc:
        assert any(r in str(exc) for r in REFUSALS), str(exc)
        return
    # every weapon of the file is either fired or listed as not simulated
    expected, fired = _expected_max(mech)
    listed = {i.name for i in not_simulated(mech) if i.kind == "weapon"}
    for m in mech.weapon_mounts:
        w = WEAPONS.get(m.weapon) if m.weapon else None
        if w is None or not w.fires:
            assert (w.name if w else m.name) in listed, m
    scn = build_scenario({"unit": mech, "gunnery": 0, "range": 1, "turns": 1})
    assert sorted(g.key for g in scn.guns) == sorted(fired)
    assert all(int(g.tn[0, 0]) <= 12 for g in scn.guns)  # each can hit at range 1
    assert sum(g.max_damage() for g in scn.guns) == expected
    if completeness(mech) == "incomplete":
        assert scn.notes[0].startswith(f"{mech.name} is incomplete: not simulated: ")
    if mech.config == "Quad":  # front legs in LA/RA: leg structure, no arm actuators
        assert mech.internal["LA"] == mech.internal["LL"] and not mech.has("LA", "shoulder")
        from sim.classic.damage_state.layout import build_layout
        with pytest.raises(UserError, match="does not simulate Quad 'Mechs yet"):
            build_layout(mech)  # the Classic duel's door
        assert build_layout(mech, quad=True).config == "Quad"  # btsim hit's
    # official prices: the MUL record of its MUL id
    rec = mul_by_id(mech.mul_id)
    assert rec is not None, mech.mul_id
    assert (mech.bv, mech.pv) == (rec.bv, rec.pv)
    assert mech.bv_source == f"MUL record {rec.mul_id}" == mech.pv_source


@needs_corpus
def test_corpus_import_counts(tmp_path: Path, home: Path) -> None:
    """The whole folder: every file imported or refused with one reason; the counts this
    version reaches (issue 19 reports them)."""
    rep = uc.import_dir(CORPUS)
    assert rep.found == len(FILES) == 82
    assert {s.kind for s in rep.skipped} == {"not supported"}
    assert len(rep.skipped) == 2  # the 2 IndustrialMechs (one a quad)
    assert all("IndustrialMechs" in s.reason for s in rep.skipped)
    # 64 before the compiled duel read TSM, MASC and swords, 69 before it played quads,
    # the heavy-duty gyro, the retractable blade, stealth armor and plasma heat, 77 before
    # hardened armor's piloting and TAC rules and coolant pods (issue 19); the one left is
    # the Helepolis (its Sniper artillery piece)
    assert len(rep.imported) == 80 and rep.complete_count() == 79
    assert not any(it["name"].startswith("config:") for it in rep.items())  # quads play
    kinds = {it["kind"] for it in rep.items()}
    assert kinds <= {"weapon", "ammunition", "equipment", "construction", "quirk"}
    assert not any(it["name"] == "Coolant Pod" for it in rep.items())   # the duel's now
    # hardened armor (damage, running MP, piloting, TAC) and the torso-mounted cockpit are
    # simulated: the Great Turtle is complete
    assert not [it for it in rep.items() if "Great Turtle GTR-1" in it["units"]
                and it["kind"] != "quirk"]
    left = [it for it in rep.items() if it["kind"] != "quirk"]
    assert {u for it in left for u in it["units"]} == {"Helepolis HEP-2H"}
    assert not any(it["name"].startswith("cockpit:") for it in rep.items())
    assert not any(it["name"] in ("IS MASC", "Clan MASC") for it in rep.items())
    # named afterwards through the index, with the MUL values
    entry = lookup("Grand Crusader GRN-D-01")
    assert entry.imported and entry.classic is not None
    assert entry.classic.bv == mul_by_id(entry.classic.mul_id).bv == 1758


@needs_corpus
def test_artemis_iv_links_launcher_and_ammunition() -> None:
    """Reference 10.3: +2 on the cluster roll of an Artemis-linked LRM firing
    Artemis-capable ammunition (Hitman HM-1: LRM 5 + Artemis IV, 'IS Ammo LRM-5
    Artemis-capable'); standard ammunition gets nothing; an unlinked launcher nothing."""
    mech = read_mtf(CORPUS / "Hitman HM-1.mtf")
    [lrm] = [m for m in mech.weapon_mounts if m.weapon == "IS LRM 5"]
    assert lrm.artemis == "artemis_iv"
    assert [b.munition for b in mech.ammo_bins] == ["artemis"]
    [mount] = [m for m in fire_unit(mech).mounts if m.weapon and m.weapon.key == "IS LRM 5"]
    assert mount.cluster_bonus == 2
    scn = build_scenario({"unit": mech, "gunnery": 4, "range": 7, "turns": 1})
    [gun] = [g for g in scn.guns if g.key == "IS LRM 5"]
    exact = sum((Fraction(int(gun.hits[1][t])) * p for t, p in enumerate(C.PMF_2D6)
                 if t >= 2), Fraction(0))
    assert exact == C.expected_hits(5, 2) > C.expected_hits(5, 0)
    plain = mech.__class__(**{**mech.__dict__, "ammo_bins": tuple(
        b.__class__(**{**b.__dict__, "munition": ""}) for b in mech.ammo_bins)})
    assert [m.cluster_bonus for m in fire_unit(plain).mounts] == [0] * 5


def test_artemis_on_a_synthetic_centurion_gives_the_lrm_its_ammunition() -> None:
    """The issue's Centurion case: an LRM 10 with Artemis IV and 'IS Ammo LRM-10
    Artemis-capable' ammunition fires (max damage 10 + its other weapons; range 21)."""
    base = get_classic("Hunchback HBK-4G")
    text = mtf_text(base).replace("Autocannon/20", "LRM 10", 2).replace(
        "IS Ammo AC/20", "IS Ammo LRM-10 Artemis-capable")
    lines = text.split("\n")
    k = lines.index("LRM 10")
    lines[k + 2:k + 2] = ["ISArtemisIV"]
    text = "\n".join(ln for i, ln in enumerate(lines)
                     if ln != "Autocannon/20" or i < k)  # drop the rest of the AC/20
    mech = parse_mtf(text, "cn.mtf")
    [lrm] = [m for m in mech.weapon_mounts if m.weapon == "IS LRM 10"]
    assert lrm.artemis == "artemis_iv"
    assert {b.ammo for b in mech.ammo_bins} == {"IS Ammo LRM-10"}
    fu = fire_unit(mech)
    assert [m.cluster_bonus for m in fu.mounts if m.weapon.key == "IS LRM 10"] == [2]
    scn = build_scenario({"unit": mech, "gunnery": 4, "range": 21, "turns": 1})
    assert [g.key for g in scn.guns if g.tn[0, 0] <= 12] == ["IS LRM 10"]  # reaches 21
    assert single_turn(scn)[0] == 10  # btsim profile's max damage at 21 hexes


# ---------------------------------------------------------------- bad files in a folder

def _bad_folder(root: Path) -> Path:
    src = root / "bad"
    src.mkdir()
    good = mtf_text(get_classic("Hunchback HBK-4G")).replace("model:HBK-4G", "model:HBK-4Y")
    good = good.replace("mul id:1552\n", "")
    (src / "good.mtf").write_text(good)
    (src / "binary.mtf").write_bytes(bytes(range(256)) * 40)
    (src / "truncated.mtf").write_text(good[: len(good) // 3])
    (src / "empty.mtf").write_text("")
    (src / "hostile.mtf").write_text(good.replace("engine:", "engine:160" + " " * 200_000
                                                  + "x\n#", 1))
    os.mkfifo(src / "fifo.mtf")
    return src


def test_bad_files_are_listed_with_one_reason_and_the_rest_imports(tmp_path: Path,
                                                                   home: Path) -> None:
    rep = uc.import_dir(_bad_folder(tmp_path))
    assert [i.name for i in rep.imported] == ["Hunchback HBK-4Y"]
    reasons = {Path(s.file).name: s for s in rep.skipped}
    assert set(reasons) == {"binary.mtf", "truncated.mtf", "empty.mtf", "hostile.mtf",
                            "fifo.mtf"}
    assert reasons["fifo.mtf"].kind == "not a file"  # never opened: it would block
    for s in reasons.values():
        assert "\n" not in s.reason and len(s.reason) < 400, s


def test_catalog_write_is_atomic(tmp_path: Path, home: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while the catalog is written leaves the earlier catalog and no temporary
    file behind; the error is one line naming the path."""
    src = _bad_folder(tmp_path)
    uc.import_dir(src)
    before = (home / uc.USER_FILE).read_bytes()
    real = os.replace

    def broken(a: str, b: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(uc.os, "replace", broken)
    with pytest.raises(UserError, match="cannot write the user catalog"):
        uc.import_dir(src)
    monkeypatch.setattr(uc.os, "replace", real)
    assert (home / uc.USER_FILE).read_bytes() == before
    assert sorted(p.name for p in home.iterdir()) == sorted([uc.INDEX_FILE, uc.NAMES_FILE,
                                                             uc.USER_FILE])


def test_lookup_reads_one_record_through_the_index(tmp_path: Path, home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Naming an imported unit reads the index and that unit's byte range only (issue 19:
    no per-command read of the whole catalog); a stale index falls back to a full read."""
    src = tmp_path / "many"
    src.mkdir()
    base = mtf_text(get_classic("Hunchback HBK-4G")).replace("mul id:1552\n", "")
    for k in range(30):
        (src / f"u{k}.mtf").write_text(base.replace("model:HBK-4G", f"model:HBK-X{k}"))
    uc.import_dir(src)
    calls = []
    real_load, real_index = uc._load, uc._index
    monkeypatch.setattr(uc, "_load", lambda *a: calls.append(a) or ())
    monkeypatch.setattr(uc, "_index", lambda *a: calls.append(a))
    entry = lookup("Hunchback HBK-X17")
    assert entry.imported and entry.classic is not None and entry.classic.model == "HBK-X17"
    assert calls == []  # the whole catalog was never loaded
    with pytest.raises(UserError, match="ambiguous"):
        lookup("Hunchback HBK-X")
    assert calls == []  # neither the catalog nor its listing index
    monkeypatch.setattr(uc, "_load", real_load)
    monkeypatch.setattr(uc, "_index", real_index)
    index = uc.user_index()
    assert index is not None and len(index.rows) == 30
    names = uc.user_names()
    assert names is not None and len(names.lines) == 30
    # a stale name index (another catalog version) is ignored: the full read still names it
    (home / uc.NAMES_FILE).write_text("#btsim-names 1 0 0 0\n")
    uc._names.cache_clear()
    assert uc.user_names() is None and lookup("Hunchback HBK-X17").imported


@needs_corpus
def test_snub_nose_ppc_damage_by_range_bracket() -> None:
    """MegaMek ISSnubNosePPC: 10 / 8 / 5 damage at short / medium / long (9/13/15 hexes);
    a range script spanning brackets does not fire it, with the reason."""
    mech = read_unit_file(CORPUS / "Awesome AWS-10KM.mtf")
    assert completeness(mech) == "complete"
    got = {}
    for r in (1, 9, 10, 13, 14, 15):
        scn = build_scenario({"unit": mech, "gunnery": 4, "range": r, "turns": 1})
        got[r] = [g.max_damage() for g in scn.guns if g.key == "IS Snub-Nose PPC"]
    assert got == {1: [10], 9: [10], 10: [8], 13: [8], 14: [5], 15: [5]}
    scn = build_scenario({"unit": mech, "gunnery": 4, "ranges": "3,12", "turns": 2})
    assert not [g for g in scn.guns if g.key == "IS Snub-Nose PPC"]
    [row] = [r for r in scn.mount_rows if r["key"] == "IS Snub-Nose PPC"]
    assert "span brackets" in row["reason"]
