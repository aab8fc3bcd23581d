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
    print(to_text(frame, args.model, common | a, common | b, not args.independent, args.seed))
    return 0


#: columns of the compare frame that are not row-index columns
_VALUE_COLUMNS = {"metric", "a", "b", "diff", "diff_se", "diff_ci_low", "diff_ci_high",
                  "independent_se", "trials", "a_exact", "b_exact", "a_ci_low", "a_ci_high",
                  "b_ci_low", "b_ci_high"}


def to_text(frame: Any, model: str, a: dict[str, Any], b: dict[str, Any], paired: bool,
            seed: int) -> str:
    """The text table: A, B and B - A each as value (95% interval)
    (:func:`sim.summary.with_interval`, the one convention stated in the header), and the
    width of the 95% interval independent streams would give B - A (no bare standard
    error: ``--json`` keeps ``diff_se`` and ``independent_se``)."""
    from sim.engine import Z95
    from sim.summary import INTERVAL_NOTE, text_table, with_interval

    def num(v: Any) -> float | None:
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)

    def iv(r: Any, key: str, lo: str, hi: str) -> str:  # no observation: n/a, never nan
        text = with_interval(num(r[key]), low=num(r[lo]), high=num(r[hi]), spec="#.5g")
        return "n/a" if text == "-" else text

    index = [c for c in frame.columns if c not in _VALUE_COLUMNS]
    rows = []
    for _, r in frame.iterrows():
        width = num(r["independent_se"])
        rows.append([f"{r[c]!s}" for c in index] + [
            str(r["metric"]), iv(r, "a", "a_ci_low", "a_ci_high"),
            iv(r, "b", "b_ci_low", "b_ci_high"), iv(r, "diff", "diff_ci_low", "diff_ci_high"),
            "n/a" if width is None else format(2 * Z95 * width, ".3g")])
    lines = [f"{model}: B - A, {'paired' if paired else 'independent'} streams, "
             f"{int(frame['trials'].iloc[0])} trials each, seed {seed}; {INTERVAL_NOTE}",
             f"  A: {a}\n  B: {b}"]
    lines += text_table(index + ["metric", "A", "B", "B-A", "width if independent"], rows,
                        left=len(index) + 1)
    lines.append("(width if independent: of the 95% interval of B - A that independent "
                 "streams would give at these trials; --json gives the standard errors)")
    return "\n".join(lines)
