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


def summarize(S: np.ndarray, w: np.ndarray, layout: lay.Layout,
              start: np.ndarray | None = None) -> dict[str, Any]:
    """Probabilities and expectations over the weighted states ``(S, w)``; ``start`` the one
    state they all began from (a damaged start, ``btsim hit --state``), fresh if None.

    The states keep only how many slots of each class of interchangeable slots are hit
    (:func:`.state.canonical`), so a slot's P(hit) is its class's share: a slot already hit
    at the start has 1, and the class's new hits fall evenly on the slots still whole (14.2
    picks uniformly among the slots not yet hit)."""
    w = w / w.sum()
    means = w @ S.astype(np.float64)
    dead = w @ st.location_destroyed(S).astype(np.float64)
    crit = w @ ((S[:, st.CRIT][:, None] >> np.arange(8)) & 1).astype(np.float64)
    blown = w @ ((S[:, st.BLOWN][:, None] >> np.arange(8)) & 1).astype(np.float64)
    out: dict[str, Any] = {
        "p_location_destroyed": {n: float(dead[i]) for i, n in enumerate(lay.LOCS)},
        "expected_armor_left": {n: float(means[i]) for i, n in enumerate(ARMOR_NAMES)
                                if layout.armor[i] > 0 or i < 8},
        "expected_structure_left": {n: float(means[st.IS0 + i])
                                    for i, n in enumerate(lay.LOCS)},
        "p_critical": {n: float(crit[i]) for i, n in enumerate(lay.LOCS)},
        "p_blown_off": {n: float(blown[i]) for i, n in enumerate(lay.LOCS)
                        if lay.BLOWABLE[i]},
    }
    slots: dict[str, float] = {}
    per_slot = np.zeros((8, 12))
    for loc, mask in layout.classes:  # symmetric slots share their class's mean (14.2)
        pre = 0 if start is None else int(start[st.HIT0 + loc]) & mask
        whole = int(st.POP[mask & ~pre])
        new = float(w @ st.POP[S[:, st.HIT0 + loc] & mask]) - int(st.POP[pre])
        for s in range(12):
            if mask >> s & 1:
                per_slot[loc, s] = 1.0 if pre >> s & 1 else new / max(whole, 1)
    for i in range(8):
        for s in range(layout.n_slots[i]):
            if layout.kind[i, s] != lay.EMPTY:
                slots[layout.slot_label(i, s)] = per_slot[i, s]
    out["p_slot_hit"] = slots
    out["p_any_critical"] = float(w @ (S[:, st.CRIT] != 0))
    out["p_ammo_explosion"] = float(w @ (S[:, st.EXPLOSIONS] > 0))
    out["expected_pilot_damage"] = float(w @ np.minimum(S[:, st.PILOT], st.PILOT_DEAD))
    out["expected_engine_hits"] = float(w @ np.minimum(S[:, st.ENGINE], st.ENGINE_DEAD))
    out["p_destroyed"] = float(w @ (S[:, st.CAUSE] != st.C_NONE))
    out["p_destroyed_by"] = {c: float(w @ (S[:, st.CAUSE] == k))
                             for k, c in enumerate(st.CAUSES) if k}
    return out
