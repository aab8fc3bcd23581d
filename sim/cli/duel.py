"""``btsim duel``: Alpha Strike side A against side B to destruction (reference-as-combat)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.alphastrike.duel.api import to_json
from sim.cli.common import add_rule_flags, rule_overrides
from sim.cli.progress import add_progress
from sim.errors import ConfigError, UserError

__all__ = ["GAME_FLAGS", "check_game_flags", "main", "params_from_args", "register", "to_json",
           "to_text"]

EPILOG = """\
A side is a unit name (catalog; unique prefixes work), a card file (.csv / MUL .json),
UNIT@SKILL, or a force of up to 4 units "UNIT@SKILL,UNIT@SKILL" (--targeting-a/-b picks
targets: focus (default), nearest-to-death, most-dangerous, spread).

Alpha Strike defaults (reference-as-combat 20.6): both moved on the ground, front-on, clear terrain, no
overheat (policy never), Short range, 30 turns, skill 4. Both sides attack every turn; damage
and crits take effect in the End Phase; both destroyed in the same End Phase is a draw.
Answers are exact (Markov chain) where the joint state fits; otherwise the command says so
and asks for --trials N (Monte Carlo).

Policies: hold, never, max, fixed:K, below:H.  Terrain: clear, woods, cover, water, underwater.
Range: --range short|medium|long, or --ranges long,medium,short (one band per turn, the last
repeats), or --closing close|hold-band from --start-distance inches (20.7): close = both
close at full Move; hold-band = the faster unit keeps its preferred band (--rule
hold_band=net|own: damage dealt minus taken, per 20.7, or its own damage, per example E15).

--game classic (btsim classic-duel): A and B are Classic 'Mechs (catalog or .mtf), UNIT@G/P,
or forces of up to 4 "UNIT@G/P,UNIT@G/P" (model classic-force; --targeting-a/-b:
focus-weakest (default), focus-threat, spread, finish); skills are --gunnery-a/-b and
--piloting-a/-b (a force's entries without @G/P), --range and --ranges are hexes (default 6),
--closing close runs both at full speed from --start-distance hexes (default 15), turns
default to 20, Monte Carlo always (--trials, default 10000). The Alpha Strike-only flags
(--skill, --terrain, --rules) and the Classic-only ones (--gunnery, --piloting,
--physical, --bv) exit 2 with the other game.

examples:
  btsim duel "Locust LCT-1V" "Commando COM-1B"
  btsim duel "Atlas AS7-D@3" "Loki (Hellbringer) Prime" --range medium --policy-b max --json
  btsim duel "Atlas AS7-D,Locust LCT-1V@3" "Mad Cat (Timber Wolf) S" --trials 100000 --seed 1
  btsim duel "Catapult CPLT-C1" "Atlas AS7-D" --closing close --rule crits=false
  btsim duel --game classic "Hunchback HBK-4G" "Wolverine WVR-6R" --range 6 --gunnery-a 3
  btsim duel --game classic "Atlas AS7-D@3/4,Hunchback HBK-4G" "Awesome AWS-8Q,Wolverine WVR-6R" --range 3 --targeting-b finish"""


#: flags of one game only (dest -> (flag, game, what the other game takes instead)); given
#: with the other ``--game`` they exit 2 naming the flag and its game (:func:`check_game_flags`)
GAME_FLAGS: dict[str, tuple[str, str, str]] = {
    **{f"{k}_{s}": (f"--{k}-{s}", "alphastrike", hint) for s in "ab" for k, hint in (
        ("skill", f"the classic duel takes --gunnery-{s} and --piloting-{s}"),
        ("terrain", "the classic duel has no terrain"),)},
    "rules": ("--rules", "alphastrike", "the classic duel takes no preset: set options with "
              "--rule NAME=VALUE (btsim rules --game classic)"),
    **{f"{k}_{s}": (f"--{k}-{s}", "classic", hint) for s in "ab" for k, hint in (
        ("gunnery", f"an Alpha Strike unit has one skill: --skill-{s} or UNIT@SKILL"),
        ("piloting", f"an Alpha Strike unit has one skill: --skill-{s} or UNIT@SKILL"),
        ("physical", "Alpha Strike physical attacks are part of the damage values"),
        ("bv", "Alpha Strike sides are valued by PV, from the card"))},
}
_GAME_NAMES = {"alphastrike": "Alpha Strike", "classic": "Classic"}


def check_game_flags(args: argparse.Namespace) -> None:
    """UserError (exit 2, one line) for a flag given that belongs to the other ``--game``
    (every game-specific flag defaults to None in ``btsim duel``, so given = not None)."""
    for dest, (flag, game, hint) in GAME_FLAGS.items():
        if game != args.game and getattr(args, dest, None) is not None:
            raise UserError(f"{flag} is a flag of the {_GAME_NAMES[game]} duel (--game "
                            f"{game}), not of --game {args.game}: {hint}")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "duel", help="duel of side A against side B to destruction (Alpha Strike, or "
        "--game classic)",
        description="Alpha Strike duel (reference-as-combat 20-23): win, draw and timeout "
        "probabilities, the turn the fight ends, damage and shutdowns per turn, PV at skill. "
        "--game classic: two Classic 'Mechs (the options of btsim classic-duel). Flags marked "
        "with one game's name are refused (exit 2) with the other --game.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from sim.alphastrike.duel.scenario import PARAMS as AS
    from sim.classic.duel.api import DEFAULT_TURNS

    p.add_argument("a", metavar="A", help="side A: UNIT, UNIT@SKILL or 'U@S,U@S' (<= 4 "
                   "units); --game classic: a catalog 'Mech or .mtf file")
    p.add_argument("b", metavar="B", help="side B, same forms")
    p.add_argument("--skill-a", default=None, metavar="S", help="Alpha Strike only: skill "
                   f"of side A's units written without @SKILL (0-7, default {AS['skill_a']})")
    p.add_argument("--skill-b", default=None, metavar="S", help="Alpha Strike only: same for "
                   "side B")
    rng = p.add_mutually_exclusive_group()
    rng.add_argument("--range", default=None, metavar="R", help="alphastrike: a band, "
                     f"short|medium|long (default {AS['range']}); classic: hexes (default 6; "
                     "with --closing use --start-distance)")
    rng.add_argument("--ranges", default=None, metavar="R1,R2,...",
                     help="range per turn, the last repeats: alphastrike bands "
                     "(long,medium,short), classic hexes (9,6,3)")
    rng.add_argument("--closing", default=None, metavar="POLICY",
                     help="both sides close (alphastrike, 20.7: close | hold-band; classic: "
                     "close, at full speed until adjacent)")
    p.add_argument("--start-distance", default=None, metavar="D",
                   help="starting distance for --closing: alphastrike inches (default "
                   f"{AS['start_distance']}); classic hexes (default 15)")
    for s in ("a", "b"):
        S = s.upper()
        p.add_argument(f"--moved-{s}", default=None, metavar="MODE",
                       help=f"side {S}'s movement: alphastrike ground|still|jump (default "
                       f"{AS[f'moved_{s}']}); classic stand|walk|run|jump (default stand)")
        p.add_argument(f"--policy-{s}", default=None, metavar="P",
                       help=f"side {S}'s policy: alphastrike overheat hold|never|max|fixed:K|"
                       f"below:H (default {AS[f'policy_{s}']}); classic firing "
                       "all|neutral|below:H|max-expected (default all)")
        p.add_argument(f"--terrain-{s}", default=None, metavar="T",
                       help=f"Alpha Strike only: side {S}'s terrain (default "
                       f"{AS[f'terrain_{s}']})")
        p.add_argument(f"--targeting-{s}", default=None, metavar="POLICY",
                       help=f"side {S}'s targeting in a force fight: alphastrike focus "
                       "(default), nearest-to-death, most-dangerous, spread; classic "
                       "focus-weakest (default), focus-threat, spread, finish")
        p.add_argument(f"--tactic-{s}", default=None, metavar="NAME",
                       help=f"side {S}'s tactic: competent (default), stand-and-fire, brawler, "
                       "sniper, kite, charge (classic: competent by default at a fixed "
                       "--range, stand-and-fire with --ranges or --closing)")
    p.add_argument("--tactics", default=None, choices=("matrix",),
                   help="matrix: play every pair of tactics (--tactic-set) and print P(A "
                   "wins), P(B wins), E[turns], each side's maximin and the value of the "
                   "zero-sum game")
    p.add_argument("--tactic-set", default=None, metavar="T1,T2,...",
                   help="the tactics of --tactics matrix (default: every named tactic)")
    p.add_argument("--turns", default=None, metavar="T", help="turn limit (default "
                   f"{AS['turns']} for alphastrike, {DEFAULT_TURNS} for classic)")
    from sim.cli.common import EDIT_HELP

    p.add_argument("--edit", action="append", default=None, metavar="KEY=VALUE",
                   help="side A (one unit): " + EDIT_HELP + "; Alpha Strike: the edited "
                   "unit plays its converted card (against the unedited one name B as "
                   "'NAME (converted)')")
    p.add_argument("--edit-b", action="append", default=None, metavar="KEY=VALUE",
                   help="side B: the same")
    add_rule_flags(p, "duel")
    for act in p._actions:
        if act.dest == "rule":
            act.help = ("override one rule option of the chosen --game (repeatable; `btsim "
                        "rules --game alphastrike|classic` lists them with their values)")
        elif act.dest == "rules":
            act.help = "Alpha Strike only: rule set " + (act.help or "").split(": ", 1)[-1]
    p.add_argument("--trials", type=int, metavar="N", help="Monte Carlo duels (alphastrike: "
                   "default exact where the state fits; classic: always Monte Carlo, default "
                   "10000)")
    p.add_argument("--seed", type=int, metavar="S", help="root seed for Monte Carlo "
                   "(default 0)")
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
    # the Classic-only flags: None when not given, so a flag of the other game is detected
    p.set_defaults(**{f"{k}_{s}": None for s in "ab"
                      for k in ("gunnery", "piloting", "physical", "bv")})
    for act in p._actions:
        if act.dest in GAME_FLAGS and GAME_FLAGS[act.dest][1] == "classic" and act.help:
            act.help = "Classic only: " + act.help
    p.set_defaults(func=main)


def params_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The duel model's parameters from the command line (``--rule`` through the option
    registry: names and values checked against the options the duel reads; flags not given
    are left to the model's defaults)."""
    from sim.alphastrike.duel.scenario import range_params

    if args.seed is not None and args.trials is None:
        raise ConfigError("seed", args.seed, "given only with --trials (exact answers need none)")
    params: dict[str, Any] = {
        "a": args.a, "b": args.b,
        **range_params(args.range, args.ranges, args.closing)}
    for k in ("skill_a", "skill_b", "turns", "start_distance"):
        if getattr(args, k) is not None:
            params[k] = getattr(args, k)
    for s in ("a", "b"):
        for k in ("moved", "policy", "terrain", "targeting", "tactic"):
            v = getattr(args, f"{k}_{s}")
            if v is not None:
                params[f"{k}_{s}"] = v
    if getattr(args, "rules", None) is not None:
        params["rules"] = args.rules
    params.update(rule_overrides(args, "duel"))
    for s, flag in (("a", "edit"), ("b", "edit_b")):
        if getattr(args, flag, None):
            params[s] = edited_side(params[s], params.get(f"skill_{s}", 4), getattr(args, flag),
                                    "--" + flag.replace("_", "-"))
    return params


def edited_side(side: Any, skill: Any, items: list[str], flag: str) -> Any:
    """An Alpha Strike side of one unit with ``--edit`` applied: ``[(card, skill)]``, the card
    converted from the edited design (:func:`sim.units.edited.edit_side`)."""
    from sim.alphastrike.duel.sides import parse_side
    from sim.units.edited import edit_side

    pairs = parse_side(side, skill, "side")
    if len(pairs) != 1:
        raise ConfigError(flag, " ".join(items), f"an edit of a side of one unit (got "
                          f"{len(pairs)} units)")
    return [(edit_side(pairs[0][0], items, flag), pairs[0][1])]


def side_label(side: Any) -> str:
    """A side as the output names it (an edited side is a card: its name)."""
    if isinstance(side, list) and side and isinstance(side[0], tuple):
        return ",".join(f"{getattr(u, 'name', u)}@{sk}" for u, sk in side)
    return str(side)


def to_text(doc: dict[str, Any]) -> str:
    """A readable summary and a per-turn table."""
    p = doc["params"]
    se = doc["mode"] == "monte-carlo"

    from sim.summary import (
        INTERVAL_NOTE,
        estimate_text,
        rows_until_settled,
        text_table,
        with_interval,
    )

    def f(k: str) -> str:
        if not se:
            return with_interval(doc[k], spec=".6g")
        return estimate_text(doc[k], doc.get(k + "_se"), doc.get("trials"),
                             k.startswith("p_"), digits=3)

    lines = [f"A: {p['a']} (PV {doc['pv_a']})  vs  B: {p['b']} (PV {doc['pv_b']})  range "
             f"{p['range']}  turns {p['turns']}  ({doc['mode']}"
             + (f", {doc['trials']} duels; {INTERVAL_NOTE})" if se else ")"),
             f"tactics: A {p.get('tactic_a', 'stand-and-fire')}, B "
             f"{p.get('tactic_b', 'stand-and-fire')}",
             f"P(A wins) {f('p_win_a')}   P(B wins) {f('p_win_b')}   P(draw) {f('p_draw')}   "
             f"P(timeout) {f('p_timeout')}   E[turns] {f('expected_turns')}"]
    cols = (("P(end)", "p_end", 4), ("P(A dead by)", "p_a_destroyed_by", 4),
            ("P(B dead by)", "p_b_destroyed_by", 4), ("E[dmg A]", "expected_damage_a", 3),
            ("E[dmg B]", "expected_damage_b", 3), ("P(A shut)", "p_shutdown_a", 4),
            ("P(B shut)", "p_shutdown_b", 4))
    rows = []
    for r in rows_until_settled(doc["turns"], [r["p_end_by"] for r in doc["turns"]]):
        rows.append([str(r["turn"])] + [
            estimate_text(r[k], r.get(k + "_se") if se else None, doc.get("trials"),
                          k.startswith("p_"), digits=d) for _, k, d in cols])
    lines += text_table(["turn"] + [h for h, _, _ in cols], rows)
    for n in doc["notes"]:
        lines.append(f"note: {n}")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    check_game_flags(args)
    if args.game == "classic":
        from sim.cli.classic_duel import run_classic

        if args.tactics == "matrix" or args.tactic_set is not None:
            return _classic_matrix(args)
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
    if args.tactics == "matrix" or args.tactic_set is not None:
        return _matrix(args, params)
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


def _matrix(args: argparse.Namespace, params: dict[str, Any]) -> int:
    """``--tactics matrix``: every pair of tactics (Alpha Strike)."""
    from sim.alphastrike.duel.api import tactic_matrix

    if args.tactics != "matrix":
        raise ConfigError("tactic-set", args.tactic_set, "given with --tactics matrix")
    for s in ("a", "b"):
        if params.get(f"tactic_{s}") is not None:
            raise ConfigError(f"tactic-{s}", params[f"tactic_{s}"], "not with --tactics matrix "
                              "(it plays every tactic of --tactic-set for both sides)")
    a, b = params.pop("a"), params.pop("b")
    m = tactic_matrix(a, b, args.tactic_set, trials=args.trials, seed=args.seed,
                      n_jobs=args.jobs, **params)
    a, b = side_label(a), side_label(b)
    if args.json:
        print(json.dumps({"a": a, "b": b, "params": params, **m.to_dict()}, indent=2))
    else:
        print(f"A: {a}  vs  B: {b}  tactic matrix (A's score = P(A wins) + 1/2 P(draw or "
              "timeout))")
        print(m.to_text())
    return 0


def _classic_matrix(args: argparse.Namespace) -> int:
    """``--tactics matrix --game classic``: the Classic tactics (issue 22,
    :mod:`sim.classic.duel.tactics`) against each other, Monte Carlo
    (:func:`sim.classic.duel.api.tactic_matrix`)."""
    from sim import tactics as G
    from sim.classic.duel import tactics as CT
    from sim.classic.duel.api import tactic_matrix
    from sim.cli.classic_duel import classic_params

    if args.tactics != "matrix":
        raise ConfigError("tactic-set", args.tactic_set, "given with --tactics matrix")
    if args.closing is not None or args.ranges is not None:
        raise ConfigError("closing" if args.closing is not None else "ranges",
                          args.closing or args.ranges, "unset with --tactics matrix (the "
                          "tactics move from a fixed --range)")
    for s in ("a", "b"):
        if getattr(args, f"tactic_{s}") is not None:
            raise ConfigError(f"tactic-{s}", getattr(args, f"tactic_{s}"),
                              "not with --tactics matrix (it plays every tactic of "
                              "--tactic-set for both sides)")
    names = G.names_of(CT.GAME, args.tactic_set, "tactic-set")
    params = classic_params(args)
    a, b = params.pop("unit_a"), params.pop("unit_b")
    m = tactic_matrix(a, b, names, trials=args.trials, seed=args.seed, n_jobs=args.jobs,
                      **params)
    if args.json:
        from sim.result import jsonable

        print(json.dumps({"a": args.a, "b": args.b, "params": jsonable(params),
                          **m.to_dict()}, indent=2, default=str))
    else:
        print(f"A: {args.a}  vs  B: {args.b}  Classic tactic matrix (Monte Carlo; A's score "
              "= P(A wins) + 1/2 P(draw or timeout))")
        print(m.to_text())
    return 0
