"""``btsim hit``: what damage groups do to a fresh Classic 'Mech (reference-classic-combat.md
14), exactly (default) or by Monte Carlo.

    btsim hit UNIT --damage N [--groups 5,5,5] (--location LOC [--rear] | --side SIDE)
              [--state FILE] [--rule NAME=VALUE] [--method exact|mc] [--trials N]
              [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.classic.hit_api import SIDES, hit
from sim.cli.common import add_rule_flags, rule_overrides
from sim.errors import UserError


def _groups(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise UserError(f"--groups expects comma-separated integers like 5,5,5; got {text!r}"
                        ) from None


def register(subparsers: Any) -> None:
    """Add ``hit`` to the ``btsim`` parser."""
    p = subparsers.add_parser(
        "hit", help="exact outcome of damage groups landing on a Classic 'Mech",
        description="The exact outcome distribution (armor, structure, criticals, explosions, "
        "destruction) of damage groups landing on a fresh (or, with --state, damaged) Classic "
        "'Mech.",
        epilog='examples:\n  btsim hit "Locust LCT-1V" --damage 20 --location CT\n'
        '  btsim hit "Hunchback HBK-4G" --damage 15 --groups 5,5,5 --side front --json\n'
        '  btsim hit "Hunchback HBK-4G" --damage 5 --location CT --state damaged.toml',
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("unit", metavar="UNIT", help="catalog name or .mtf file")
    p.add_argument("--damage", type=int, help="total damage (one group unless --groups)")
    p.add_argument("--groups", metavar="N,N,...", help="damage groups, in order")
    p.add_argument("--location", metavar="LOC", help="HD CT LT RT LA RA LL RL")
    p.add_argument("--rear", action="store_true", help="hit rear torso armor (CT/LT/RT)")
    p.add_argument("--side", metavar="SIDE", help="roll each group's location: "
                   + "|".join(SIDES))
    p.add_argument("--state", metavar="FILE", help="start from a damaged state: a JSON or TOML "
                   "file with armor, structure (points left per location), hit_slots (slot "
                   "names as p_slot_hit gives them), ammo (shots left) and pilot")
    p.add_argument("--method", default="exact", choices=("exact", "mc"))
    p.add_argument("--trials", type=int, default=100_000, help="Monte Carlo trials")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rule_flags(p, "hit", preset=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    overrides = rule_overrides(args, "hit")
    res = hit(args.unit, damage=args.damage, groups=_groups(args.groups),
              location=args.location, rear=args.rear, side=args.side, rules=overrides,
              method=args.method, trials=args.trials, seed=args.seed, state=args.state)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    prm = res["params"]
    where = (f"{prm['location']}{' rear' if prm['rear'] else ''}" if prm["location"]
             else f"rolled from the {prm['side']}")
    print(f"{prm['unit']}: groups {','.join(map(str, prm['groups']))} {where} "
          f"({prm['method']}, {res['seconds'] * 1000:.1f} ms)")
    print(f"  P(destroyed) {res['p_destroyed']:.4f}  "
          + "  ".join(f"{k} {v:.4f}" for k, v in res["p_destroyed_by"].items() if v > 0))
    print(f"  P(ammo/Gauss explosion) {res['p_ammo_explosion']:.4f}  "
          f"E[pilot damage] {res['expected_pilot_damage']:.3f}")
    print("  loc   P(destroyed)  E[armor]  E[structure]  P(critical)")
    for loc, p in res["p_location_destroyed"].items():
        print(f"  {loc:4s}  {p:12.4f}  {res['expected_armor_left'][loc]:8.2f}  "
              f"{res['expected_structure_left'][loc]:12.2f}  {res['p_critical'][loc]:11.4f}")
    hot = sorted(((v, k) for k, v in res["p_slot_hit"].items() if v > 0), reverse=True)[:10]
    if hot:
        print("  most likely slot hits: " + "; ".join(f"{k} {v:.4f}" for v, k in hot))
    for note in res["notes"]:
        print(f"  note: {note}")
    return 0
