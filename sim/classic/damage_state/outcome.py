"""Summaries of a weighted set of damage states (exact: probabilities; Monte Carlo: 1/n each):
the fields of ``btsim hit --json`` (reference-classic-combat.md 14)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.choose import merge_rows

ARMOR_NAMES = (*lay.LOCS, "CTR", "LTR", "RTR")


def dedupe(S: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge identical rows, summing their weights."""
    return merge_rows(S, w)


#: the separator of a flattened field name (``p_slot_hit|CT:4 Gyro``; :func:`per_row`)
SEP = "|"
#: the fields that are probabilities (0/1 per trial; a slot's class share) rather than means
PROBABILITY_FIELDS = ("p_location_destroyed", "p_critical", "p_blown_off", "p_slot_hit",
                      "p_any_critical", "p_ammo_explosion", "p_destroyed", "p_destroyed_by")


def per_row(S: np.ndarray, layout: lay.Layout, start: np.ndarray | None = None
            ) -> dict[str, np.ndarray]:
    """The per-state values whose weighted means are :func:`summarize`'s fields, flattened
    (``field`` or ``field|key``, in the document's order): the exact answer weighs them by
    the states' probabilities, the Monte Carlo one (the ``hit`` model under the engine)
    averages them over trials. 0/1 values are booleans and counts integers, as the ``hit``
    model records its metrics, so both doors add the same numbers.

    The states keep only how many slots of each class of interchangeable slots are hit
    (:func:`.state.canonical`), so a slot's P(hit) is its class's share: a slot already hit
    at the start has 1, and the class's new hits fall evenly on the slots still whole (14.2
    picks uniformly among the slots not yet hit)."""
    out: dict[str, np.ndarray] = {}
    dead = st.location_destroyed(S)
    for i, n in enumerate(lay.LOCS):
        out[f"p_location_destroyed{SEP}{n}"] = dead[:, i]
    for i, n in enumerate(ARMOR_NAMES):
        if layout.armor[i] > 0 or i < 8:  # points, hardened armor's rounded up
            out[f"expected_armor_left{SEP}{n}"] = layout.armor_points(S[:, i])
    for i, n in enumerate(lay.LOCS):
        out[f"expected_structure_left{SEP}{n}"] = S[:, st.IS0 + i]
    for i, n in enumerate(lay.LOCS):
        out[f"p_critical{SEP}{n}"] = (S[:, st.CRIT] >> i) & 1 == 1
    for i, n in enumerate(lay.LOCS):
        if lay.BLOWABLE[i]:
            out[f"p_blown_off{SEP}{n}"] = (S[:, st.BLOWN] >> i) & 1 == 1
    per_slot: dict[tuple[int, int], np.ndarray] = {}
    ones = np.ones(len(S), dtype=bool)
    for loc, mask in layout.classes:  # symmetric slots share their class's mean (14.2)
        pre = 0 if start is None else int(start[st.HIT0 + loc]) & mask
        whole = int(st.POP[mask & ~pre])
        new = (st.POP[S[:, st.HIT0 + loc] & mask] - int(st.POP[pre])) / max(whole, 1)
        for s_ in range(12):
            if mask >> s_ & 1:
                per_slot[(loc, s_)] = ones if pre >> s_ & 1 else new
    zeros = np.zeros(len(S), dtype=bool)
    for i in range(8):
        for s_ in range(layout.n_slots[i]):
            if layout.kind[i, s_] != lay.EMPTY:
                out[f"p_slot_hit{SEP}{layout.slot_label(i, s_)}"] = per_slot.get((i, s_), zeros)
    out["p_any_critical"] = S[:, st.CRIT] != 0
    out["p_ammo_explosion"] = S[:, st.EXPLOSIONS] > 0
    out["expected_pilot_damage"] = np.minimum(S[:, st.PILOT], st.PILOT_DEAD)
    out["expected_engine_hits"] = np.minimum(S[:, st.ENGINE], st.ENGINE_DEAD)
    out["p_destroyed"] = S[:, st.CAUSE] != st.C_NONE
    for k, c in enumerate(st.CAUSES):
        if k:
            out[f"p_destroyed_by{SEP}{c}"] = S[:, st.CAUSE] == k
    return out


def nest(flat: dict[str, float]) -> dict[str, Any]:
    """``{"a|b": x, "c": y}`` -> ``{"a": {"b": x}, "c": y}`` (the document's shape)."""
    out: dict[str, Any] = {}
    for k, v in flat.items():
        field, sep, key = k.partition(SEP)
        if sep:
            out.setdefault(field, {})[key] = v
        else:
            out[field] = v
    return out


def summarize(S: np.ndarray, w: np.ndarray, layout: lay.Layout,
              start: np.ndarray | None = None) -> dict[str, Any]:
    """Probabilities and expectations over the weighted states ``(S, w)`` (exact:
    probabilities; Monte Carlo: 1/n each): the weighted means of :func:`per_row`; ``start``
    the one state they all began from (a damaged start, ``btsim hit --state``), fresh if
    None."""
    w = w / w.sum()
    return nest({k: _mean(w, v) for k, v in per_row(S, layout, start).items()})


def _mean(w: np.ndarray, v: np.ndarray) -> float:
    """``w @ v``; a value every state shares exactly (normalized weights sum to 1 only up
    to rounding: a certain event reads 1, not 0.9999999999999999)."""
    if len(v) and v.min() == v.max():
        return float(v.flat[0])
    return float(w @ v.astype(np.float64))
