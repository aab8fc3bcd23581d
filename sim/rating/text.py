"""Text and JSON views of a rating (``btsim rate``): the table a forum argument can quote,
with every Monte Carlo number as its 95% interval and a fair price beyond the catalog's
prices written "beyond the data"."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd


def fmt_price(v: Any) -> str:
    if v is None or not np.isfinite(v):
        return "∞" if v == math.inf else "–"
    return f"{float(v):.0f}" if abs(float(v)) >= 100 else f"{float(v):.1f}"


def fair_text(row: pd.Series, sep: str = " to ") -> str:
    """Fair price with its 95% interval, or why there is none (``sep`` between the bounds:
    ``–`` in the text outputs' one convention, :func:`sim.summary.with_interval`)."""
    if not np.isfinite(row["fair_price"]):
        return "undetermined"
    iv = f"({fmt_price(row['fair_price_ci_low'])}{sep}{fmt_price(row['fair_price_ci_high'])})"
    if row["beyond_data"]:
        return f"beyond the data {iv}"
    return f"{fmt_price(row['fair_price'])} {iv}"


def ratio_text(row: pd.Series) -> str:
    """Price / fair price with its 95% interval (the fair price's bounds, inverted), or
    ``–`` where the fair price is undetermined or beyond the data."""
    if not np.isfinite(row["ratio"]) or row["beyond_data"]:
        return "–"
    lo_f, hi_f, price = row["fair_price_ci_low"], row["fair_price_ci_high"], row["price"]
    lo = price / hi_f if np.isfinite(hi_f) and hi_f > 0 else 0.0
    hi = price / lo_f if np.isfinite(lo_f) and lo_f > 0 else math.inf
    return f"{row['ratio']:.2f} ({lo:.2f}–{'∞' if hi == math.inf else f'{hi:.2f}'})"


def summary_lines(frame: pd.DataFrame, meta: dict[str, Any]) -> list[str]:
    """The run's verdict table (``scenario == "all"``), strongest first, and its assumptions."""
    lab = meta.get("price_label", "price")
    f = frame[frame["scenario"] == "all"].sort_values("strength", ascending=False)
    f = f[f["rated"]] if "rated" in f else f
    rows: list[list[str]] = []
    verdicts: list[str] = []
    for _, r in f.iterrows():
        st = (f"{r['strength']:+.2f} ({r['strength_ci_low']:+.2f}–"
              f"{r['strength_ci_high']:+.2f})")
        verdict = r["verdict"] + (f" ({r['robustness']})" if r["verdict"] != "no verdict"
                                  else f": {r['reason'] or r['robustness']}")
        rows.append([str(r["unit"])[:34], fmt_price(r["price"]), fair_text(r, "–"),
                     ratio_text(r), st, str(int(r["n"]))])
        verdicts.append(verdict)
    from sim.summary import INTERVAL_NOTE, text_table

    table = text_table(["unit", lab, f"fair {lab}", f"{lab} / fair", "strength", "n"], rows,
                       left=1)
    width = max(len(x) for x in table)
    table = [f"{x:<{width}}  {v}" for x, v in zip(table, ["verdict / robustness", *verdicts],
                                                  strict=True)]
    lines = [INTERVAL_NOTE, table[0], "-" * len(table[0])] + table[1:]
    lines += price_lines(f, meta)
    left = meta.get("left_out") or {}
    groups: dict[str, list[str]] = {}
    for u, why in sorted(left.items()):
        groups.setdefault(str(why), []).append(str(u))
    lines += ["", f"units: {meta.get('units_how', 'given')}"
              + (f"; {len(left)} of the catalog cannot play {meta.get('game')} (not rated)"
                 if left else "")]
    lines += [f"not rated: {', '.join(us[:8])}"
              + (f" and {len(us) - 8} more" if len(us) > 8 else "") + f": {why}"
              for why, us in groups.items()]
    lines += [f"pool: {', '.join(meta['pool'])} ({meta['pool_how']})",
              "scenarios: " + ", ".join(s["name"] for s in meta["scenarios"])
              + f"; seatings: {meta['seatings']}; tactic: {meta['tactic']}",
              f"verdicts: {meta['correction']} correction at {meta['alpha']:g} over all "
              f"{meta.get('family', '?')} rated units ({meta.get('judged', '?')} of them can "
              f"get a verdict), in every scenario; {meta['duels']:,} duels "
              + (f"(+ {meta['screen_duels']:,} screening the maximin tactics) "
                 if meta.get("screen_duels") else "")
              + f"({meta['exact_pairings']} exact pairings), seed {meta['seed']}, target error "
              f"{meta['target_error']:g}"]
    gap = meta.get("gap") or {}
    for w in gap.get("ratio_for", []):
        if w["score"] == 0.75:
            lines.append(f"a {lab} ratio of {w['ratio']:.2f} ({w['low']:.2f}–"
                         f"{w['high']:.2f}) gives the dearer side a 75% score")
    return lines


def price_lines(f: pd.DataFrame, meta: dict[str, Any]) -> list[str]:
    """Where the rated units' prices come from (``price`` option, sim.rating.prices): the
    count of official ones, then one line per unit priced otherwise, with its source."""
    if "price_source" not in f:
        return []
    src = [(str(u), str(s)) for u, s in zip(f["unit"], f["price_source"], strict=True)]
    official = sum(s.startswith("official: ") for _, s in src)
    out = ["", f"prices ({meta.get('price_mode', 'official')}): {official} of "
           f"{len(src)} official (Master Unit List)"]
    out += [f"price of {u}: {s}" for u, s in src if not s.startswith("official: ")]
    return out


def to_json(frame: pd.DataFrame, meta: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` document: ``meta`` (plan, curves, gap) and ``units`` (every row)."""
    def clean(v: Any) -> Any:
        if isinstance(v, float | np.floating):
            return float(v) if np.isfinite(v) else None
        if isinstance(v, np.integer):
            return int(v)
        if isinstance(v, np.bool_):
            return bool(v)
        return v

    rows = [{k: clean(v) for k, v in r.items()} for r in frame.to_dict(orient="records")]
    return {"meta": meta, "units": rows}
