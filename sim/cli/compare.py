"""``btsim compare``: two ad-hoc scenarios of one model, B - A, on shared random streams.

    btsim compare MODEL --a K=V [--a K=V ...] --b K=V [...] [--set K=V ...]
      (--trials N | --target-error X [--target-metric M] [--max-trials N])
      [--seed S] [--chunk-size C] [--jobs J] [--metric M ...] [--independent] [--json]

``--set`` gives the parameters both scenarios share, ``--a``/``--b`` what differs (the
experiment-grid parameter names of the model; ``-`` may stand for ``_``). A value is read as
TOML when it parses (``5``, ``true``, ``["tn=8,dmg=3"]``), else as text. Both scenarios draw
the same dice chunk by chunk (paired; ``--independent`` turns that off), and the difference
gets its standard error and 95% interval from the per-chunk paired differences.
"""

from __future__ import annotations

import argparse
import json
import math
import tomllib
from typing import Any

from sim.cli.common import add_precision_flags, precision_args
from sim.cli.progress import add_progress
from sim.errors import ConfigError

EPILOG = """examples:
  btsim compare heat --set ov=2 --set 'incoming=["tn=6,dmg=3,ht=1"]' \\
      --a policy=never --b policy=max --trials 200000 --seed 1
  btsim compare attack --set attack=kick --set tons=60 --a piloting=4 --b piloting=5 \\
      --trials 1000000 --metric p_hit --metric p_attacker_falls
  btsim compare punch-demo --set tons=70 --a target_hexes=0 --b target_hexes=3 \\
      --target-error 0.002 --json"""


def parse_assignment(text: str, flag: str) -> tuple[str, Any]:
    """``K=V`` -> (key, value): the value as TOML when it parses, else as text."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise ConfigError(flag, text, "KEY=VALUE (e.g. piloting=4)")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare", help="B - A for two scenarios of one model, on shared random streams",
        description="Compare two scenarios of one model: every metric's difference B - A "
        "with its standard error and 95% interval. Both draw the same dice (paired), which "
        "makes the difference far more precise than two separate runs.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", metavar="MODEL", help="a model name (attack, heat, punch-demo...)")
    p.add_argument("--a", action="append", default=[], metavar="K=V",
                   help="a parameter of scenario A (repeatable)")
    p.add_argument("--b", action="append", default=[], metavar="K=V",
                   help="a parameter of scenario B (repeatable)")
    p.add_argument("--set", action="append", default=[], metavar="K=V",
                   help="a parameter both scenarios share (repeatable)")
    p.add_argument("--trials", type=int, metavar="N", help="Monte Carlo trials per scenario")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="root seed (default 0)")
    p.add_argument("--chunk-size", type=int, metavar="N", help="trials per seeded chunk "
                   "(default: the model's, 2**18 for most, lowered so that the trials make "
                   ">= 32 chunks: the SE of a paired difference comes from its chunks)")
    p.add_argument("--jobs", type=int, default=1, help="workers (default 1)")
    p.add_argument("--metric", action="append", metavar="M", help="metrics to show "
                   "(repeatable; default every probability and mean metric)")
    p.add_argument("--independent", action="store_true",
                   help="independent random streams instead of shared ones")
    add_precision_flags(p)
    add_progress(p)
    p.add_argument("--json", action="store_true", help="print JSON records")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from sim.api import compare

    a = dict(parse_assignment(t, "a") for t in args.a)
    b = dict(parse_assignment(t, "b") for t in args.b)
    common = dict(parse_assignment(t, "set") for t in args.set)
    if not a and not b:
        raise ConfigError("b", None, "at least one --a or --b parameter that differs")
    frame = compare(args.model, a, b, common, trials=args.trials, seed=args.seed,
                    n_jobs=args.jobs, chunk_size=args.chunk_size,
                    paired=not args.independent, metrics=args.metric,
                    progress=args.progress, **precision_args(args))
    if args.json:
        from sim.result import jsonable

        doc = {"model": args.model, "a": common | a, "b": common | b,
               "paired": not args.independent, "seed": args.seed,
               "rows": jsonable(frame.to_dict(orient="records"))}
        print(json.dumps(doc, indent=2))
        return 0
    print(f"{args.model}: B - A, {'paired' if not args.independent else 'independent'} "
          f"streams, {int(frame['trials'].iloc[0])} trials each, seed {args.seed}")
    print(f"  A: {common | a}\n  B: {common | b}")
    index = [c for c in frame.columns if c not in {
        "metric", "a", "b", "diff", "diff_se", "diff_ci_low", "diff_ci_high",
        "independent_se", "trials", "a_exact", "b_exact"}]
    head = " ".join(f"{c:>5}" for c in index) + (" " if index else "")
    print(f"{head}{'metric':<32} {'A':>10} {'B':>10} {'B-A':>10} {'SE':>9} "
          f"{'95% CI':>23} {'SE indep':>9}")
    for _, r in frame.iterrows():
        cells = " ".join(f"{r[c]!s:>5}" for c in index) + (" " if index else "")

        def f(v: float, w: int = 10) -> str:  # no value (no observation): n/a, never nan
            return f"{'n/a':>{w}}" if v is None or math.isnan(v) else f"{v:>{w}.5g}"

        print(f"{cells}{r['metric']:<32} {f(r['a'])} {f(r['b'])} {f(r['diff'])} "
              f"{f(r['diff_se'], 9)} [{f(r['diff_ci_low'])}, {f(r['diff_ci_high'])}] "
              f"{f(r['independent_se'], 9)}")
    return 0
