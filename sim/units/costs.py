"""What a change costs (issue 20): the derived numbers of the ``change-costs`` experiment
(``experiments/14_change_costs.toml``, report section ``change-costs``).

For each edited 'Mech of a Classic mirror duel (side A the 'Mech changed by
:func:`sim.units.edit`, side B the unchanged one; model ``classic-duel``),
:func:`change_cost_table` sets side by side

* the prices: Battle Value 2 (:func:`sim.units.battle_value`, reference-bv.md) and Point Value
  (:func:`sim.units.alpha_strike_card`, reference-as-conversion.md) before and after;
* the Alpha Strike mirror duel of the converted cards (changed against unchanged, short range,
  both stand-and-fire, skill 4; exact Markov chain, so no interval; two equal cards: 0 by
  symmetry, not played);
* the Classic duel's edge P(A wins) - P(B wins), Monte Carlo with its 95% interval
  (multinomial: Var = (p_a + p_b - (p_a - p_b)^2) / n); unchanged it is 0 by symmetry;
* the duel's expected turns (to a kill, or the turn limit) with its 95% interval;
* the Battle Value the change costs per 0.1 of Classic edge, where the interval excludes 0.

The edit is read back from the side's name (``Hunchback HBK-4G [+1 t armor]``:
:func:`edit_of_label` inverts :func:`sim.units.design.edit.edit_label`); the experiment prices
every change with ``tonnage=free`` (the change adds its weight).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

#: a side's name: ``UNIT [edit label]``
_LABEL = re.compile(r"^(.*?)\s*\[(.+)\]\s*$")
_NUM = re.compile(r"^([+-]\d+) (heat sinks?|armor|t armor|jump MP|armor [A-Z]{2,3})$")
#: the Alpha Strike duel the prices are set beside
AS_DUEL: dict[str, Any] = {"range": "short", "tactic_a": "stand-and-fire",
                           "tactic_b": "stand-and-fire"}
Z95 = 1.959963984540054


def split_label(name: str) -> tuple[str, str]:
    """``("Hunchback HBK-4G", "+1 t armor")`` of an edited side's name; ``(name, "")``
    for an unchanged one."""
    m = _LABEL.match(str(name))
    return (m.group(1), m.group(2)) if m else (str(name), "")


def edit_of_label(label: str) -> list[str]:
    """The edit items of an edit label (the inverse of
    :func:`sim.units.design.edit.edit_label`), with ``tonnage=free``; [] for none."""
    if not label or label == "no change":
        return []
    out = []
    for part in (p.strip() for p in label.split(", ")):
        m = _NUM.match(part)
        if m is not None:
            n, what = m.group(1), m.group(2)
            key = ("heat_sinks" if what.startswith("heat") else "armor_tons"
                   if what == "t armor" else "jump" if what == "jump MP" else "armor"
                   if what == "armor" else "armor." + what.split()[1])
            out.append(f"{key}={n}")
        elif part[:1] in "+-":
            out.append(("add=" if part[0] == "+" else "remove=") + part[1:])
        else:
            raise ValueError(f"not an edit label: {label!r}")
    return [*out, "tonnage=free"]


@lru_cache(maxsize=128)
def price_change(unit: str, label: str) -> dict[str, Any]:
    """BV and PV of ``unit`` before and after the edit ``label``, and the Alpha Strike
    mirror duel of the converted cards (:data:`AS_DUEL`, exact)."""
    from dataclasses import replace

    from sim import api
    from sim.units.as_conversion import alpha_strike_card
    from sim.units.bv2 import battle_value
    from sim.units.design.reader import design_of
    from sim.units.edited import design_and_mech, edited_design
    design, _ = design_and_mech(unit)
    after = edited_design(design, edit_of_label(label)) or design
    b0, b1 = battle_value(design).bv, battle_value(after).bv
    c0, c1 = alpha_strike_card(design_of(design)).card, alpha_strike_card(after).card
    row: dict[str, Any] = {"bv": b0, "d_bv": b1 - b0, "pv": c0.pv, "d_pv": (c1.pv or 0)
                           - (c0.pv or 0)}
    if replace(c1, name=c0.name) == c0:
        row.update(as_edge=0.0, as_turns=math.nan, as_same_card=True)
        return row
    d = api.duel(c1, c0, range=AS_DUEL["range"], progress=False,
                 tactic_a=AS_DUEL["tactic_a"], tactic_b=AS_DUEL["tactic_b"]).to_dict()
    row.update(as_edge=float(d["p_win_a"] - d["p_win_b"]),
               as_turns=float(d["expected_turns"]), as_same_card=False)
    return row


def _last_rows(frame: pd.DataFrame) -> pd.DataFrame:
    f = frame
    if "turn" in f.columns:   # rows are by scenario, then turn: the last row of each
        f = f.groupby(["unit_a", "unit_b"], sort=False).tail(1)
    return f.reset_index(drop=True)


def change_cost_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (unit, change) of a ``change-costs`` result frame (module doc):
    ``unit``, ``change``, ``bv``, ``d_bv``, ``pv``, ``d_pv``, ``as_edge``, ``as_same_card``,
    ``edge``, ``edge_lo``, ``edge_hi`` (the Classic edge and its 95% interval), ``gain``,
    ``gain_lo``, ``gain_hi`` (the edge over the unchanged 'Mech's own row, which measures what
    the duel itself favours; the interval adds the two variances, conservative for edits on
    common dice, which correlate positively), ``turns`` (the duel's expected turns, to a kill
    or the turn limit) with its 95% interval ``turns_lo`` / ``turns_hi`` and ``bv_per_gain`` (ΔBV per 0.1 of
    gain, where the gain's interval excludes 0)."""
    rows = []
    for _, r in _last_rows(frame).iterrows():
        unit, label = split_label(r["unit_a"])
        pa, pb = float(r["p_win_a"]), float(r["p_win_b"])
        n = float(r.get("p_win_a_n", r.get("trials", np.nan)))
        edge = pa - pb
        se = math.sqrt(max(pa + pb - edge ** 2, 0.0) / n) if n > 0 else math.nan
        rows.append({"unit": unit, "change": label or "unchanged",
                     **price_change(unit, label), "edge": edge, "edge_lo": edge - Z95 * se,
                     "edge_hi": edge + Z95 * se, "_se": se,
                     "turns": float(r["expected_turns"]),
                     "turns_lo": float(r.get("expected_turns_ci_low", np.nan)),
                     "turns_hi": float(r.get("expected_turns_ci_high", np.nan))})
    t = pd.DataFrame(rows)
    base = t[t["change"] == "unchanged"].drop_duplicates("unit").set_index("unit")
    b_edge = t["unit"].map(base["edge"]).to_numpy(float)
    b_se = t["unit"].map(base["_se"]).to_numpy(float)
    gain = t["edge"].to_numpy(float) - b_edge
    half = Z95 * np.sqrt(t["_se"].to_numpy(float) ** 2 + b_se ** 2)
    t["gain"], t["gain_lo"], t["gain_hi"] = gain, gain - half, gain + half
    t.loc[t["change"] == "unchanged", ["gain", "gain_lo", "gain_hi"]] = np.nan
    sig = (t["gain_lo"] > 0) | (t["gain_hi"] < 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t["bv_per_gain"] = np.where(sig, t["d_bv"].to_numpy(float) / (gain / 0.1), np.nan)
    return t.drop(columns="_se")


__all__ = ["AS_DUEL", "change_cost_table", "edit_of_label", "price_change", "split_label"]
