"""``btsim units``: list the built-in unit catalog and the imported units, show one unit,
or import a folder of ``.mtf`` files.

    btsim units [--json] [--filter TEXT|KEY=VALUE,...] [--tons T] [--year Y] [--tech T]
                [--role R]
    btsim units show NAME|FILE.mtf [--json] [--gunnery G --piloting P] [--edit KEY=VALUE]
    btsim units import DIR [--skipped FILE] [--json]
    btsim units bv|card NAME|FILE, btsim units check DIR (sim/cli/units_prices.py)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.errors import UserError

if TYPE_CHECKING:
    from sim.units.types import ASCard, ClassicMech

#: Columns of the plain-text listing, with their headings.
_TABLE_COLUMNS = {
    "name": "name", "tons": "tons", "walk_mp": "walk", "jump_mp": "jump", "year": "year",
    "bv": "BV", "pv": "PV", "simulated": "simulated", "from": "source",
    "as_size": "SZ", "as_move": "MV", "as_tmm": "TMM", "as_armor": "A",
    "as_structure": "S", "as_dmg": "S/M/L", "as_ov": "OV", "as_specials": "specials",
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
                   "(case-insensitive), or KEY=VALUE terms separated by commas with keys "
                   "name, tons, year, tech, role (e.g. 'tons=50-75,tech=clan')")
    _add_filter_flags(p)
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
    show.add_argument("--edit", action="append", default=[], metavar="KEY=VALUE",
                      help="show the unit changed by this edit (the syntax and checks of "
                      "`btsim units bv --edit`): its facts, its Battle Value and Point Value "
                      "computed for the edited design and its converted card, named "
                      "'NAME [edit]'; repeatable or ';'-separated")
    show.set_defaults(func=run)
    _register_import(actions)
    from sim.cli.units_prices import register_price_commands  # bv, card, check (issue 20)
    register_price_commands(actions)


def _add_filter_flags(p: argparse.ArgumentParser) -> None:
    """The listing's filters besides the name (:func:`sim.units.catalog.unit_filter`)."""
    p.add_argument("--tons", metavar="T", default=None,
                   help="only units of T tons, or a range such as 40-60")
    p.add_argument("--year", metavar="Y", default=None,
                   help="only units introduced in year Y or a range such as 3025-3067 (the "
                   "file's era: line)")
    p.add_argument("--tech", metavar="T", default=None,
                   help="only units whose tech base contains T (e.g. clan, 'inner sphere')")
    p.add_argument("--role", metavar="R", default=None,
                   help="only units whose role contains R (e.g. sniper)")


def _register_import(actions: Any) -> None:
    imp = actions.add_parser(
        "import", prog="btsim units import",
        help="import every .mtf under a folder into your own unit catalog",
        description="Read every .mtf file under DIR (recursively) and store the units' "
        "facts in your catalog ($BTSIM_HOME/units.json, default "
        "~/.local/share/btsim/units.json, with a listing and a name index beside it; the "
        "files' absolute paths are kept as their source) so they can be named like catalog "
        "units (a later import replaces units of the same name). Every .mtf path found is "
        "either imported or skipped with one reason: not a file (a folder, a dangling link, a "
        "FIFO), unreadable (the reader's error with file and line: truncated, binary or "
        "malformed files), not supported (tripod and LAM 'Mechs, QuadVees, IndustrialMechs, "
        "superheavies), shadowed by the catalog (a built-in unit with Classic data has that "
        "name; the catalog wins, name the file to use it), or duplicate of an earlier file "
        "with the same unit name. Every imported unit is complete or incomplete: the summary "
        "lists every weapon, ammunition, equipment, construction type and design quirk that "
        "btsim does not simulate, counted across the folder with the units that carry it (a "
        "weapon btsim does not simulate never fires; results with an incomplete unit say so "
        "in their notes; quads import incomplete, for fire and profile only). Each skipped "
        "path goes to stderr. The catalog and its indexes are written atomically. A folder "
        "with no .mtf file is an error (exit 2; the catalog is left as it was).")
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
        try:
            Path(args.skipped).write_text(
                "".join(f"{s.file}\t{s.reason}\n" for s in rep.skipped), "utf-8")
        except OSError as exc:  # a folder, a read-only place...: one line, exit 2
            raise UserError(f"--skipped: cannot write {args.skipped[:100]!r}: "
                            f"{exc.strerror or exc}") from None
    if getattr(args, "json", False):
        print(json.dumps(rep.as_dict(), indent=2))
        return 0
    counts = rep.counts()
    kinds = ", ".join(f"{k} {n}" for k, n in counts.items() if k != "imported" and n)
    n_done = rep.complete_count()
    print(f"{rep.found} .mtf path(s) under {args.folder}: imported {counts['imported']}"
          + (f" ({len(rep.replaced)} replacing earlier imports)" if rep.replaced else "")
          + f" ({n_done} complete, {counts['imported'] - n_done} incomplete)"
          + f", skipped {len(rep.skipped)}" + (f" ({kinds})" if kinds else "")
          + f"; catalog {rep.path}")
    items = [it for it in rep.items() if it["kind"] != "quirk"]
    quirks = [it for it in rep.items() if it["kind"] == "quirk"]
    if items:
        print("not simulated (units carrying it, item: reason [units]):")
        for it in items:
            units = ", ".join(it["units"][:5]) + (" ..." if len(it["units"]) > 5 else "")
            print(f"  {it['count']:4d}  {it['kind']} {it['name']}: {it['reason']} "
                  f"[{units}]")
    if quirks:
        print("design quirks (an optional rule btsim does not simulate; they do not make a "
              "unit incomplete): " + ", ".join(f"{q['name']} {q['count']}" for q in quirks))
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
    """BV and PV facts of ``m`` (issue 19: ``bv_source`` / ``pv_source`` are ``MUL record
    N`` or the reason there is none) and their text lines."""
    from sim.classic.bv import bv_facts
    f = bv_facts(m, getattr(args, "gunnery", 4), getattr(args, "piloting", 5))
    lines = []
    if f["bv"] is None:
        why = f["notes"][0].partition("no Battle Value known: ")[2] or f["notes"][0]
        why = why.split("; a duel takes it as")[0]
        f["bv_source"] = f"none: {why}"
        lines.append(f"  BV: unknown ({why})")
    else:
        f["bv_source"] = (f"MUL record {f['bv_record']}" if f["bv_record"] is not None
                          else f["bv_source"])
        lines.append(f"  BV {f['bv']} (gunnery 4 / piloting 5; {f['bv_source']}); at gunnery "
                     f"{f['gunnery']} / piloting {f['piloting']}: {f['bv_at_skill']}")
    f["pv"] = m.pv
    if m.pv is not None:
        f["pv_source"] = m.pv_source
        lines.append(f"  PV {m.pv} (Alpha Strike, skill 4; {m.pv_source})")
    else:
        why = ("its MUL record gives no Point Value" if m.bv_record is not None else
               f["bv_source"].removeprefix("none: ") if f["bv"] is None else
               "no MUL record found for it")
        f["pv_source"] = f"none: {why}"
        lines.append(f"  PV: unknown ({why})")
    return f, lines


def _simulated_lines(m: ClassicMech) -> tuple[dict[str, Any], list[str]]:
    """Completeness of ``m``: what btsim does not simulate and what has no effect."""
    from sim.units.usable import completeness, no_effect, not_simulated
    items, none = not_simulated(m), no_effect(m)
    doc = {"simulated": completeness(m),
           "not_simulated": [i._asdict() for i in items],
           "no_effect": [i._asdict() for i in none]}
    lines = [f"  simulated: {doc['simulated']}"]
    lines += [f"    not simulated: {i.text()}" for i in items]
    lines += [f"    no effect in a duel: {i.text()}" for i in none]
    return doc, lines


def _table(rows: list[list[str]]) -> str:
    """Rows of cells (the first: the headings) as right-aligned columns, one space apart."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(" ".join(c.rjust(w) for c, w in zip(r, widths, strict=True))
                     for r in rows)


def _list(args: argparse.Namespace) -> int:
    from sim.units.catalog import unit_rows

    rows = unit_rows(args.filter, tons=args.tons, year=args.year, tech=args.tech,
                     role=args.role)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print(f"no catalog or imported unit matches {args.filter!r}; `btsim units` lists "
              "them all")
        return 0
    cells = [list(_TABLE_COLUMNS.values())]
    for r in rows:
        r = {**r, "from": "catalog" if not r["imported"] else Path(str(r["source"])).name}
        line = ["-" if r[k] is None else str(r[k]) for k in _TABLE_COLUMNS]
        line[0] = r["name"] + (" (imported)" if r["imported"] else "")
        cells.append(line)
    print(_table(cells))
    n_imp = sum(bool(r["imported"]) for r in rows)
    n_inc = sum(r["simulated"] == "incomplete" for r in rows)
    print(f"\n{len(rows)} units"
          + (f" ({len(rows) - n_imp} built-in, {n_imp} imported)" if n_imp else "")
          + f"; Classic data for {sum(bool(r['classic']) for r in rows)}, "
          f"Alpha Strike cards for {sum(bool(r['alphastrike']) for r in rows)}"
          + (f"; {n_inc} incomplete (not everything simulated)" if n_inc else "")
          + ". `btsim units show NAME` for details.")
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
    quad = m.config == "Quad"
    for limb in ("LA", "RA", "LL", "RL"):
        # a quad's front legs are stored as LA/RA: they carry leg actuators
        legs = limb[1] == "L" or quad
        names = ("hip", "upper_leg", "lower_leg", "foot") if legs else (
            "shoulder", "upper_arm", "lower_arm", "hand")
        missing = [a for a in names if not m.has(limb, a)]
        label = f"{limb} (front leg)" if quad and limb[1] == "A" else limb
        lines.append(f"  {label} actuators: " + ", ".join(a for a in names if m.has(limb, a))
                     + (f" (missing: {', '.join(missing)})" if missing else ""))
    phys = ", ".join(f"{w} ({loc})" for w, loc in m.physical_weapons) or "none"
    lines.append(f"  physical weapons: {phys}")
    lines.append("  CASE: " + (", ".join(m.case_locations) or "none")
                 + ("; CASE II: " + ", ".join(m.case2_locations) if m.case2_locations else ""))
    lines.append("  weapons: " + (", ".join(f"{w} ({loc})" for w, loc in m.weapons) or "none"))
    lines.append("  quirks: " + (", ".join(m.quirks) or "none"))
    lines += _simulated_lines(m)[1]
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


def _edited(args: argparse.Namespace, mech: ClassicMech | None
            ) -> tuple[str, ClassicMech, ASCard | None, dict[str, Any]]:
    """``units show --edit`` (issue 20): the unit edited as ``units bv --edit`` edits it
    (:func:`sim.units.edited.edit_unit`; a bad edit names ``--edit``), its card the one
    converted from the edited design (reference-as-conversion.md; None with the reason when
    the design is outside the conversion's scope), and the prices before and after."""
    from sim.errors import ConfigError
    from sim.units.bv2.scope import OutOfScope
    from sim.units.edited import check_edit, edit_unit, edited_card
    if mech is None:
        raise ConfigError("--edit", "; ".join(args.edit), "an edit of a unit with Classic "
                          "data (a catalog 'Mech or an .mtf file); an Alpha Strike card has no "
                          "design to edit")
    from sim.cli.units_prices import computed_prices
    before = computed_prices(mech)
    edited = edit_unit(args.unit, args.edit, "--edit")
    facts: dict[str, Any] = {"edit": check_edit(args.edit, "--edit"), "edited": True,
                             "bv_unedited": before["bv_computed"],
                             "pv_unedited": before["pv_computed"]}
    card: ASCard | None = None
    try:
        card = edited_card(args.unit, args.edit, "--edit")
    except OutOfScope as exc:
        facts["card_refused"] = str(exc)
    return edited.name, edited, card, facts


def _show(args: argparse.Namespace) -> int:
    from sim.units.catalog import card_to_dict, mech_to_dict

    name, mech, card = _resolve(args.unit)
    edit_facts: dict[str, Any] = {}
    if getattr(args, "edit", None):
        name, mech, card, edit_facts = _edited(args, mech)
    bv, bv_text = _bv_lines(mech, args) if mech else ({}, [])
    pv_skill = _pv_at_skill(args, card)
    if args.json:
        classic = mech_to_dict(mech) if mech else None
        prices: dict[str, Any] = {}
        if classic is not None and mech is not None:
            prices = {k: bv[k] for k in ("bv", "bv_source", "pv", "pv_source")}
            classic.update({**prices, "bv_at_skill": bv["bv_at_skill"],
                            "gunnery": bv["gunnery"], "piloting": bv["piloting"],
                            **_simulated_lines(mech)[0]})
        doc: dict[str, Any] = {
            "name": name,
            "classic": classic,
            "alphastrike": card_to_dict(card) if card else None,
            **prices,
        }
        from sim.cli.units_prices import computed_prices  # issue 20
        if edit_facts and mech is not None:
            doc.update({"bv_computed": mech.bv, "pv_computed": mech.pv, **edit_facts})
        else:
            doc.update(computed_prices(mech))
        if pv_skill is not None:
            doc["skill"] = int(args.skill)
            doc["pv_at_skill"] = pv_skill
        print(json.dumps(doc, indent=2))
        return 0
    out = [name]
    out += (_mech_text(mech) + bv_text if mech
            else ["Classic: no data in the catalog (pass an .mtf file)"])
    out += _card_text(card) if card else (
        [f"Alpha Strike: no card converted ({edit_facts['card_refused']})"]
        if "card_refused" in edit_facts else ["Alpha Strike: no card in the catalog"])
    if pv_skill is not None:
        out.append(f"  PV at skill {int(args.skill)}: {pv_skill}")
    if edit_facts and mech is not None:
        out.append(f"edited {edit_facts['edit']}: " + "; ".join(
            f"{what} {_delta(old, new)}" for what, old, new in (
                ("BV", edit_facts["bv_unedited"], mech.bv),
                ("PV", edit_facts["pv_unedited"], mech.pv)))
            + " (computed from the design before and after the edit)")
    print("\n".join(out))
    return 0


def _delta(old: int | None, new: int | None) -> str:
    if old is None or new is None:
        return f"{old if old is not None else '-'} -> {new if new is not None else '-'}"
    return f"{old} -> {new} ({new - old:+d})"


def run(args: argparse.Namespace) -> int:
    """Entry point of ``btsim units``."""
    if getattr(args, "units_action", None) == "show":
        return _show(args)
    if getattr(args, "units_action", None) == "import":
        return _import(args)
    return _list(args)
