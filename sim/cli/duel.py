"""``btsim duel``: Alpha Strike side A against side B to destruction (reference-as-combat)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.alphastrike.duel.api import to_json
from sim.cli.common import add_rule_flags, rule_overrides
from sim.cli.progress import add_progress
from sim.errors import ConfigError, UserError

__all__ = ["main", "params_from_args", "register", "to_json", "to_text"]

EPILOG = """\
A side is a unit name (catalog; unique prefixes work), a card file (.csv / MUL .json),
UNIT@SKILL, or a force of up to 4 units "UNIT@SKILL,UNIT@SKILL" (--targeting-a/-b picks
targets: focus (default), nearest-to-death, most-dangerous, spread).

Defaults (reference-as-combat 20.6): both moved on the ground, front-on, clear terrain, no
overheat (policy never), Short range, 30 turns, skill 4. Both sides attack every turn; damage
and crits take effect in the End Phase; both destroyed in the same End Phase is a draw.
Answers are exact (Markov chain) where the joint state fits; otherwise the command says so
and asks for --trials N (Monte Carlo).

Policies: hold, never, max, fixed:K, below:H.  Terrain: clear, woods, cover, water, underwater.
Range: --range short|medium|long, or --ranges long,medium,short (one band per turn, the last
repeats), or --closing close|hold-band from --start-distance inches (20.7): close = both
close at full Move; hold-band = the faster unit keeps its preferred band (--rule
hold_band=net|own: damage dealt minus taken, per 20.7, or its own damage, per example E15).

examples:
  btsim duel "Locust LCT-1V" "Commando COM-1B"
  btsim duel "Atlas AS7-D@3" "Loki (Hellbringer) Prime" --range medium --policy-b max --json
  btsim duel "Atlas AS7-D,Locust LCT-1V@3" "Mad Cat (Timber Wolf) S" --trials 100000 --seed 1
  btsim duel "Catapult CPLT-C1" "Atlas AS7-D" --closing close --rule crits=false"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "duel", help="Alpha Strike duel: side A against side B to destruction",
        description="Alpha Strike duel (reference-as-combat 20-23): win, draw and timeout "
        "probabilities, the turn the fight ends, damage and shutdowns per turn, PV at skill.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("a", metavar="A", help="side A: UNIT, UNIT@SKILL or 'U@S,U@S' (<= 4 units)")
    p.add_argument("b", metavar="B", help="side B, same forms")
    p.add_argument("--skill-a", default=4, metavar="S", help="skill of side A's units "
                   "written without @SKILL (0-7, default 4)")
    p.add_argument("--skill-b", default=4, metavar="S", help="same for side B")
    rng = p.add_mutually_exclusive_group()
    rng.add_argument("--range", default=None, metavar="BAND", help="short|medium|long "
                     "(default short)")
    rng.add_argument("--ranges", default=None, metavar="B1,B2,...",
                     help="band per turn, e.g. long,medium,short (the last repeats)")
    rng.add_argument("--closing", default=None, metavar="POLICY",
                     help="closing policy (20.7): close | hold-band (--game classic: close)")
    p.add_argument("--start-distance", default=None, metavar="IN",
                   help="starting distance for --closing: inches (default 40); --game "
                   "classic: hexes (default 15)")
    for s in ("a", "b"):
        p.add_argument(f"--moved-{s}", default=None, metavar="MODE",
                       help=f"side {s.upper()}'s movement: ground|still|jump (default ground; "
                       "--game classic: stand|walk|run|jump, default stand)")
        p.add_argument(f"--policy-{s}", default=None, metavar="P",
                       help=f"side {s.upper()}'s overheat policy (default never; --game "
                       "classic: firing policy all|neutral|below:H|max-expected, default all)")
        p.add_argument(f"--terrain-{s}", default="clear", metavar="T",
                       help=f"side {s.upper()}'s terrain (default clear)")
        p.add_argument(f"--targeting-{s}", default=None, metavar="POLICY",
                       help=f"side {s.upper()}'s targeting in a force fight (default focus)")
    p.add_argument("--turns", default=30, metavar="T", help="turn limit (default 30)")
    add_rule_flags(p, "duel")
    p.add_argument("--trials", type=int, metavar="N", help="Monte Carlo duels")
    p.add_argument("--seed", type=int, metavar="S", help="root seed for --trials (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="workers for Monte Carlo (default 1)")
    p.add_argument("--chunk-size", type=int, default=None, metavar="N",
                   help="trials per chunk (default: the engine's; same chunks, same bits)")
    add_progress(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--game", choices=("alphastrike", "classic"), default="alphastrike",
                   help="rules of the duel: alphastrike (default) or classic (two Classic "
                   "'Mechs; the options of btsim classic-duel)")
    from sim.cli.classic_duel import add_classic_arguments

    add_classic_arguments(p, units=False)
    p.set_defaults(func=main)


def params_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The duel model's parameters from the command line (``--rule`` through the option
    registry: names and values checked against the options the duel reads)."""
    from sim.alphastrike.duel.scenario import range_params

    if args.seed is not None and args.trials is None:
        raise ConfigError("seed", args.seed, "given only with --trials (exact answers need none)")
    params: dict[str, Any] = {
        "a": args.a, "b": args.b, "skill_a": args.skill_a, "skill_b": args.skill_b,
        "turns": args.turns,
        "start_distance": 40 if args.start_distance is None else args.start_distance,
        **range_params(args.range, args.ranges, args.closing)}
    for s in ("a", "b"):
        for k in ("moved", "policy", "terrain", "targeting"):
            v = getattr(args, f"{k}_{s}")
            if v is not None:
                params[f"{k}_{s}"] = v
    if getattr(args, "rules", None) is not None:
        params["rules"] = args.rules
    params.update(rule_overrides(args, "duel"))
    return params


def to_text(doc: dict[str, Any]) -> str:
    """A readable summary and a per-turn table."""
    p = doc["params"]
    se = doc["mode"] == "monte-carlo"

    def f(k: str) -> str:
        v = doc[k]
        s = "-" if v is None else f"{v:.6g}"
        return s + (f" ± {doc[k + '_se']:.2g}" if se and doc.get(k + "_se") is not None else "")

    lines = [f"A: {p['a']} (PV {doc['pv_a']})  vs  B: {p['b']} (PV {doc['pv_b']})  range "
             f"{p['range']}  turns {p['turns']}  ({doc['mode']}"
             + (f", {doc['trials']} duels)" if se else ")"),
             f"P(A wins) {f('p_win_a')}   P(B wins) {f('p_win_b')}   P(draw) {f('p_draw')}   "
             f"P(timeout) {f('p_timeout')}   E[turns] {f('expected_turns')}"]
    lines.append(f"{'turn':>4} {'P(end)':>8} {'P(A dead by)':>12} {'P(B dead by)':>12} "
                 f"{'E[dmg A]':>8} {'E[dmg B]':>8} {'P(A shut)':>9} {'P(B shut)':>9}")
    for r in doc["turns"]:
        lines.append(f"{r['turn']:>4} {r['p_end']:8.4f} {r['p_a_destroyed_by']:12.4f} "
                     f"{r['p_b_destroyed_by']:12.4f} {r['expected_damage_a']:8.3f} "
                     f"{r['expected_damage_b']:8.3f} {r['p_shutdown_a']:9.4f} "
                     f"{r['p_shutdown_b']:9.4f}")
        if r["p_end_by"] >= 1 - 1e-9:      # the rest of the table is all zeros
            break
    for n in doc["notes"]:
        lines.append(f"note: {n}")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    if args.game == "classic":
        from sim.cli.classic_duel import run_classic

        for s in ("a", "b"):   # the Classic defaults where the Alpha Strike flags were not given
            if getattr(args, f"moved_{s}") is None:
                setattr(args, f"moved_{s}", "stand")
            if getattr(args, f"policy_{s}") is None:
                setattr(args, f"policy_{s}", "all")
        if args.closing not in (None, "close"):
            raise ConfigError("closing", args.closing, "close (the Classic duel's sides close "
                              "at full speed; hold-band is an Alpha Strike policy)")
        if args.start_distance is not None and args.closing is None:
            raise ConfigError("start-distance", args.start_distance, "used with --closing")
        return run_classic(args)
    from sim.alphastrike.duel.markov import why_not_exact
    from sim.alphastrike.duel.model import MODEL
    from sim.api import duel

    params = params_from_args(args)
    scn = MODEL.scenario(params)          # validates: ConfigError -> exit 2, one line
    if args.trials is None and MODEL.exact(scn) is None:
        raise UserError(f"no exact answer: {why_not_exact(scn)}; pass --trials N "
                        "[--seed S] for Monte Carlo")
    a, b = params.pop("a"), params.pop("b")
    res = duel(a, b, trials=args.trials, seed=args.seed, n_jobs=args.jobs,
               chunk_size=args.chunk_size, progress=args.progress, **params)
    doc = res.to_dict()
    print(json.dumps(doc, indent=2) if args.json else to_text(doc))
    return 0
