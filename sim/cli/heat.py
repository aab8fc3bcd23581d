"""``btsim heat``: Alpha Strike overheat risk curves, per turn."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.cli.common import (
    add_precision_flags,
    add_rule_flags,
    precision_args,
    rule_overrides,
)
from sim.cli.progress import add_progress
from sim.errors import ConfigError

EPILOG = """\
Without --unit the unit is a {generic}.
With --unit and --ov, --ov replaces the card's OV.

The unit shoots at a target with TMM 2 that moved (TN = skill + range + 2 + heat + 2 per Fire
Control hit; --target-tmm changes it). --incoming attackers shoot the unit every turn:
tn=N is the TN against it in its normal state (tn=2: every attack hits); heat, MP hits and
shutdown (-4) then move that TN; skill=S[,range=R][,mod=M] computes it instead. dmg=D is
the damage of a hit, ht=H its HT heat (capped at 2 per turn; extra damage without a heat scale).

Policies: hold (never fires), never (fires without OV), max (full OV whenever allowed),
fixed:K (OV K), below:H (full OV while heat < H, else no OV).
Outputs are read after each turn's End Phase; p_heat[k] = P(alive at heat k), 4 = shut down.

examples:
  btsim heat --unit "Loki (Hellbringer) Prime" --policy max --turns 10
  btsim heat --ov 2 --policy below:2 --water --json
  btsim heat --ov 3 --incoming tn=8,dmg=3,ht=2 --incoming skill=4,dmg=2 --trials 200000 --seed 1
  btsim heat --ov 2 --rules seed --water --water-depth 1 --rule water_ov=steps"""


def epilog() -> str:
    """The ``--help`` epilog, with the generic unit's description."""
    from sim.alphastrike.generic import DEFAULT_GENERIC_OV, GENERIC_DESCRIPTION

    return EPILOG.format(generic=GENERIC_DESCRIPTION.replace(
        "OV K", f"OV K (--ov, default {DEFAULT_GENERIC_OV})"))


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "heat", help="Alpha Strike heat: overheat, shutdown and cooling curves per turn",
        description="Per-turn Alpha Strike heat curves (rules reference 6): heat level "
        "distribution, shutdown risk, damage dealt and destruction, exact (Markov chain) or "
        "Monte Carlo.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.epilog = epilog()
    p.add_argument("--unit", metavar="NAME", help="unit name from the catalog, or a card file")
    p.add_argument("--ov", metavar="K", type=int,
                   help="overheat value 0-4 (the generic 'Mech's, or replaces the unit's)")
    p.add_argument("--policy", default="max", help="hold|never|max|fixed:K|below:H (default max)")
    p.add_argument("--turns", type=int, default=10, metavar="T", help="turns (default 10)")
    p.add_argument("--start-heat", type=int, default=0, metavar="H", help="starting heat 0-4 "
                   "(4 = starts shut down)")
    p.add_argument("--water", action="store_true", help="the unit stands in water")
    p.add_argument("--water-depth", type=int, default=None, metavar="IN",
                   help="water depth in inches with --water (default 2)")
    p.add_argument("--range", default="medium", choices=("short", "medium", "long", "extreme"))
    p.add_argument("--skill", type=int, metavar="S", help="skill (default: the card's, 4)")
    p.add_argument("--incoming", action="append", default=[], metavar="tn=N,dmg=D,ht=H",
                   help="an attacker shooting the unit each turn (repeatable)")
    add_rule_flags(p, "heat", preset_default="default")
    p.add_argument("--movement", default="ground", choices=("ground", "jump", "stand"))
    p.add_argument("--target-tmm", type=int, default=2, metavar="N",
                   help="TMM of the unit's own target (default 2)")
    p.add_argument("--physical", default="none", choices=("none", "standard", "melee"),
                   help="physical attack on turns the unit makes no weapon attack")
    p.add_argument("--protection", default="card",
                   choices=("card", "none", "CASE", "CASEII", "ENE"),
                   help="ammo protection: the card's own (default) or none/CASE/CASEII/ENE")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_true", help="exact Markov chain (the default "
                      "when the state space allows it)")
    mode.add_argument("--trials", type=int, metavar="N", help="Monte Carlo units")
    p.add_argument("--seed", type=int, metavar="S", help="root seed for --trials (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="workers for Monte Carlo (default 1)")
    p.add_argument("--chunk-size", type=int, metavar="N", help="trials per seeded chunk for "
                   "--trials (default 2**18; same seed, trials and chunk size give the same "
                   "bits as btsim run)")
    add_precision_flags(p)
    add_progress(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=main)


def _params(args: argparse.Namespace) -> dict[str, Any]:
    if args.water_depth is not None and not args.water:
        raise ConfigError("water-depth", args.water_depth, "given only with --water")
    if args.exact and args.target_error is not None:
        raise ConfigError("target-error", args.target_error, "a Monte Carlo option, not with "
                          "--exact")
    if args.seed is not None and args.trials is None and args.target_error is None:
        raise ConfigError("seed", args.seed, "given only with --trials (exact answers need none)")
    params: dict[str, Any] = {
        "unit": args.unit, "ov": args.ov, "policy": args.policy, "turns": args.turns,
        "start_heat": args.start_heat, "water": args.water,
        "water_depth": 2 if args.water_depth is None else args.water_depth,
        "range": args.range, "skill": args.skill, "incoming": list(args.incoming),
        "rules": args.rules, "movement": args.movement, "target_tmm": args.target_tmm,
        "physical": args.physical, "protection": args.protection}
    params.update(rule_overrides(args, "heat"))
    return params


def main(args: argparse.Namespace) -> int:
    from sim.api import heat

    params = _params(args)
    res = heat(**params, trials=args.trials, seed=args.seed, n_jobs=args.jobs,
               chunk_size=args.chunk_size, progress=args.progress, **precision_args(args))
    if args.json:
        print(json.dumps(res.to_dict(), indent=2))
    else:
        meta = res.metadata
        print(to_table(res.frame, meta["facts"], meta["params"], meta["mode"] != "exact"))
    return 0


def to_table(frame: Any, facts: dict[str, Any], params: dict[str, Any], mc: bool) -> str:
    """A readable per-turn table. Monte Carlo: every estimate with its 95% interval
    (:data:`sim.summary.INTERVAL_NOTE`, stated in the header); exact: the values alone."""
    from sim.summary import INTERVAL_NOTE, frame_cell, rules_header, text_table

    mode = f"Monte Carlo, {int(frame['trials'].iloc[0])} units; {INTERVAL_NOTE}" if mc \
        else "exact"
    lines = [f"{facts['card']}  policy {params['policy']}  range {params['range']}  "
             f"usable OV {facts['usable_ov']}  rules "
             f"{rules_header(params['rules'], params.get('rule_overrides'))}  ({mode})"]
    if params["incoming"]:
        lines.append(f"incoming: {params['incoming']}")
    if facts.get("notes"):
        lines.append(f"note: {facts['notes']}")
    if facts["specials_not_simulated"]:
        lines.append(f"specials not simulated: {facts['specials_not_simulated']}")
    cols = [(f"heat{k}", f"p_heat_{k}") for k in range(4)] + [
        ("S", "p_heat_4"), ("P(S by)", "p_shutdown_by"), ("mean h", "mean_heat"),
        ("E[dmg]", "expected_damage"), ("E[cum]", "expected_cumulative_damage"),
        ("P(dead)", "p_destroyed_by")]
    rows = []
    for _, r in frame.iterrows():
        rows.append([str(int(r["turn"]))] + [frame_cell(r, m, mc) for _, m in cols])
    lines += text_table(["turn"] + [h for h, _ in cols], rows)
    first = frame.iloc[0]
    lines.append("expected first shutdown turn "
                 f"{frame_cell(first, 'expected_first_shutdown_turn', mc)} (T+1 = never); "
                 f"P(ever shut down) {frame_cell(first, 'p_ever_shutdown', mc)}; "
                 f"expected turns survived {frame_cell(first, 'expected_turns_survived', mc)}")
    if mc:
        lines.append("(--json gives standard errors and, where they exist, exact values)")
    return "\n".join(lines)
