"""``btsim units bv|card|check``: prices computed from the unit file (issue 20).

    btsim units bv NAME|FILE [--json] [--rule NAME=VALUE] [--edit KEY=VALUE]
                             [--gunnery G --piloting P]
    btsim units card NAME|FILE [--json] [--rule NAME=VALUE] [--edit KEY=VALUE] [--skill S]
    btsim units check DIR [--json] [--mul FILE] [--cards FILE] [--rule NAME=VALUE]
    btsim units costs [NAME|FILE ...] [--range BAND] [--json]

Battle Value 2 (:func:`sim.units.bv2.battle_value`, reference-bv.md 21-22) with every step;
the converted Alpha Strike card (:func:`sim.units.as_conversion.alpha_strike_card`) with its
derivation and, where the catalog ships the MUL card, that card beside it with the differing
fields marked; and a folder checked against the MUL (:mod:`sim.units.price_check`).
:func:`register_price_commands` adds the three actions to ``btsim units``
(:mod:`sim.cli.units`); :func:`computed_prices` gives ``units show --json`` its
``bv_computed`` and ``pv_computed``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from sim import options
from sim.errors import ConfigError, UserError
from sim.units.as_conversion import alpha_strike_card
from sim.units.as_conversion.rules import ConversionRules
from sim.units.bv2 import battle_value
from sim.units.bv2.rules import BVRules
from sim.units.bv2.scope import OutOfScope
from sim.units.design.reader import Design, design_of, read_design_file
from sim.units.types import ASCard, ClassicMech


def register_price_commands(actions: Any) -> None:
    """Add ``bv``, ``card`` and ``check`` to the ``units`` action subparsers."""
    bv = actions.add_parser(
        "bv", prog="btsim units bv", help="Battle Value 2 computed from the unit, every step",
        description="Compute Battle Value 2 (reference-bv.md 21-22) of a catalog or imported "
        "unit or an .mtf file and print every step (defensive and offensive ratings) as the "
        "reference's worked examples do. A unit outside the reference's scope is refused with "
        "the reason (exit 2).")
    bv.add_argument("unit", metavar="NAME|FILE", help="catalog name or .mtf file")
    bv.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                    help="print JSON instead of text")
    bv.add_argument("--gunnery", type=int, default=4, help="also the BV at this gunnery (0-8)")
    bv.add_argument("--piloting", type=int, default=5, help="also the BV at this piloting (0-8)")
    _rule_flag(bv, "a Battle Value option B1-B14 (`btsim rules --game battle-value`)")
    _edit_flag(bv)
    bv.set_defaults(func=_bv)
    card = actions.add_parser(
        "card", prog="btsim units card",
        help="the Alpha Strike card converted from the unit, with its derivation",
        description="Convert a catalog or imported unit or an .mtf file to an Alpha Strike "
        "card (reference-as-conversion.md): the card, each weapon's contribution, the heat "
        "step, the PV arithmetic, and the shipped MUL card beside it with differing fields "
        "marked '*'.")
    card.add_argument("unit", metavar="NAME|FILE", help="catalog name or .mtf file")
    card.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                      help="print JSON instead of text")
    card.add_argument("--skill", type=int, default=4, help="PV at this skill (0-7, default 4)")
    _rule_flag(card, "a conversion option V1-V10 (`btsim rules --game as-conversion`)")
    _edit_flag(card)
    card.set_defaults(func=_card)
    chk = actions.add_parser(
        "check", prog="btsim units check",
        help="computed BV / PV / cards of a folder of .mtf files against the MUL",
        description="Compute BV and the converted card of every .mtf under DIR and print every "
        "disagreement with the MUL (BV and PV from mul_mechs.csv, cards from alphastrike.csv, "
        "joined on the file's 'mul id:'), with the step that produced the value, then the "
        "refused units and the match counts. The MUL is not always right: a mismatch is "
        "reported, not tuned away.")
    chk.add_argument("folder", metavar="DIR", help="folder with .mtf files (recursive)")
    chk.add_argument("--mul", metavar="FILE", help="mul_mechs.csv (default: found in DIR or "
                     "its parents)")
    chk.add_argument("--cards", metavar="FILE", help="alphastrike.csv (default: found in DIR "
                     "or its parents)")
    chk.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                     help="print JSON instead of text")
    _rule_flag(chk, "a BV (B) or conversion (V) option")
    chk.set_defaults(func=_check)
    costs = actions.add_parser(
        "costs", prog="btsim units costs",
        help="BV and PV of one more heat sink, ton of armor and jump jet, and what each "
        "buys in the Alpha Strike duel",
        description="For each unit (default: every catalog 'Mech with Classic data) price "
        "three changes (sim.units.edit, tonnage=free): one more heat sink, one more ton of "
        "armor (the points it buys, spread where the maximum allows), one more jump MP; "
        "print the BV and PV change and what it buys in the Alpha Strike duel: the changed "
        "card against the unchanged one (mirror match, exact Markov chain), P(win) minus "
        "P(loss) and expected turns.")
    costs.add_argument("units", metavar="NAME|FILE", nargs="*", help="units (default: the "
                       "catalog 'Mechs)")
    costs.add_argument("--range", default="short", choices=("short", "medium", "long"),
                       help="duel range band (default short)")
    costs.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                       help="print JSON instead of a table")
    costs.set_defaults(func=_costs)


def _rule_flag(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help=f"override {what}; repeatable")


def _edit_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--edit", action="append", default=[], metavar="KEY=VALUE",
                   help="change the design before pricing it and print what the change "
                   "costs: heat_sinks=+1, armor.CT=+2, jump=+1, 'remove=Large Laser@RA', "
                   "'add=ISLargePulseLaser@RA', tonnage=free (allow added weight); repeatable "
                   "(sim.units.edit: slots, tonnage and armor maximum are checked)")


def _edited(design: Design, items: list[str]) -> Design:
    from sim.units.edited import edited_design
    return edited_design(design, items, "--edit") or design


def price_rules(items: list[str]) -> tuple[BVRules, ConversionRules]:
    """``--rule NAME=VALUE`` items split between the BV and the conversion options."""
    bv: dict[str, str] = {}
    asc: dict[str, str] = {}
    own_bv, own_as = options.names(BVRules), options.names(ConversionRules)
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep:
            raise ConfigError("--rule", item, "NAME=VALUE")
        if name in own_bv:
            bv[name] = value.strip()
        elif name in own_as:
            asc[name] = value.strip()
        else:
            raise ConfigError("--rule", name, "one of " + ", ".join((*own_bv, *own_as)))
    return (options.build(BVRules, "default", bv),
            options.build(ConversionRules, "default", asc))


def _resolve(text: str) -> tuple[Design, ClassicMech | None, ASCard | None]:
    """The unit: an .mtf file (with the catalog's card by MUL id) or a catalog name."""
    from sim.units.catalog import get_alphastrike, lookup
    if text.lower().endswith(".mtf"):
        design = read_design_file(text)
        card = None
        try:
            card = get_alphastrike(text)
        except UserError:
            pass
        if card is not None and card.source.startswith("converted"):
            card = None  # no MUL card shipped: get_alphastrike converted this one
        return design, None, card
    entry = lookup(text)
    if entry.classic is None:
        raise UserError(f"{entry.name!r} has no Classic data to price (pass an .mtf file)")
    return design_of(entry.classic), entry.classic, entry.card


def _bv(args: argparse.Namespace) -> int:
    from sim.classic.bv import bv_at_skill
    rules, _ = price_rules(args.rule)
    design, mech, _card = _resolve(args.unit)
    before = battle_value(design, rules).bv if args.edit else None
    design = _edited(design, args.edit)
    b = battle_value(design, rules)
    at = bv_at_skill(b.bv, args.gunnery, args.piloting)
    known = mech.bv if mech is not None and before is None else None
    if known is None and before is None:
        from sim.units.catalog import read_unit_file
        if args.unit.lower().endswith(".mtf"):
            try:
                known = read_unit_file(args.unit).bv
            except UserError:
                known = None
    if getattr(args, "json", False):
        doc = {**b.to_dict(), "gunnery": args.gunnery, "piloting": args.piloting,
               "bv_at_skill": at, "bv_mul": known, "bv_unedited": before}
        print(json.dumps(doc, indent=2))
        return 0
    out = [f"{b.unit}: Battle Value 2 (reference-bv.md 21-22), gunnery 4 / piloting 5"]
    out += ["  " + line for line in b.lines()]
    out.append(f"BV {b.bv}; at gunnery {args.gunnery} / piloting {args.piloting}: {at}")
    if before is not None:
        out.append(f"the edit costs {b.bv - before:+d} BV ({before} -> {b.bv})")
    if known is not None:
        out.append(f"MUL (btsim's BV catalog): {known} -> "
                   + ("equal" if known == b.bv else f"differs by {b.bv - known:+d}"))
    out += [f"note: {a}" for a in b.assumed]
    print("\n".join(out))
    return 0


def _card_row(fields: dict[str, Any]) -> dict[str, str]:
    return {"size": str(fields["size"]), "move": str(fields["move"]),
            "jump": str(fields["jump"]), "tmm": str(fields["tmm"]),
            "armor": str(fields["armor"]), "structure": str(fields["structure"]),
            "damage": f"{fields['dmg_s']}/{fields['dmg_m']}/{fields['dmg_l']}",
            "ov": str(fields["ov"]), "specials": ",".join(sorted(fields["specials"])) or "-",
            "pv": str(fields["pv"])}


def _shipped_row(c: ASCard) -> dict[str, str]:
    dmg = "/".join("0*" if c.minimal[k] else str(c.damage[k]) for k in range(3))
    hidden = {"SRCH", "SOA"}
    specials = sorted(t for t in (c.specials_raw or "").split(",") if t and t not in hidden)
    return {"size": str(c.size), "move": str(c.move), "jump": str(c.jump), "tmm": str(c.tmm),
            "armor": str(c.armor), "structure": str(c.structure), "damage": dmg,
            "ov": str(c.ov), "specials": ",".join(specials) or "-", "pv": str(c.pv)}


def _card(args: argparse.Namespace) -> int:
    from sim.errors import check_int
    skill = check_int("skill", args.skill, 0, 7)
    _, rules = price_rules(args.rule)
    design, _mech, shipped = _resolve(args.unit)
    before = alpha_strike_card(design, rules).fields["pv"] if args.edit else None
    if args.edit:
        design, shipped = _edited(design, args.edit), None
    c = alpha_strike_card(design, rules, skill=skill)
    mine = _card_row(c.fields)
    theirs = _shipped_row(shipped) if shipped is not None else None
    differs = [k for k in mine if theirs is not None and mine[k] != theirs[k]]
    if getattr(args, "json", False):
        doc = {**c.to_dict(), "pv_at_skill": c.card.pv, "skill": skill,
               "mul_card": theirs, "differs": differs, "pv_unedited": before}
        print(json.dumps(doc, indent=2))
        return 0
    out = [f"{c.card.name}: Alpha Strike card converted from the unit file "
           "(reference-as-conversion.md 2)"]
    out += ["  " + line for line in c.lines()]
    out.append("")
    width = max(len(v) for v in mine.values()) + 2
    out.append(f"  {'field':<10} {'converted':<{width}} {'MUL card' if theirs else ''}")
    for k, v in mine.items():
        mark = " *" if k in differs else ""
        out.append(f"  {k:<10} {v:<{width}} {theirs[k] if theirs else ''}{mark}")
    if theirs is None:
        out.append("  (no MUL card shipped for this unit)")
    else:
        out.append("  " + (f"{len(differs)} field(s) differ (*)" if differs
                           else "every field equal"))
    if before is not None:
        out.append(f"  the edit costs {c.fields['pv'] - before:+d} PV ({before} -> "
                   f"{c.fields['pv']}); " + "; ".join(design.assumed))
    if skill != 4:
        out.append(f"  PV at skill {skill}: {c.card.pv}")
    print("\n".join(out))
    return 0


def _check(args: argparse.Namespace) -> int:
    from sim.units.price_check import check_folder
    bv_r, as_r = price_rules(args.rule)
    res = check_folder(args.folder, args.mul, args.cards, bv_r, as_r)
    counts = res.counts()
    if getattr(args, "json", False):
        print(json.dumps({"counts": counts, "disagreements": res.disagreements(),
                          "refused": res.refusals()}, indent=2))
        return 0
    out = res.disagreements() or ["no disagreement with the MUL"]
    out += res.refusals()
    c = counts
    out.append(f"{c['files']} file(s) under {args.folder}: BV exact {c['bv_exact']}/"
               f"{c['bv_compared']} (refused {c['bv_refused']}); PV exact {c['pv_exact']}/"
               f"{c['pv_compared']}; cards exact {c['cards_exact']}/{c['cards_compared']} "
               f"(refused {c['card_refused']})")
    print("\n".join(out))
    return 0


#: the changes `units costs` prices: label -> edit keywords (armor filled per unit)
COST_CHANGES = ("heat sink +1", "armor +1 t", "jump +1")


def change_costs(design: Design, duel_range: str = "short") -> list[dict[str, Any]]:
    """One row per :data:`COST_CHANGES` entry: BV / PV before and after, and the duel of the
    changed card against the unchanged one (exact)."""
    from sim import api
    from sim.units.design.edit import EditError, edit, one_ton_of_armor
    bv0 = battle_value(design).bv
    card0 = alpha_strike_card(design)
    rows = []
    for label in COST_CHANGES:
        kw: dict[str, Any] = {"tonnage": "free"}
        if label.startswith("heat"):
            kw["heat_sinks"] = 1
        elif label.startswith("armor"):
            kw["armor"] = one_ton_of_armor(design)
        else:
            kw["jump"] = 1
        row: dict[str, Any] = {"unit": design.name, "change": label, "bv": bv0,
                               "pv": card0.fields["pv"]}
        try:
            d = edit(design, **kw)
            b, c = battle_value(d), alpha_strike_card(d)
        except (EditError, OutOfScope) as exc:
            row["refused"] = str(exc)
            rows.append(row)
            continue
        res = api.duel(c.card, card0.card, range=duel_range, progress=False).to_dict()
        row.update({"bv_new": b.bv, "d_bv": b.bv - bv0, "pv_new": c.fields["pv"],
                    "d_pv": c.fields["pv"] - card0.fields["pv"],
                    "p_win": res["p_win_a"], "p_loss": res["p_win_b"],
                    "edge": res["p_win_a"] - res["p_win_b"],
                    "expected_turns": res["expected_turns"], "method": res.get("mode"),
                    "note": d.assumed[-1]})
        rows.append(row)
    return rows


def _costs(args: argparse.Namespace) -> int:
    from sim.units.catalog import entries
    if args.units:
        designs = [_resolve(u)[0] for u in args.units]
    else:
        designs = [design_of(e.classic) for e in entries() if e.classic is not None]
    rows: list[dict[str, Any]] = []
    for d in designs:
        try:
            rows += change_costs(d, args.range)
        except OutOfScope as exc:
            rows.append({"unit": d.name, "change": "-", "refused": str(exc)})
    if getattr(args, "json", False):
        print(json.dumps(rows, indent=2, default=str))
        return 0
    out = [f"{'unit':<28} {'change':<13} {'BV':>5} {'dBV':>5} {'PV':>3} {'dPV':>4} "
           f"{'P(win)-P(loss) vs unchanged':>28} {'E[turns]':>8}"]
    for r in rows:
        if "refused" in r:
            out.append(f"{r['unit'][:28]:<28} {r['change']:<13} refused: {r['refused']}")
            continue
        out.append(f"{r['unit'][:28]:<28} {r['change']:<13} {r['bv']:>5} {r['d_bv']:>+5} "
                   f"{r['pv']:>3} {r['d_pv']:>+4} {r['edge']:>+28.4f} "
                   f"{r['expected_turns']:>8.3f}")
    out.append(f"duel: Alpha Strike, range {args.range}, skill 4, the changed card against "
               "the unchanged one; exact (Markov chain), so no interval; tonnage=free (the "
               "change adds weight)")
    print("\n".join(out))
    return 0


def computed_prices(mech: ClassicMech | None) -> dict[str, Any]:
    """``bv_computed`` and ``pv_computed`` of ``units show --json`` (None with the reason in
    ``*_refused`` when the unit is outside a reference's scope)."""
    out: dict[str, Any] = {"bv_computed": None, "pv_computed": None}
    if mech is None:
        return out
    source = Path(mech.source) if mech.source else None
    design = (read_design_file(source) if source is not None and source.suffix.lower() == ".mtf"
              and source.is_file() else design_of(mech))
    try:
        out["bv_computed"] = battle_value(design).bv
    except OutOfScope as exc:
        out["bv_computed_refused"] = str(exc)
    try:
        out["pv_computed"] = alpha_strike_card(design).fields["pv"]
    except OutOfScope as exc:
        out["pv_computed_refused"] = str(exc)
    return out
