"""``docs/rules.md`` stays in step with the code (issue 9, "the project documents its own rules").

Every rule option (each field of ``ClassicRules`` and ``ASRules``) must have its own entry in
the "Rule options" section, with its default and every allowed value of a string option, and
a row in the options table whose preset columns match what each preset really sets. Every
preset must be named in the presets table. The tables the document reproduces (dice odds,
hit locations, damage by tonnage, internal structure, Alpha Strike critical hits) must match
the code's tables, and every link of the table of contents must reach an anchor.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import sim.alphastrike.rules as as_rules
import sim.alphastrike.tables as as_tables
import sim.classic.rules as classic_rules
from sim.classic import damage as D
from sim.classic import tables as T
from sim.dice import P2D6
from sim.units.tables import INTERNAL_STRUCTURE

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"

#: (game label in the presets table, option class, its rules module, presets of the module).
GAMES: tuple[tuple[str, type, ModuleType, dict[str, Any]], ...] = (
    ("Classic", classic_rules.ClassicRules, classic_rules, getattr(classic_rules, "PRESETS", {})),
    ("Alpha Strike", as_rules.ASRules, as_rules, getattr(as_rules, "PRESETS", {})),
)


def _presets(game: str, presets: dict[str, Any]) -> dict[str, Any]:
    """The presets of ``game``; skip (saying why) if the rules module no longer exposes them
    as ``PRESETS`` -- then this test must be pointed at the new registry."""
    if not presets:
        pytest.skip(f"{game} presets not found as PRESETS in its rules module")
    return presets

#: Options documented before their field lands in this branch (another helper adds them).
PENDING: dict[str, tuple[str, tuple[str, ...]]] = {"immobile_psr": ("auto-fail", ("auto-fail", "roll"))}


@pytest.fixture(scope="module")
def text() -> str:
    return DOC.read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    """The body of the ``## title`` section (up to the next ``## `` heading)."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"docs/rules.md has no section '## {title}'"
    return m.group(1)


def _option_blocks(text: str) -> dict[str, str]:
    """Rule options section: ``#### `name` `` heading -> the text under it."""
    body = _section(text, "Rule options")
    parts = re.split(r"^#### `([A-Za-z0-9_]+)`\s*$", body, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def _render(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _cells(line: str) -> list[str]:
    return [c.strip().strip("`").replace("\u2212", "-") for c in line.strip().strip("|").split("|")]


def _table_after(body: str, header_start: str) -> list[list[str]]:
    """Rows (cells) of the first Markdown table whose header line starts with ``header_start``;
    the first row returned is the header."""
    lines = body.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(header_start):
            rows = [_cells(line)]
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append(_cells(row))
            return rows
    raise AssertionError(f"docs/rules.md has no table starting {header_start!r}")


def _fields(cls: type) -> list[dataclasses.Field]:
    return list(dataclasses.fields(cls))


def _choices(module: ModuleType, field: dataclasses.Field) -> tuple[str, ...]:
    """Allowed values of a string option, wherever the code declares them."""
    allowed = field.metadata.get("allowed") if field.metadata else None
    if allowed and all(isinstance(a, str) for a in allowed):
        return tuple(allowed)
    for name in ("CHOICES", "_CHOICES"):
        table = getattr(module, name, None)
        if isinstance(table, dict) and field.name in table:
            return tuple(table[field.name])
    return ()


def test_documented_doc_exists() -> None:
    assert DOC.is_file(), "docs/rules.md is missing"


@pytest.mark.parametrize("game", [g[0] for g in GAMES])
def test_every_option_has_an_entry_with_its_default(text: str, game: str) -> None:
    _, cls, module, _ = next(g for g in GAMES if g[0] == game)
    blocks = _option_blocks(text)
    missing = [f.name for f in _fields(cls) if f.name not in blocks]
    assert not missing, f"rule options without an entry in docs/rules.md: {missing}"
    for f in _fields(cls):
        block = blocks[f.name].replace("\u2212", "-")
        default = _render(f.default)
        said = re.search(rf"`{re.escape(default)}` \(default|[Dd]efault `{re.escape(default)}`",
                         block)
        assert said, f"{f.name}: its entry does not mark `{default}` as the default"
        for value in _choices(module, f):
            assert f"`{value}`" in block, f"{f.name}: allowed value `{value}` not documented"


@pytest.mark.parametrize("game", [g[0] for g in GAMES])
def test_options_table_matches_presets(text: str, game: str) -> None:
    """The options table of each game: one row per option, one column per preset, and every
    cell equal to what that preset really sets."""
    _, cls, _, presets = next(g for g in GAMES if g[0] == game)
    presets = _presets(game, presets)
    body = _section(text, "Rule options")
    rows = _table_after(body.split(f"### {game} options", 1)[1], "| Option |")
    header, data = rows[0], {r[0]: r for r in rows[1:]}
    for name in presets:
        assert name in header, f"{game} options table has no column for preset {name!r}"
    for f in _fields(cls):
        assert f.name in data, f"{game} options table has no row for {f.name}"
        row = data[f.name]
        for preset_name, preset in presets.items():
            got = row[header.index(preset_name)]
            want = _render(getattr(preset, f.name))
            assert got == want, (f"{game} table, {f.name}, preset {preset_name}: "
                                 f"documented {got!r}, code {want!r}")


def test_pending_options_are_documented(text: str) -> None:
    """Options another helper adds (D22 ``immobile_psr``) are documented now; once the field
    exists, its default and values must agree with the entry."""
    blocks = _option_blocks(text)
    classic = {f.name: f for f in _fields(classic_rules.ClassicRules)}
    for name, (default, values) in PENDING.items():
        assert name in blocks, f"{name} has no entry in docs/rules.md"
        for v in values:
            assert f"`{v}`" in blocks[name]
        assert f"`{default}` (default)" in blocks[name]
        if name in classic:
            assert classic[name].default == default


def test_every_preset_is_named(text: str) -> None:
    body = _section(text, "Rule options")
    rows = _table_after(body, "| Game | Preset |")[1:]
    named = {(r[0], r[1]) for r in rows}
    for game, _, _, presets in GAMES:
        for name in _presets(game, presets):
            assert (game, name) in named, f"preset {name!r} of {game} not in the presets table"


def test_table_of_contents_links_resolve(text: str) -> None:
    anchors = set(re.findall(r'<a id="([a-z0-9-]+)"></a>', text))
    links = set(re.findall(r"\]\(#([a-z0-9-]+)\)", text))
    assert links, "no internal links found"
    assert links <= anchors, f"links without an anchor: {sorted(links - anchors)}"
    for title in ("Classic physical attacks", "Piloting skill rolls and falls",
                  "Alpha Strike heat", "Units", "Rule options", "Worked examples"):
        _section(text, title)


# --- the reproduced tables are the code's tables ---------------------------------------------
def test_dice_odds_row(text: str) -> None:
    row = next(_cells(ln) for ln in text.splitlines() if ln.startswith("| P(2D6"))
    want = [round(36 * float(P2D6[t:].sum())) for t in range(3, 13)]
    assert [int(c) for c in row[2:12]] == want and row[1] == "36" and row[12] == "0"


def _loc_table(text: str, title: str) -> dict[int, list[str]]:
    rows = _table_after(text.split(f"**{title}", 1)[1], "| ")
    out: dict[int, list[str]] = {}
    for r in rows[1:]:
        first = r[0].split()[0]
        lo, _, hi = first.replace("\u2013", "-").partition("-")
        for roll in range(int(lo), int(hi or lo) + 1):
            out[roll] = r[1:]
    return out


@pytest.mark.parametrize("title,table,dice", [
    ("Standard table (2D6)", T.STANDARD, range(2, 13)),
    ("Punch table (1D6)", T.PUNCH, range(1, 7)),
    ("Kick table (1D6)", T.KICK, range(1, 7)),
])
def test_location_tables(text: str, title: str, table: Any, dice: range) -> None:
    doc = _loc_table(text, title)
    order = ("left", "front", "rear", "right")
    for roll in dice:
        want = [T.LOCATIONS[table[T.SIDE[s], roll]] for s in order]
        assert doc[roll] == want, f"{title}, roll {roll}"


def test_damage_by_tonnage_table(text: str) -> None:
    rules = classic_rules.ClassicRules()
    rows = _table_after(text, "| Tons | Punch |")[1:]
    assert [int(r[0]) for r in rows] == list(range(20, 105, 5))
    for r in rows:
        w = int(r[0])
        want = [D.punch(w, 0, False, rules), D.kick(w, 0, False, rules),
                D.club(w, False, rules), D.dfa(w, rules), D.dfa_self(w), D.fall(w, 0),
                D.fall(w, 2)]
        assert [int(c) for c in r[1:]] == want, f"{w} t"


def test_internal_structure_table(text: str) -> None:
    rows = _table_after(text, "| Tons | HD |")[1:]
    assert {int(r[0]) for r in rows} == set(INTERNAL_STRUCTURE)
    for r in rows:
        hd, ct, st, arm, leg = INTERNAL_STRUCTURE[int(r[0])]
        total = hd + ct + 2 * (st + arm + leg)
        assert [int(c) for c in r[1:]] == [hd, ct, st, arm, leg, total, 9 + 2 * (total - 3)]


def test_alpha_strike_crit_table(text: str) -> None:
    names = {"Ammo Hit": as_tables.CRIT_AMMO, "Engine Hit": as_tables.CRIT_ENGINE,
             "Fire Control Hit": as_tables.CRIT_FC, "no critical hit": as_tables.CRIT_NONE,
             "Weapon Hit": as_tables.CRIT_WEAPON, "MP Hit": as_tables.CRIT_MP,
             "Unit Destroyed": as_tables.CRIT_DESTROYED}
    rows = _table_after(_section(text, "Alpha Strike heat"), "| 2D6 | Result |")[1:]
    assert [int(r[0]) for r in rows] == list(range(2, 13))
    for r in rows:
        roll = int(r[0])
        assert names[r[1]] == as_tables.CRIT_MECH[roll], f"crit roll {roll}"
        assert r[2] == f"{round(36 * float(P2D6[roll]))}/36"


# --- Classic weapon fire (issue 11) ------------------------------------------------------------
FIRE_SECTION = "Classic weapon fire and the heat scale"


def _fire_option_blocks(text: str) -> dict[str, str]:
    body = _section(text, FIRE_SECTION)
    parts = re.split(r"^#### `([A-Za-z0-9_]+)`\s*$", body, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


# --- Alpha Strike engagements (the duel model) ---------------------------------------------
def _duel_blocks(text: str) -> dict[str, str]:
    """Alpha Strike engagements section: ``#### `name` `` heading -> the text under it."""
    body = _section(text, "Alpha Strike engagements")
    parts = re.split(r"^#### `([A-Za-z0-9_]+)`\s*$", body, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def _fire_decls() -> list[tuple[str, Any]]:
    from sim import options
    from sim.classic.fire.rules import FireRules

    return [(f.name, f.metadata[options.META_KEY]) for f in dataclasses.fields(FireRules)]


def test_fire_options_have_entries_and_table_rows(text: str) -> None:
    """Every FireRules option (registered for the fire and profile models) has its own entry
    in the weapon-fire section, marks its default, lists every allowed value of a choice
    option, and has a row in the options table with its reference, values and default."""
    blocks = _fire_option_blocks(text)
    body = _section(text, FIRE_SECTION)
    rows = {r[0]: r for r in _table_after(body, "| Option | Ref |")[1:]}
    for name, decl in _fire_decls():
        assert name in blocks, f"fire option {name} has no entry in docs/rules.md"
        block = blocks[name].replace("\u2212", "-")
        default = _render(decl.default)
        assert re.search(rf"`{re.escape(default)}` \(default|[Dd]efault `{re.escape(default)}`",
                         block), f"{name}: its entry does not mark `{default}` as the default"
        if decl.ref[0] in "CD":   # a numbered disagreement is named in its entry
            assert decl.ref in block, f"{name}: its entry does not cite {decl.ref}"
        if decl.kind == "choice":
            for value in decl.allowed:
                assert f"`{value}`" in block, f"{name}: allowed value `{value}` not documented"
        assert name in rows, f"fire options table has no row for {name}"
        ref, values, dflt = rows[name][1:4]
        assert ref == decl.ref and dflt == default, name
        if decl.kind == "choice":
            assert [v.strip() for v in values.split(",")] == list(decl.allowed), name
        elif decl.kind == "int":
            assert values.replace("\u2013", "-") == f"{decl.allowed[0]}-{decl.allowed[1]}", name
    assert set(rows) == {n for n, _ in _fire_decls()}


def test_cluster_table_is_the_codes(text: str) -> None:
    from sim.classic.fire.cluster import ROWS

    rows = _table_after(_section(text, FIRE_SECTION), "| Salvo |")
    assert rows[0][1:] == [str(r) for r in range(2, 13)]
    assert {int(r[0]): tuple(int(c) for c in r[1:]) for r in rows[1:]} == ROWS


def test_heat_scale_table_is_the_codes(text: str) -> None:
    from sim.classic.fire import heat as H

    rows = _table_after(_section(text, FIRE_SECTION), "| Heat | Walk MP lost |")[1:]
    seen = set()
    for r in rows:
        first = r[0].replace("\u2013", "-").rstrip("+")
        lo, _, hi = first.partition("-")
        for h in range(int(lo), int(hi or lo) + 1):
            seen.add(h)
            mp = "(shut down)" if h >= H.AUTO_SHUTDOWN else str(int(H.MP_LOSS[h]))
            sd, am = int(H.SHUTDOWN_AVOID[h]), int(H.AMMO_AVOID[h])
            want = [mp, f"+{int(H.TO_HIT[h])}",
                    "—" if sd == 0 else ("automatic" if sd >= 13 else f"{sd}+"),
                    "—" if am == 0 else f"{am}+"]
            assert r[1:] == want, f"heat {h}"
    assert seen == set(range(0, H.HEAT_TOP + 1))
def test_every_duel_option_is_documented(text: str) -> None:
    """Each DuelRules option has an entry in "Alpha Strike engagements" naming its reference,
    marking its default and listing every allowed value of a choice option; no entry is left
    for an option that no longer exists."""
    from sim import options
    from sim.alphastrike.duel.rules import DuelRules

    blocks = _duel_blocks(text)
    fields = {f.name: f for f in _fields(DuelRules)}
    assert set(blocks) == set(fields), (sorted(set(fields) - set(blocks)),
                                        sorted(set(blocks) - set(fields)))
    for name, f in fields.items():
        decl = options.spec(name).decl
        block = blocks[name].replace("\u2212", "-")
        assert block.lstrip().startswith(decl.ref + "."), f"{name}: entry should start {decl.ref}."
        default = _render(f.default)
        said = re.search(rf"`{re.escape(default)}` \(default|[Dd]efault `{re.escape(default)}`",
                         block)
        assert said, f"{name}: its entry does not mark `{default}` as the default"
        if decl.kind == "choice":
            for value in decl.allowed:
                assert f"`{value}`" in block, f"{name}: allowed value `{value}` not documented"


def test_duel_section_names_every_closing_policy_and_special_group(text: str) -> None:
    from sim.alphastrike.duel.scenario import CLOSING
    from sim.alphastrike.duel.specials import PENDING

    body = _section(text, "Alpha Strike engagements")
    for policy in CLOSING:
        assert f"`{policy}`" in body, f"closing policy {policy} not documented"
    for code in PENDING:
        assert code in body, f"unsimulated special {code} not named"


def test_every_classic_duel_option_is_documented(text: str) -> None:
    """Each ClassicDuelRules option has an entry in "Classic engagements" starting with its
    reference, marking its default and listing every allowed value, and a row in the duel
    options table with its reference, values and default."""
    from sim import options
    from sim.classic.duel.rules import ClassicDuelRules

    body = _section(text, "Classic engagements")
    parts = re.split(r"^#### `([A-Za-z0-9_]+)`\s*$", body, flags=re.M)
    blocks = {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}
    rows = {r[0].strip("`"): r for r in _table_after(body, "| Option | C |")[1:]}
    fields = {f.name: f for f in _fields(ClassicDuelRules)}
    assert set(blocks) == set(fields) == set(rows), (sorted(blocks), sorted(rows))
    for name, f in fields.items():
        decl = options.spec(name).decl
        block = blocks[name]
        assert block.lstrip().startswith(decl.ref + "."), f"{name}: entry should start {decl.ref}."
        default = _render(f.default)
        assert f"`{default}` (default" in block, f"{name}: default `{default}` not marked"
        values = decl.allowed if decl.kind == "choice" else (True, False)
        for value in values:
            assert f"`{_render(value)}`" in block, f"{name}: value `{value}` not documented"
        ref, vals, dflt = rows[name][1:4]
        assert ref == (decl.ref if decl.ref[0] == "C" else "—") and dflt == default, name
        assert [v.strip() for v in vals.split(",")] == [_render(v) for v in values], name


def test_every_classic_physical_option_is_documented(text: str) -> None:
    """Each ClassicPhysicalRules option has a row in "Classic engagements" listing its values,
    the default first, and what it decides."""
    from sim import options
    from sim.classic.duel.physical_rules import ClassicPhysicalRules

    body = _section(text, "Classic engagements")
    rows = {r[0].strip("`"): r for r in _table_after(body, "| option | values (default first)")
            [1:]}
    fields = {f.name: f for f in _fields(ClassicPhysicalRules)}
    assert set(rows) == set(fields), (sorted(rows), sorted(fields))
    for name, f in fields.items():
        decl = options.spec(name).decl
        allowed = decl.allowed if decl.kind == "choice" else (True, False)
        values = [_render(f.default)] + [_render(v) for v in allowed if v != f.default]
        assert [v.strip().strip("`") for v in rows[name][1].split(",")] == values, name
        assert rows[name][2].strip(), f"{name}: no description"
