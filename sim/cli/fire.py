"""``btsim fire``: one Classic 'Mech firing at a target for N turns (issue 11).

    btsim fire UNIT [--gunnery 4] [--range 6 | --ranges 3,6,9] [--moved stand|walk|run|jump]
      [--target-hexes H] [--target-jumped] [--terrain T] [--policy P] [--turns 10]
      [--start-heat H] [--water] [--rule NAME=VALUE]
      [--trials N --seed S [--chunk-size C] [--jobs J]] [--progress MODE] [--json]

Exact (Markov chain) by default; Monte Carlo with ``--trials`` through the one door
(:func:`sim.api.run_scenario`): the same seed, trials and chunk size give the same bits as
``sim.fire`` and ``btsim run`` of an experiment with the ``fire`` model.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sim.cli.common import add_edit_flag, add_rule_flags, int_arg, rule_overrides
from sim.cli.progress import add_progress
from sim.errors import ConfigError

EPILOG = """\
UNIT is a catalog name (btsim units) or an .mtf file. --ranges is a per-turn script (the
last range repeats). Policies: all (everything that can fire), neutral (most expected damage
without heat rising), below:H (keep heat below H, < H, after the heat phase), max-expected (two-turn
lookahead with heat penalties). Rows are read after each turn's heat phase.

examples:
  btsim fire "Hunchback HBK-4G" --range 3 --moved run --turns 6
  btsim fire "Awesome AWS-8Q" --ranges 12,9,6 --policy neutral --json
  btsim fire "Hunchback HBK-4G" --policy below:13 --trials 100000 --seed 1
  btsim fire "Hunchback HBK-4G" --edit heat_sinks=+2 --edit tonnage=free"""


def register(sub: Any) -> None:
    p = sub.add_parser("fire", help="Classic weapon fire and heat over N turns (exact or MC)",
                       description="Per-turn damage, heat, shutdown and ammunition explosion "
                       "curves of one Classic 'Mech firing at a target.", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("unit", metavar="UNIT", help="catalog name or .mtf file")
    p.add_argument("--gunnery", default="4", help="gunnery skill (default 4)")
    rg = p.add_mutually_exclusive_group()
    rg.add_argument("--range", default=None, help="range in hexes (default 6)")
    rg.add_argument("--ranges", default=None, help="per-turn ranges, e.g. 3,6,9")
    p.add_argument("--moved", default="stand", help="stand|walk|run|jump (default stand)")
    p.add_argument("--target-hexes", default="0", help="hexes the target moved (default 0)")
    p.add_argument("--target-jumped", action="store_true", help="the target jumped")
    p.add_argument("--terrain", default="clear", help="clear|light-woods|heavy-woods")
    p.add_argument("--policy", default="all", help="all|neutral|below:H|max-expected")
    p.add_argument("--turns", default="10", help="turns (default 10)")
    p.add_argument("--start-heat", default="0", help="heat at the start (default 0)")
    p.add_argument("--water", action="store_true", help="the 'Mech stands in depth-1 water")
    p.add_argument("--target-ams", default="0", help="anti-missile systems of the target, "
                   "each engaging one missile attack a turn (10.3; default 0; which attack: "
                   "--rule ams_engages=hit|declared)")
    add_edit_flag(p)
    add_mc_flags(p, "fire")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def add_mc_flags(p: argparse.ArgumentParser, model: str) -> None:
    """``--rule``, ``--trials``, ``--seed``, ``--chunk-size``, ``--jobs``, ``--progress``."""
    add_rule_flags(p, model, preset=False)
    p.add_argument("--trials", default=None, help="Monte Carlo trials (omit for exact)")
    p.add_argument("--seed", default=None, help="random seed with --trials (default 0)")
    p.add_argument("--chunk-size", default=None, help="trials per seeded chunk for --trials "
                   "(default 2**18; the same seed, trials and chunk size give the same bits "
                   "as btsim run)")
    p.add_argument("--jobs", default="1", help="workers for Monte Carlo (default 1)")
    add_progress(p)


def edited_unit(args: argparse.Namespace) -> Any:
    """``args.unit``, edited by ``--edit`` when given (:func:`sim.units.edited.edit_unit`;
    a bad edit names ``--edit``)."""
    if not getattr(args, "edit", None):
        return args.unit
    from sim.units.edited import edit_unit

    return edit_unit(args.unit, args.edit, "--edit")


def run(args: argparse.Namespace) -> int:
    from sim.classic.fire.api import fire_result

    params: dict[str, Any] = {
        "unit": edited_unit(args), "gunnery": int_arg("gunnery", args.gunnery), "moved": args.moved,
        "target_hexes": int_arg("target_hexes", args.target_hexes),
        "target_jumped": bool(args.target_jumped), "terrain": args.terrain,
        "policy": args.policy, "turns": int_arg("turns", args.turns),
        "start_heat": int_arg("start_heat", args.start_heat), "water": bool(args.water),
        "target_ams": int_arg("target_ams", args.target_ams), **rule_overrides(args, "fire")}
    if args.ranges is not None:
        params["ranges"] = args.ranges
    else:
        params["range"] = int_arg("range", args.range) if args.range is not None else 6
    if args.seed is not None and args.trials is None:
        raise ConfigError("seed", args.seed, "given only with --trials")
    res = fire_result(params, trials=int_arg("trials", args.trials),
                      seed=int_arg("seed", args.seed), n_jobs=int_arg("jobs", args.jobs) or 1,
                      chunk_size=int_arg("chunk_size", args.chunk_size),
                      progress=args.progress)
    doc = res.to_dict()
    print(json.dumps(doc, indent=2) if args.json else table(doc))
    return 0


def _f(x: Any, se: Any = None, trials: Any = None, prob: bool = False) -> str:
    """``x`` with its 95% interval (:func:`sim.summary.with_interval`): a probability's the
    Wilson interval of ``trials`` (the engine's), another's 1.96 ``se``; ``x`` alone when
    exact."""
    from sim.summary import proportion_interval, with_interval

    if prob and se is not None and trials and x is not None and x == x:
        lo, hi = proportion_interval(float(x), float(trials))
        return with_interval(x, low=lo, high=hi)
    return with_interval(x, se)


def table(doc: dict[str, Any]) -> str:
    """A readable summary: weapons at turn 1 (exact: one roll each, no heat), then one line
    per turn (Monte Carlo: value (95% interval))."""
    from sim.summary import text_table

    p = doc["params"]
    mc = doc["mode"] != "exact"
    lines = [f"{p['unit']} firing at range {p['range']} (gunnery {p['gunnery']}, moved "
             f"{p['moved']}, policy {p['policy']}, dissipation {doc['dissipation']}; "
             + (f"Monte Carlo, {doc['trials']} trials)" if mc else "exact)")]
    if mc:
        from sim.summary import INTERVAL_NOTE

        lines.append(INTERVAL_NOTE)
    for n in doc["notes"]:
        lines.append(f"note: {n}")
    lines.append(f"{'weapon':<22} {'loc':<4} {'TN':>3} {'P(hit)':>7} {'E[dmg]':>7}"
                 + ("  (exact: turn 1, one roll each)" if mc else ""))
    for w in doc["weapons"]:
        name = w["name"] + (" (R)" if w["rear"] else "")
        if "reason" in w:
            lines.append(f"{name:<22} {w['location']:<4} {w.get('target_number', '-')!s:>3} "
                         f"{w['reason']}")
        else:
            lines.append(f"{name:<22} {w['location']:<4} {w['target_number']:>3} "
                         f"{w['p_hit']:7.3f} {w['expected_damage']:7.3f}")
    rows = []
    for t in doc["turns"]:
        rows.append([str(t["turn"])] + [
            _f(t[m], t.get(m + "_se"), doc.get("trials"), m.startswith("p_")) for m in
            ("expected_damage", "expected_cumulative_damage", "mean_heat", "p_shutdown",
             "p_shutdown_by", "p_ammo_explosion_by")])
    lines += text_table(["turn", "E[dmg]", "E[cum]", "mean heat", "P(shut)", "P(shut by)",
                         "P(expl by)"], rows)
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    from sim.cli import main

    sys.exit(main(["fire", *sys.argv[1:]]))
