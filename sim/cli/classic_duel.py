"""``btsim classic-duel A B``: two Classic 'Mechs fight to destruction (issue 13).

    btsim classic-duel A B [--gunnery-a 4] [--gunnery-b 4] [--piloting-a 5] [--piloting-b 5]
      [--range R | --ranges a,b,c | --closing [--range START]] [--moved-a M] [--moved-b M]
      [--policy-a P] [--policy-b P] [--physical-a best|none] [--physical-b best|none]
      [--turns T] [--bv-a N] [--bv-b N] [--rule NAME=VALUE] [--trials N --seed S] [--json]

:func:`add_classic_arguments` and :func:`run_classic` are also what ``btsim duel --game
classic`` uses. Monte Carlo through :func:`sim.api.run_scenario`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.cli.common import add_rule_flags, int_arg, rule_overrides
from sim.cli.progress import add_progress
from sim.errors import ConfigError, UserError, check_int

EPILOG = """\
A and B are catalog names (btsim units) or .mtf files. --closing: both run at full speed
from --range (default 15) until adjacent, then move as --moved-a/-b say; each duel closes
in with the MP its 'Mechs have now (heat, damage; --rule closing_mp=undamaged: one schedule
for all). Firing policies
are the fire model's: all, neutral, below:H, max-expected. Physical attacks (range 1):
best (punch or kick, whichever has the most expected damage net of the kicker's fall risk)
or none.

examples:
  btsim classic-duel "Hunchback HBK-4G" "Wolverine WVR-6R" --range 6 --trials 20000
  btsim classic-duel "Atlas AS7-D" "Awesome AWS-8Q" --closing --moved-a walk --json"""




def _add(p: argparse.ArgumentParser, flag: str, **kw: Any) -> None:
    """Add ``flag`` unless the parser already has it (``btsim duel`` shares --range,
    --turns, --trials, ... with the Alpha Strike duel; the Classic run reads the same
    destinations)."""
    if flag not in p._option_string_actions:
        p.add_argument(flag, **kw)


def add_classic_arguments(p: argparse.ArgumentParser, *, units: bool = True) -> None:
    """Every option of the Classic duel (``units``: also the positional A and B). Options
    the parser already has are left alone, so this can extend ``btsim duel``."""
    from sim.classic.duel.api import DEFAULT_TURNS

    if units:
        p.add_argument("a", metavar="A", nargs="?", help="side A: catalog name or .mtf file")
        p.add_argument("b", metavar="B", nargs="?", help="side B: catalog name or .mtf file")
    for s in "ab":
        S = s.upper()
        _add(p, f"--gunnery-{s}", metavar="G", default="4", help=f"gunnery of {S} (default 4)")
        _add(p, f"--piloting-{s}", metavar="P", default="5", help=f"piloting of {S} (default 5)")
        _add(p, f"--moved-{s}", metavar="MODE", default=None,
             help=f"movement of {S} under the stand-and-fire tactic: stand|walk|run|jump "
             "(default stand)")
        _add(p, f"--policy-{s}", metavar="P", default=None,
             help=f"firing policy of {S}: all|neutral|below:H|max-expected (default "
             "max-expected under a tactic that moves, all under stand-and-fire)")
        _add(p, f"--tactic-{s}", metavar="NAME", default=None,
             help=f"tactic of {S}: competent (default at a fixed --range), stand-and-fire "
             "(default with --ranges or --closing), brawler, sniper, kite, charge")
        _add(p, f"--physical-{s}", metavar="P", default="best",
             help=f"physical attacks of {S} at range 1: best|none")
        _add(p, f"--targeting-{s}", metavar="POLICY", default=None,
             help=f"targeting of {S} with more than one 'Mech a side: focus-weakest "
             "(default), focus-threat, spread, finish")
        _add(p, f"--bv-{s}", default=None, metavar="N", help=f"Battle Value of {S} at "
             "gunnery 4 / piloting 5 (the base BV, as the catalog's; overrides it, needed for "
             f"a .mtf file); the duel adjusts it for --gunnery-{s}/--piloting-{s} (24.2): "
             "bv_" + s + " in the output is at the side's skills")
    from sim.cli.common import EDIT_HELP
    _add(p, "--edit", action="append", default=None, metavar="KEY=VALUE",
         help="side A: " + EDIT_HELP)
    _add(p, "--edit-b", action="append", default=None, metavar="KEY=VALUE",
         help="side B: the same (a mirror duel: A and B the same 'Mech, --edit on A)")
    _add(p, "--ranges", default=None, help="per-turn ranges, e.g. 9,6,3 (the last repeats)")
    _add(p, "--closing", action="store_true", help="both close at full speed until adjacent "
         "(from --range, default 15)")
    _add(p, "--range", default=None, help="range in hexes (default 6)")
    _add(p, "--turns", default=None, help=f"turns at most (default {DEFAULT_TURNS})")
    _add(p, "--trials", default="10000", help="Monte Carlo trials (default 10000)")
    _add(p, "--seed", default="0", help="random seed (default 0)")
    _add(p, "--chunk-size", default=None, help="trials per seeded chunk (default 16384, one "
         "kernel block)")
    _add(p, "--jobs", default="1", help="workers (default 1)")
    if not any(a.dest == "rule" for a in p._actions):
        add_rule_flags(p, "classic-duel", preset=False)
    if not any(a.dest == "progress" for a in p._actions):
        add_progress(p)
    _add(p, "--json", action="store_true", help="print one JSON object")


def _units(args: argparse.Namespace) -> list[Any]:
    """Side A and B from ``a``/``b``, ``unit_a``/``unit_b`` or a ``units`` list."""
    units = getattr(args, "units", None)
    if isinstance(units, list | tuple):
        return (list(units) + [None, None])[:2]
    return [getattr(args, "a", None) or getattr(args, "unit_a", None),
            getattr(args, "b", None) or getattr(args, "unit_b", None)]


def classic_params(args: argparse.Namespace) -> dict[str, Any]:
    """Model parameters from parsed arguments (UserError for a missing side)."""
    units = _units(args)
    for s, u in zip("ab", units, strict=True):
        if not u:
            raise UserError(f"side {s.upper()} has no unit: name a catalog 'Mech or an .mtf "
                            "file for both A and B")
    from sim.classic.duel.api import DEFAULT_TURNS

    for i, flag in ((0, "edit"), (1, "edit_b")):
        if getattr(args, flag, None):
            from sim.units.edited import edit_unit

            units[i] = edit_unit(units[i], getattr(args, flag), "--" + flag.replace("_", "-"))
    turns = getattr(args, "turns", None)
    params: dict[str, Any] = {"unit_a": units[0], "unit_b": units[1],
                              "turns": DEFAULT_TURNS if turns is None
                              else int_arg("turns", turns),
                              **rule_overrides(args, "classic-duel")}
    for s in "ab":      # a flag not given (None) leaves the model's default
        for k in ("gunnery", "piloting", "bv"):
            v = int_arg(f"{k}_{s}", getattr(args, f"{k}_{s}", None))
            if v is not None:
                params[f"{k}_{s}"] = v
        for k in ("moved", "policy", "physical", "tactic"):
            if getattr(args, f"{k}_{s}", None) is not None:
                params[f"{k}_{s}"] = getattr(args, f"{k}_{s}")
    if getattr(args, "closing", False) and getattr(args, "ranges", None) is not None:
        raise ConfigError("ranges", args.ranges, "either --closing or --ranges, not both")
    if getattr(args, "closing", False):
        params["closing"] = True
        start = getattr(args, "start_distance", None)   # btsim duel --game classic: hexes
        if args.range is not None:
            params["range"] = int_arg("range", args.range)
        elif start is not None:
            params["range"] = check_int("start_distance", start, lo=1, hi=99)
    elif getattr(args, "ranges", None) is not None:
        if args.range is not None:
            raise ConfigError("range", args.range, "either --range or --ranges, not both")
        params["ranges"] = args.ranges
    else:
        params["range"] = int_arg("range", args.range) if args.range is not None else 6
    return params


def force_sides(args: argparse.Namespace) -> bool:
    """Whether the command names a force engagement (issue 21, model ``classic-force``): a
    side written in the force syntax (``"UNIT@G/P"``, ``"UNIT@G/P,UNIT@G/P"``: more than one
    'Mech or skills per entry) or a ``--targeting-a/-b``."""
    return any(isinstance(u, str) and ("," in u or "@" in u) for u in _units(args)) or any(
        getattr(args, f"targeting_{s}", None) is not None for s in "ab")


def run_force(args: argparse.Namespace) -> int:
    """Run a force engagement (model ``classic-force``) of parsed arguments; print the
    readable summary or :func:`sim.classic.duel.force_api.result_view`'s document; 0."""
    from sim.classic.duel.force_api import to_text, with_view

    for flag in ("edit", "edit_b"):
        if getattr(args, flag, None):
            raise ConfigError(flag.replace("_", "-"), " ".join(getattr(args, flag)),
                              "an edit of a duel of one 'Mech a side (not a force)")
    params = classic_params(args)
    for s in "ab":
        if getattr(args, f"targeting_{s}", None) is not None:
            params[f"targeting_{s}"] = getattr(args, f"targeting_{s}")
    return _run_and_print("classic-force", params, args, with_view, to_text)


def _run_and_print(model: str, params: dict[str, Any], args: argparse.Namespace,
                   with_view: Any, to_text: Any) -> int:
    """Run ``model`` with the parsed run flags (trials 10,000 and seed 0 by default), print
    the readable summary or the JSON document; 0."""
    from sim.api import run_scenario

    trials = getattr(args, "trials", None)
    seed = getattr(args, "seed", None)
    res = with_view(run_scenario(
        model, params, trials=10_000 if trials is None else int_arg("trials", trials),
        seed=0 if seed is None else int_arg("seed", seed),
        n_jobs=int_arg("jobs", getattr(args, "jobs", None)) or 1,
        chunk_size=int_arg("chunk_size", getattr(args, "chunk_size", None)),
        progress=getattr(args, "progress", None) or "never"))
    doc = res.to_dict()
    print(json.dumps(doc, indent=2) if getattr(args, "json", False) else to_text(doc))
    return 0


def run_classic(args: argparse.Namespace) -> int:
    """Run the Classic duel of parsed arguments; print the readable summary or the JSON
    document (:func:`sim.classic.duel.api.result_view`, the same as
    ``sim.classic_duel(...).to_dict()``); 0. Sides of more than one 'Mech run the force
    engagement (:func:`run_force`)."""
    from sim.classic.duel.api import to_text, with_view

    if force_sides(args):
        return run_force(args)
    params = classic_params(args)
    return _run_and_print("classic-duel", params, args, with_view, to_text)


def register(sub: Any) -> None:
    """Add ``classic-duel`` to the ``btsim`` parser."""
    p = sub.add_parser("classic-duel", help="Classic duel of two 'Mechs to destruction (MC)",
                       description="Two Classic 'Mechs fight turn by turn until one is "
                       "destroyed: win probabilities, turns, causes, falls, shutdowns.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_classic_arguments(p)
    p.set_defaults(func=run_classic)


if __name__ == "__main__":  # pragma: no cover
    from sim.cli import main

    raise SystemExit(main())
