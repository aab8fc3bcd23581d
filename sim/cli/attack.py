"""``btsim attack``: one Classic physical attack, exact or Monte Carlo (issue 3 CLI contract).

    btsim attack {punch,kick,club,hatchet,push,charge,dfa} --tons T [--piloting P]
      [--target-tons T] [--target-piloting P] [--arm left|right|both]
      [--damaged ACT,...] [--missing ACT,...]
      [--moved stand|walk|run|jump] [--target-hexes N] [--target-jumped]
      [--terrain clear|light-woods|heavy-woods] [--target-prone] [--target-immobile [CAUSE]]
      [--side front|left|right|rear] [--hexes N] [--tsm|--no-tsm] [--rules default|seed|megamek]
      [--rule NAME=VALUE] [--trials N --seed S [--chunk-size C] [--jobs J]]
      [--progress auto|always|never] [--json]

Monte Carlo runs go through the engine (:func:`sim.api.run_scenario`): the same seed, trials
and chunk size give the same bits as ``sim.attack`` and ``btsim run``. ``--json`` prints
:meth:`sim.result.Result.to_dict`.

Extensions: ``--attacker/--target NAME|FILE.mtf``, ``--target-damaged``, ``--target-level``,
``--target-partial-cover``, ``--fired``, ``--attacker-prone``, ``--displacement-prohibited``,
``--mutual-push``, ``--rule NAME=VALUE`` (any classic rule option; ``btsim rules``),
``--no-tsm``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any

from sim.cli.common import (
    add_precision_flags,
    add_rule_flags,
    int_arg,
    precision_args,
    rule_overrides,
)
from sim.cli.progress import add_progress
from sim.errors import ConfigError, check_int

if TYPE_CHECKING:
    from sim.result import Result


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "attack", help="one Classic physical attack (exact, or Monte Carlo with --trials)",
        description="Resolve one Classic BattleTech physical attack. Exact without --trials.")
    from sim.classic import tables as T

    help_acts = "comma-separated: " + " ".join(T.ACTUATORS) + " (optionally left-/right-)"
    p.add_argument("kind", choices=T.ATTACKS, metavar="{" + ",".join(T.ATTACKS) + "}")
    p.add_argument("--tons", help="attacker tonnage (20-100, multiple of 5)")
    p.add_argument("--piloting", help="attacker piloting skill (0-8, default 5)")
    p.add_argument("--target-tons", help="target tonnage (default 50)")
    p.add_argument("--target-piloting", help="target piloting skill (default 5)")
    p.add_argument("--arm", help="left|right|both (kick: the leg; default right)")
    p.add_argument("--damaged", help="destroyed actuators, " + help_acts)
    p.add_argument("--missing", help="actuators missing by design, " + help_acts)
    p.add_argument("--moved", help="stand|walk|run|jump (attacker movement). Default: stand; "
                   "jump for a DFA; a charge walks, or runs when the --attacker unit's walk MP "
                   "is less than --hexes + 1 (impossible if its run MP is short too)")
    p.add_argument("--target-hexes", help="hexes the target moved (default 0)")
    p.add_argument("--target-jumped", action="store_true", default=None)
    p.add_argument("--terrain", help="clear|light-woods|heavy-woods (target hex)")
    p.add_argument("--target-prone", action="store_true", default=None)
    p.add_argument("--target-immobile", nargs="?", const="other", default=None,
                   metavar="CAUSE",
                   help="target immobile (-4 to hit); CAUSE shutdown|unconscious (fails every "
                   "PSR, rule immobile_psr, D22) or other (the default: still rolls)")
    p.add_argument("--side", help="front|left|right|rear (attack direction / table column)")
    p.add_argument("--hexes", help="charge only, and required there: hexes moved, not "
                   "counting the target hex")
    p.add_argument("--tsm", action=argparse.BooleanOptionalAction, default=None,
                   help="triple-strength myomer active: heat 9 or more (doubles punch/kick/"
                   "club/hatchet); off by default, also for an --attacker with TSM")
    add_rule_flags(p, "attack")
    p.add_argument("--attacker", help="attacker unit: catalog name or .mtf file")
    p.add_argument("--target", help="target unit: catalog name or .mtf file")
    p.add_argument("--target-damaged", help="target's destroyed leg actuators / gyro (PSRs)")
    p.add_argument("--target-level", help="target hex level relative to the attacker: -1, 0, 1")
    p.add_argument("--target-partial-cover", action="store_true", default=None,
                   help="target in depth-1 water with partial cover")
    p.add_argument("--fired", help="limbs that fired weapons: left-arm,right-arm,left-leg,"
                   "right-leg,torso")
    p.add_argument("--attacker-prone", action="store_true", default=None)
    p.add_argument("--displacement-prohibited", action="store_true", default=None,
                   help="the displacement hex is prohibited terrain")
    p.add_argument("--mutual-push", action="store_true", default=None,
                   help="the target pushes the attacker at the same time")
    p.add_argument("--trials", help="Monte Carlo trials (omit for the exact answer)")
    p.add_argument("--seed", help="random seed (with --trials; default 0)")
    p.add_argument("--jobs", default="1",
                   help="worker processes for --trials (default 1; -1 = all cores)")
    p.add_argument("--chunk-size", help="trials per seeded chunk for --trials (default 2**18; "
                   "the same seed, trials and chunk size give the same bits as btsim run)")
    add_precision_flags(p)
    add_progress(p)
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (indented by 2, like btsim heat --json)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sim.api import attack

    opts = rule_overrides(args, "attack")
    if args.seed is not None and args.trials is None and args.target_error is None:
        raise ConfigError("seed", args.seed, "used together with --trials")
    res = attack(
        args.kind, tons=int_arg("tons", args.tons), piloting=int_arg("piloting", args.piloting),
        target_tons=int_arg("target_tons", args.target_tons),
        target_piloting=int_arg("target_piloting", args.target_piloting), arm=args.arm,
        damaged=args.damaged, missing=args.missing, moved=args.moved,
        target_hexes=int_arg("target_hexes", args.target_hexes), target_jumped=args.target_jumped,
        terrain=args.terrain, target_prone=args.target_prone,
        target_immobile=args.target_immobile, side=args.side, hexes=int_arg("hexes", args.hexes),
        tsm=args.tsm, rules=args.rules, attacker=args.attacker, target=args.target,
        trials=int_arg("trials", args.trials), seed=int_arg("seed", args.seed),
        n_jobs=check_int("jobs", args.jobs), chunk_size=int_arg("chunk_size", args.chunk_size),
        progress=args.progress, **precision_args(args),
        target_damaged=args.target_damaged,
        target_level=int_arg("target_level", args.target_level),
        target_partial_cover=args.target_partial_cover, fired=args.fired,
        attacker_prone=args.attacker_prone,
        displacement_prohibited=args.displacement_prohibited, mutual_push=args.mutual_push,
        **opts)
    if args.json:
        print(json.dumps(res.to_dict(), indent=2))
    else:
        print(format_table(res))
    return 0


def to_json(res: Result | dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` document: :meth:`sim.result.Result.to_dict` (NaN as null,
    ``rule_options`` as an object)."""
    import pandas as pd

    from sim.result import Result

    if isinstance(res, Result):
        return res.to_dict()
    return Result(frame=pd.DataFrame(), data=dict(res), legacy="data").to_dict()


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.6g}"
    return str(v)


def _unit(name: str | None, tons: Any, piloting: Any) -> str:
    if name:
        return f"{name} ({tons} t, piloting {piloting})"
    return f"a {tons} t 'Mech (piloting {piloting})"


def _rules(res: dict[str, Any]) -> str:
    """``default`` or ``default + tac=false``: the preset and the ``--rule`` overrides
    (the effective options that differ from the preset)."""
    from sim.cli.common import differing_options
    from sim.summary import rules_header

    opts = res.get("rule_options")
    if isinstance(opts, str):
        opts = json.loads(opts)
    if not isinstance(opts, dict):
        return str(res["rules"])
    return rules_header(res["rules"], differing_options("classic", str(res["rules"]), opts))


def format_table(result: Result | dict[str, Any]) -> str:
    """A readable two-column table (Monte Carlo estimates with their 95% interval,
    :func:`sim.summary.with_interval`). An impossible attack says so on the second line and
    shows every metric as ``-``."""
    from sim.classic.api import NESTED
    from sim.result import Result

    res = result.data if isinstance(result, Result) else result
    assert res is not None, "an attack result carries its dict view"
    p = res["params"]
    head = (f"{p['attack']} by {_unit(p.get('attacker'), p['tons'], p['piloting'])} at "
            f"{_unit(p.get('target'), p['target_tons'], p['target_piloting'])}, "
            f"rules {_rules(res)} ({res['mode']}")
    head += f", {res['trials']} trials, seed {res['seed']})" if res["mode"] != "exact" else ")"
    lines = [head]
    if res["mode"] != "exact":
        from sim.summary import INTERVAL_NOTE

        lines.append(f"  {INTERVAL_NOTE}")
    impossible = res.get("impossible")
    if impossible is not None:
        lines.append(f"  impossible: {impossible}")
    facts = ("target_number", "target_number_left", "target_number_right", "notes",
             "damage_on_hit")
    for k in facts:
        if res.get(k) is not None and not (k == "notes" and res[k] == impossible):
            lines.append(f"  {k:<40} {_fmt(res[k])}")
    skip = set(facts) | {"params", "mode", "trials", "seed", "rules", "rule_options",
                         "damage_dist", "impossible"}
    frame = result.frame if isinstance(result, Result) else None
    mc = res["mode"] != "exact"

    def with_ci(name: str, v: Any, se: Any) -> str:
        """``v`` of flat metric ``name`` with its 95% interval (the frame's: Wilson for a
        probability; else 1.96 ``se``); an exact value alone."""
        txt = _fmt(v)
        if not mc or not isinstance(v, int | float) or math.isnan(v):
            return txt
        lo = hi = None
        if frame is not None and name + "_ci_low" in frame.columns:
            lo, hi = float(frame[name + "_ci_low"].iloc[0]), float(frame[name + "_ci_high"].iloc[0])
        elif isinstance(se, int | float):
            from sim.summary import Z95

            lo, hi = v - Z95 * se, v + Z95 * se
        if lo is None or hi is None:
            return txt
        return txt + (" (n/a)" if math.isnan(lo) or math.isnan(hi)
                      else f" ({_fmt(lo)}–{_fmt(hi)})")

    for k, v in res.items():
        if k in skip or k.endswith("_se"):
            continue
        if impossible is not None:
            lines.append(f"  {k:<40} -")
            continue
        if k in NESTED:
            ses = res.get(k + "_se") or {}
            cells = "  ".join(f"{loc} {with_ci(name, x, ses.get(loc))}"
                              for (loc, x), name in zip(v.items(), NESTED[k], strict=True) if x)
            lines.append(f"  {k:<40} {cells or '0'}")
            continue
        lines.append(f"  {k:<40} {with_ci(k, v, res.get(k + '_se'))}")
    dist = res["damage_dist"]

    def bin_text(x: float) -> str:
        if not mc:
            return f"{x:.4g}"
        from sim.summary import proportion_interval

        lo, hi = proportion_interval(x, float(res["trials"]))
        return f"{x:.4g} ({lo:.4g}–{hi:.4g})"

    cells = "-" if dist is None else "  ".join(f"{i}:{bin_text(x)}" for i, x in enumerate(dist)
                                              if x > 0)
    lines.append(f"  {'damage_dist':<40} {cells}")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    from sim.cli import main

    sys.exit(main(["attack", *sys.argv[1:]]))
