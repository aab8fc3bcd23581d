"""Battle Value 2 from the unit file (issue 20; reference-bv.md 20-27): the 14 worked examples
line by line (every intermediate number), the tables, each option's reading, the scope
refusals, and the corpus match count as a floor."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from units_helpers import MTF_DIR, SHARED_UNITS

from sim import options
from sim.units.bv2 import OutOfScope, battle_value
from sim.units.bv2 import tables as T
from sim.units.bv2.rules import BVRules
from sim.units.catalog import lookup
from sim.units.price_check import check_folder

REF = SHARED_UNITS.parent.parent / "rules" / "reference-bv.md"
CORPUS = SHARED_UNITS / "corpus"
needs_ref = pytest.mark.skipif(not REF.is_file() or not MTF_DIR.is_dir(),
                               reason=f"rules reference / unit files not found at {REF}")
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")


def _examples() -> list[tuple[str, int, list[str]]]:
    if not REF.is_file():
        return []
    text = REF.read_text(encoding="utf-8")
    return [(n, int(m), body.strip().split("\n")) for n, m, body in
            re.findall(r"#### (.*?) \(`mul id` (\d+)\).*?```\n(.*?)```", text, re.S)]


def _file(mul_id: int) -> Path:
    for p in sorted(MTF_DIR.glob("*.mtf")):
        if re.search(rf"mul id:\s*{mul_id}\b", p.read_text(encoding="utf-8", errors="replace")):
            return p
    raise AssertionError(f"no unit file with mul id {mul_id}")


@needs_ref
@pytest.mark.parametrize("name,mul_id,lines", _examples(), ids=lambda v: str(v)[:24])
def test_worked_example_every_step(name: str, mul_id: int, lines: list[str]) -> None:
    got = battle_value(_file(mul_id)).lines()
    assert got == lines


@needs_ref
def test_fourteen_worked_examples() -> None:
    assert len(_examples()) == 14


def test_speed_factor_table() -> None:
    # reference-bv.md 24.3
    table = {0: "0.44", 1: "0.54", 2: "0.65", 3: "0.77", 4: "0.88", 5: "1.00", 6: "1.12",
             7: "1.24", 8: "1.37", 9: "1.50", 10: "1.63", 11: "1.76", 12: "1.89", 13: "2.02",
             14: "2.16", 15: "2.30", 16: "2.44", 17: "2.58", 18: "2.72", 19: "2.86",
             20: "3.00"}
    for mp, want in table.items():
        assert T.speed_factor(mp) == Fraction(want), mp


def test_tmm_bands() -> None:
    want = [0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 4] + [4] * 7 + [5] * 7 + [6]
    assert [T.tmm(mp) for mp in range(26)] == want


def test_every_option_declared_with_reference() -> None:
    refs = sorted(options.spec(n).decl.ref for n in options.names(BVRules))
    assert refs == sorted(f"B{k}" for k in range(1, 15))


@needs_ref
def test_option_readings_change_the_steps() -> None:
    atlas = _file(140)
    base = battle_value(atlas)
    within = battle_value(atlas, {"bv_heat_cutoff": "within"})
    # B6: the rear medium laser that crosses 24 (sum 23 -> 26) counts half under (b)
    assert [w.full for w in base.offensive.weapons][-2] is True
    assert [w.full for w in within.offensive.weapons][-2] is False
    assert within.bv < base.bv
    loki = _file(1929)
    b = battle_value(loki)
    assert b.defensive.ams_ammo_bv == 22
    assert battle_value(loki, {"bv_clan_ams_ammo": "21"}).defensive.ams_ammo_bv == 21
    mg = [w for w in b.offensive.weapons if w.name == "CLMG"]
    boosted = [w for w in battle_value(loki, {"bv_tc_mg_flamer": True}).offensive.weapons
               if w.name == "CLMG"]
    assert mg[0].bv == 5 and boosted[0].bv == Fraction(25, 4)
    # B5: Loki's Clan ammo in the side torsos is free only with implicit CASE
    assert battle_value(loki, {"bv_clan_case": "listed"}).defensive.explosive > \
        b.defensive.explosive
    # B13: ratings rounded to 2 decimals (Axman OBR 740.485 -> 740.49)
    axman = battle_value(_file(184), {"bv_rounding": "ratings-2dp"})
    assert axman.offensive.obr == Fraction("740.49")


@needs_corpus
def test_masc_hardened_and_quad_readings() -> None:
    turtle = CORPUS / "Great Turtle GTR-1.mtf"
    b = battle_value(turtle)
    assert b.defensive.armor_multiplier == 2
    assert battle_value(turtle, {"bv_hardened_run": "ignore"}).defensive.run_mp == \
        b.defensive.run_mp + 1
    hitman = CORPUS / "Hitman HM-1.mtf"
    h = battle_value(hitman)
    assert battle_value(hitman, {"bv_masc_run": "ignored"}).defensive.run_mp < \
        h.defensive.run_mp


@needs_corpus
def test_out_of_scope_is_refused_with_the_reason() -> None:
    with pytest.raises(OutOfScope, match="ICE engine"):
        battle_value(CORPUS / "Hyena HYN-4B SalvageMech.mtf")
    with pytest.raises(OutOfScope, match="Primitive Cockpit"):
        battle_value(CORPUS / "Ostwar OWR-2M.mtf")


def test_catalog_unit_without_file_says_what_it_assumed() -> None:
    mech = lookup("Atlas AS7-D", "classic").classic
    assert mech is not None
    b = battle_value(mech)
    assert b.bv == 1897
    assert b.assumed and "standard assumed" in b.assumed[0]


#: measured on the 82 corpus files (issue 20): 68 compared, all exact, 14 refused
CORPUS_BV_EXACT_FLOOR = 68


@needs_corpus
def test_corpus_bv_match_floor_and_mismatch_list() -> None:
    res = check_folder(CORPUS)
    c = res.counts()
    assert c["bv_exact"] >= CORPUS_BV_EXACT_FLOOR, res.disagreements()
    bv_lines = [line for line in res.disagreements() if ": BV " in line]
    assert bv_lines == []
    assert c["bv_exact"] == c["bv_compared"]


def test_every_price_option_is_documented() -> None:
    from sim.units.as_conversion.rules import ConversionRules
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text("utf-8")
    body = doc.split("## Prices from the unit file", 1)[1]
    parts = re.split(r"^#### `([A-Za-z0-9_]+)`\s*$", body, flags=re.M)
    entries = dict(zip(parts[1::2], parts[2::2], strict=True))
    for cls in (BVRules, ConversionRules):
        for name in options.names(cls):
            decl = options.spec(name).decl
            assert name in entries, name
            default = str(decl.default).lower() if decl.kind == "bool" else decl.default
            assert f"`{default}` (default)" in entries[name], name
            for value in decl.readings:
                v = str(value).lower() if decl.kind == "bool" else value
                assert f"`{v}`" in entries[name], (name, v)


@needs_ref
@pytest.mark.parametrize("change,match", [
    (("mass:100", "mass:23"), "23 t"),
    (("walk mp:3", "walk mp:-3"), "0..1000"),
    (("la armor:34", "la armor:99"), "armor of LA 99 above the maximum 34"),
    (("mass:100", "mass:abc"), "integer for 'mass:'"),
])
def test_bad_files_are_user_errors(change: tuple[str, str], match: str) -> None:
    from sim.errors import UserError
    from sim.units.as_conversion import alpha_strike_card
    from sim.units.design.reader import read_design
    text = _file(140).read_text(encoding="utf-8")
    assert change[0] in text.lower()
    bad = re.sub(re.escape(change[0]), change[1], text, flags=re.I)
    for fn in (battle_value, alpha_strike_card):
        with pytest.raises(UserError, match=match):
            fn(read_design(bad, "bad.mtf"))


def test_bench_prices_shape() -> None:
    from sim.bench import format_table
    from sim.units.price_check import bench_prices
    p = bench_prices(20)
    assert p["units"] == 20 and p["priced"] + p["refused"] == 20 and p["seconds"] > 0
    res = {"btsim_version": "x", "chunk_size": 2**18, "kernels": [], "prices": p,
           "machine": {"cores": 2, "processor": "p", "python": "3", "numpy": "2"},
           "dice": {"numpy_integers_d6_per_s": 1e8, "d6_per_s": 1e8, "two_d6_per_s": 1e8}}
    assert "prices (BV 2 + converted AS card): 20 units in" in format_table(res)
