"""``btsim units``: list the built-in unit catalog and the imported units, show one unit,
or import a folder of ``.mtf`` files.

    btsim units [--json] [--filter TEXT]
    btsim units show NAME|FILE.mtf [--json] [--gunnery G --piloting P]
    btsim units import DIR [--skipped FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from sim.errors import UserError

if TYPE_CHECKING:
    from sim.units.types import ASCard, ClassicMech

#: Columns of the plain-text listing, with their headings.
_TABLE_COLUMNS = {
    "name": "name", "tons": "tons", "walk_mp": "walk", "jump_mp": "jump",
    "as_size": "SZ", "as_move": "MV", "as_tmm": "TMM", "as_armor": "A",
    "as_structure": "S", "as_dmg": "S/M/L", "as_ov": "OV", "as_pv": "PV",
    "as_specials": "specials",
}


def register(subparsers: Any) -> None:
    """Add ``units`` (and its ``show`` action) to the ``btsim`` parser."""
    p = subparsers.add_parser(
        "units", help="list the unit catalog (built-in and imported) or show one unit",
        usage="btsim units [-h] [--json] [--filter TEXT]\n"
              "       btsim units show [-h] [--json] NAME|FILE\n"
              "       btsim units import [-h] [--json] [--skipped FILE] DIR",
        description="List the built-in unit catalog (Classic 'Mech facts and Alpha Strike "
        "cards) together with the units you imported (`btsim units import DIR`; marked "
        "'(imported)'), or show one unit with `btsim units show NAME|FILE.mtf`.",
        epilog='examples:\n  btsim units --filter loki\n  btsim units show "Atlas AS7-D"'
        '\n  btsim units show path/to/Unit.mtf --json',
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--filter", metavar="TEXT", default="",
                   help="only units (catalog and imported) whose name contains TEXT "
                   "(case-insensitive)")
    p.set_defaults(func=run)
    actions = p.add_subparsers(dest="units_action", metavar="ACTION")
    show = actions.add_parser("show", prog="btsim units show",
                              help="show one unit (Classic and Alpha Strike sides)",
                              description="Show one unit: a catalog or imported unit name "
                              "(unique prefixes work; a prefix that matches several units is "
                              "an error listing them) or an .mtf file (its Battle Value from "
                              "btsim's BV catalog by the file's MUL id, else by its name).")
    show.add_argument("unit", metavar="NAME|FILE", help="catalog name or .mtf file")
    show.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                      help="print JSON instead of text")
    _add_bv_flags(show)
    show.add_argument("--skill", default=None, metavar="S",
                      help="also give the card's PV at skill S (0-7; reference-as-combat 23.1)")
    show.set_defaults(func=run)
    _register_import(actions)


def _register_import(actions: Any) -> None:
    imp = actions.add_parser(
        "import", prog="btsim units import",
        help="import every .mtf under a folder into your own unit catalog",
        description="Read every .mtf file under DIR (recursively), keep the units btsim can "
        "use, and store their facts in your catalog ($BTSIM_HOME/units.json, default "
        "~/.local/share/btsim/units.json; the files' absolute paths are kept as their source) "
        "so they can be named like catalog units (a later import replaces units of the same "
        "name). Every .mtf path found is either imported or skipped with one reason: not a "
        "file (a folder, a dangling link), unreadable (the reader's error with file and "
        "line), unsupported equipment (a weapon btsim's weapon table lacks: the fire and duel "
        "models cannot fire it, so the unit is not imported), shadowed by the catalog (a "
        "built-in unit with Classic data has that name; the catalog wins, name the file to "
        "use it), or duplicate of an earlier file with the same unit name. The counts per "
        "outcome are printed; each skipped path goes to stderr. A folder with no .mtf "
        "file is an error (exit 2; the catalog is left as it was).")
    imp.add_argument("folder", metavar="DIR", help="folder with .mtf files (searched recursively)")
    imp.add_argument("--skipped", metavar="FILE",
                     help="also write the skipped files and reasons to FILE")
    imp.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                     help="print JSON instead of text")
    imp.set_defaults(func=run)


def _import(args: argparse.Namespace) -> int:
    from sim.units.user_catalog import import_dir
    rep = import_dir(args.folder)
    if args.skipped:
        from pathlib import Path
        Path(args.skipped).write_text("".join(f"{s.file}\t{s.reason}\n" for s in rep.skipped),
                                      "utf-8")
    if getattr(args, "json", False):
        print(json.dumps(rep.as_dict(), indent=2))
        return 0
    counts = rep.counts()
    kinds = ", ".join(f"{k} {n}" for k, n in counts.items() if k != "imported" and n)
    print(f"{rep.found} .mtf path(s) under {args.folder}: imported {counts['imported']}"
          + (f" ({len(rep.replaced)} replacing earlier imports)" if rep.replaced else "")
          + f", skipped {len(rep.skipped)}" + (f" ({kinds})" if kinds else "")
          + f"; catalog {rep.path}")
    for s in rep.skipped:
        print(f"skipped {s.file}: {s.reason}", file=sys.stderr)
    for w in rep.warnings:
        print(f"warning: {w}", file=sys.stderr)
    return 0


def _add_bv_flags(p: argparse.ArgumentParser) -> None:
    """Classic skills for the Battle Value shown by ``units show`` (reference-as-combat 24.2)."""
    p.add_argument("--gunnery", type=int, default=4, help="Classic gunnery for BV, 0-8 (default 4)")
    p.add_argument("--piloting", type=int, default=5,
                   help="Classic piloting for BV, 0-8 (default 5)")


def _bv_lines(m: ClassicMech, args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    from sim.classic.bv import bv_facts
    f = bv_facts(m, getattr(args, "gunnery", 4), getattr(args, "piloting", 5))
    if f["bv"] is None:
        why = f["notes"][0].partition("no Battle Value known: ")[2] or f["notes"][0]
        return f, [f"  BV: unknown ({why})"]
    src = f"; {f['bv_source']}" + (f" record {f['bv_record']}" if f["bv_record"] else "")
    return f, [f"  BV {f['bv']} (gunnery 4 / piloting 5{src}); at gunnery {f['gunnery']} / "
               f"piloting {f['piloting']}: {f['bv_at_skill']}"]


def _table(rows: list[list[str]]) -> str:
    """Rows of cells (the first: the headings) as right-aligned columns, one space apart."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(" ".join(c.rjust(w) for c, w in zip(r, widths, strict=True))
                     for r in rows)


def _list(args: argparse.Namespace) -> int:
    from sim.units.catalog import unit_rows

    rows = unit_rows(args.filter)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print(f"no catalog or imported unit matches {args.filter!r}; `btsim units` lists "
              "them all")
        return 0
    cells = [list(_TABLE_COLUMNS.values())]
    for r in rows:
        line = ["-" if r[k] is None else str(r[k]) for k in _TABLE_COLUMNS]
        line[0] = r["name"] + (" (imported)" if r["imported"] else "")
        cells.append(line)
    print(_table(cells))
    n_imp = sum(bool(r["imported"]) for r in rows)
    print(f"\n{len(rows)} units"
          + (f" ({len(rows) - n_imp} built-in, {n_imp} imported)" if n_imp else "")
          + f"; Classic data for {sum(bool(r['classic']) for r in rows)}, "
          f"Alpha Strike cards for {sum(bool(r['alphastrike']) for r in rows)}. "
          "`btsim units show NAME` for details.")
    return 0


def _resolve(name: str) -> tuple[str, ClassicMech | None, ASCard | None]:
    """The unit to show: an .mtf file (plus its catalog card by MUL id) or a catalog name."""
    from sim.units.catalog import get_alphastrike, get_classic, lookup

    if name.lower().endswith(".mtf"):
        mech = get_classic(name)
        card = None
        try:
            card = get_alphastrike(name)
        except UserError:
            pass
        return mech.name, mech, card
    if name.lower().endswith((".csv", ".json")):
        card = get_alphastrike(name)
        return card.name, None, card
    entry = lookup(name)  # the catalog and the imported units
    return entry.name, entry.classic, entry.card


def _mech_text(m: ClassicMech) -> list[str]:
    from sim.units.types import LOCATIONS

    lines = [
        f"Classic: {m.tons} t {m.tech_base} {m.config}{' OmniMek' if m.omni else ''}"
        + (f", MUL id {m.mul_id}" if m.mul_id else ""),
        f"  MP walk/run/jump: {m.walk_mp}/{m.run_mp}/{m.jump_mp}; myomer {m.myomer}"
        + (" (TSM)" if m.tsm else "") + f"; heat sinks {m.heat_sinks} {m.heat_sink_type}",
        "  armor (front/rear) / internal: " + ", ".join(
            f"{loc} {m.armor.get(loc, 0)}"
            + (f"/{m.armor[loc + 'R']}" if loc + "R" in m.armor else "")
            + f" / {m.internal.get(loc, 0)}" for loc in LOCATIONS),
        f"  armor total {sum(m.armor.values())}, internal total {sum(m.internal.values())}",
    ]
    for limb in ("LA", "RA", "LL", "RL"):
        missing = m.missing_actuators(limb)
        lines.append(f"  {limb} actuators: " + ", ".join(
            a for a in (("shoulder", "upper_arm", "lower_arm", "hand") if limb[1] == "A"
                        else ("hip", "upper_leg", "lower_leg", "foot")) if m.has(limb, a))
            + (f" (missing: {', '.join(missing)})" if missing else ""))
    phys = ", ".join(f"{w} ({loc})" for w, loc in m.physical_weapons) or "none"
    lines.append(f"  physical weapons: {phys}")
    lines.append("  CASE: " + (", ".join(m.case_locations) or "none")
                 + ("; CASE II: " + ", ".join(m.case2_locations) if m.case2_locations else ""))
    lines.append("  weapons: " + (", ".join(f"{w} ({loc})" for w, loc in m.weapons) or "none"))
    lines.append("  quirks: " + (", ".join(m.quirks) or "none"))
    from sim.units.usable import unusable_reason
    why = unusable_reason(m)
    if why is not None:
        lines.append(f"  not usable by the fire model or the duel: {why}")
    lines.append(f"  source: {m.source}")
    return lines


def _card_text(c: ASCard) -> list[str]:
    dmg = "/".join("0*" if c.minimal[k] else str(c.damage[k]) for k in range(4))
    move = f'{c.move}"' + (f' / {c.jump}"j' if c.jump else "")
    return [
        f"Alpha Strike: {c.type}, size {c.size}, move {move}, TMM {c.tmm}",
        f"  armor {c.armor}, structure {c.structure}, damage S/M/L/E {dmg}, OV {c.ov}, "
        f"PV {c.pv if c.pv is not None else '-'}",
        f"  specials: {c.specials_raw or 'none'}",
        f"  source: {c.source}",
    ]


def _pv_at_skill(args: argparse.Namespace, card: ASCard | None) -> int | None:
    """The card's PV at ``--skill`` (None without ``--skill``); exit 2 without a card PV."""
    from sim.alphastrike.pv import pv_at_skill
    from sim.errors import check_int

    skill = getattr(args, "skill", None)
    if skill is None:
        return None
    skill = check_int("skill", skill, 0, 7)
    if card is None or card.pv is None:
        raise UserError(f"--skill: {args.unit!r} has no Alpha Strike card with a PV")
    return pv_at_skill(card.pv, skill)


def _show(args: argparse.Namespace) -> int:
    from sim.units.catalog import card_to_dict, mech_to_dict

    name, mech, card = _resolve(args.unit)
    bv, bv_text = _bv_lines(mech, args) if mech else ({}, [])
    pv_skill = _pv_at_skill(args, card)
    if args.json:
        classic = mech_to_dict(mech) if mech else None
        if classic is not None:
            classic.update({"bv": bv["bv"], "bv_at_skill": bv["bv_at_skill"],
                            "gunnery": bv["gunnery"], "piloting": bv["piloting"]})
        doc: dict[str, Any] = {
            "name": name,
            "classic": classic,
            "alphastrike": card_to_dict(card) if card else None,
        }
        if pv_skill is not None:
            doc["skill"] = int(args.skill)
            doc["pv_at_skill"] = pv_skill
        print(json.dumps(doc, indent=2))
        return 0
    out = [name]
    out += (_mech_text(mech) + bv_text if mech
            else ["Classic: no data in the catalog (pass an .mtf file)"])
    out += _card_text(card) if card else ["Alpha Strike: no card in the catalog"]
    if pv_skill is not None:
        out.append(f"  PV at skill {int(args.skill)}: {pv_skill}")
    print("\n".join(out))
    return 0


def run(args: argparse.Namespace) -> int:
    """Entry point of ``btsim units``."""
    if getattr(args, "units_action", None) == "show":
        return _show(args)
    if getattr(args, "units_action", None) == "import":
        return _import(args)
    return _list(args)
