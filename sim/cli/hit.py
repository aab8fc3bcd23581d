"""``btsim hit``: what damage groups do to a fresh Classic 'Mech (reference-classic-combat.md
14), exactly (default) or by Monte Carlo.

    btsim hit UNIT --damage N [--groups 5,5,5] (--location LOC [--rear] | --side SIDE)
              [--state FILE] [--rule NAME=VALUE] [--method exact|mc] [--trials N]
              [--seed S] [--json]

``--trials N`` (or ``--seed S``) alone implies ``--method mc``; with ``--method exact`` they
are an error (exit 2).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.cli.common import add_rule_flags, rule_overrides
from sim.errors import ConfigError, UserError


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
    from sim.classic.hit_api import MC_SEED, MC_TRIALS, SIDES

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
    p.add_argument("--method", default=None, choices=("exact", "mc"),
                   help="exact (default) or mc (Monte Carlo: every estimate gets a standard "
                   "error, <field>_se in --json); --trials or --seed alone imply mc")
    p.add_argument("--trials", type=int, default=None, metavar="N",
                   help=f"Monte Carlo trials (implies --method mc; default {MC_TRIALS:,})")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help=f"Monte Carlo seed (implies --method mc; default {MC_SEED})")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_rule_flags(p, "hit", preset=False)
    p.set_defaults(func=run)


def method_of(args: argparse.Namespace) -> str:
    """``--method``, or ``mc`` when only --trials/--seed are given (README: a command runs
    Monte Carlo with ``--trials N``); ConfigError for --trials/--seed with --method exact."""
    mc_flags = [f for f, v in (("trials", args.trials), ("seed", args.seed)) if v is not None]
    if args.method is None:
        return "mc" if mc_flags else "exact"
    if args.method == "exact" and mc_flags:
        raise ConfigError(mc_flags[0], getattr(args, mc_flags[0]),
                          "given only with Monte Carlo (--method mc); the exact method has "
                          "no trials or seed")
    return str(args.method)


def _pm(res: dict[str, Any], key: str, value: float, sub: str | None = None,
        digits: int = 4) -> str:
    """``value`` and, for Monte Carlo, its 95% interval (:func:`sim.summary.with_interval`,
    the form of every text output): a probability's (``p_*``) the Wilson interval of its
    trials, as the engine gives (never below 0 or above 1), another's from
    ``res[key + "_se"]`` (``[sub]``)."""
    from sim.summary import proportion_interval, with_interval

    se = res.get(f"{key}_se")
    if se is not None and sub is not None:
        se = se.get(sub)
    if se is not None and key.startswith("p_"):
        lo, hi = proportion_interval(value, float(res["params"]["trials"]))
        return with_interval(value, low=lo, high=hi, digits=digits)
    return with_interval(value, se, digits=digits)


def run(args: argparse.Namespace) -> int:
    from sim.classic.hit_api import MC_SEED, MC_TRIALS, hit

    overrides = rule_overrides(args, "hit")
    method = method_of(args)
    res = hit(args.unit, damage=args.damage, groups=_groups(args.groups),
              location=args.location, rear=args.rear, side=args.side, rules=overrides,
              method=method, trials=MC_TRIALS if args.trials is None else args.trials,
              seed=MC_SEED if args.seed is None else args.seed, state=args.state)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    prm = res["params"]
    where = (f"{prm['location']}{' rear' if prm['rear'] else ''}" if prm["location"]
             else f"rolled from the {prm['side']}")
    mc = prm["method"] == "mc"
    print(f"{prm['unit']}: groups {','.join(map(str, prm['groups']))} {where} "
          f"({prm['method']}" + (f", {prm['trials']:,} trials, seed {prm['seed']}" if mc
                                 else "") + f", {res['seconds'] * 1000:.1f} ms)")
    if mc:
        from sim.summary import INTERVAL_NOTE

        print(f"  {INTERVAL_NOTE}")
    print(f"  P(destroyed) {_pm(res, 'p_destroyed', res['p_destroyed'])}  "
          + "  ".join(f"{k} {_pm(res, 'p_destroyed_by', v, k)}"
                      for k, v in res["p_destroyed_by"].items() if v > 0))
    print(f"  P(ammo/Gauss explosion) {_pm(res, 'p_ammo_explosion', res['p_ammo_explosion'])}"
          f"  E[pilot damage] "
          f"{_pm(res, 'expected_pilot_damage', res['expected_pilot_damage'], digits=3)}")
    w = (12, 8, 8, 12, 11) if not mc else (24, 19, 19, 19, 24)
    armor = res["expected_armor_left"]
    print(f"  loc   {'P(destroyed)':>{w[0]}}  {'E[armor]':>{w[1]}}  {'E[rear]':>{w[2]}}  "
          f"{'E[structure]':>{w[3]}}  {'P(critical)':>{w[4]}}")
    from sim.classic.damage_state.layout import LOCS, NAMES_BY_CONFIG

    shown_as = dict(zip(LOCS, NAMES_BY_CONFIG.get(prm.get("config", "Biped"), LOCS),
                        strict=True))  # a quad's legs by their own names (FLL for LA)
    for loc, p in res["p_location_destroyed"].items():
        rear = (_pm(res, "expected_armor_left", armor[f"{loc}R"], f"{loc}R", 2)
                if f"{loc}R" in armor else "")      # torsos: the rear armor
        print(f"  {shown_as.get(loc, loc):4s}  "
              f"{_pm(res, 'p_location_destroyed', p, loc):>{w[0]}}  "
              f"{_pm(res, 'expected_armor_left', armor[loc], loc, 2):>{w[1]}}  {rear:>{w[2]}}"
              f"  {_pm(res, 'expected_structure_left', res['expected_structure_left'][loc], loc, 2):>{w[3]}}"
              f"  {_pm(res, 'p_critical', res['p_critical'][loc], loc):>{w[4]}}")
    hot = sorted(((v, k) for k, v in res["p_slot_hit"].items() if v > 0), reverse=True)[:10]
    if hot:
        print("  most likely slot hits: "
              + "; ".join(f"{k} {_pm(res, 'p_slot_hit', v, k)}" for v, k in hot))
    for note in res["notes"]:
        print(f"  note: {note}")
    return 0
