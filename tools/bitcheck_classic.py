"""Bit-identity check for speed work on the Classic duel kernel and the damage state.

``record DIR`` runs a fixed set of duel blocks (``kernel.run_block``, fixed seeds) and
``sim.hit`` cases (exact and Monte Carlo) and saves every output; ``compare DIR`` runs them
again and reports any array or number that differs (exit 1). Use it before and after a
change that must not alter a single result: the same seed must give the same draws in the
same order and the same outcomes.

    python tools/bitcheck_classic.py record /tmp/bitref
    python tools/bitcheck_classic.py compare /tmp/bitref
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

HBK = "Hunchback HBK-4G"
WVR = "Wolverine WVR-6R"
LOCUST = "Locust LCT-1V"


def _only_weapon(name: str, key: str) -> Any:
    from sim.units.catalog import get_classic
    m = get_classic(name)
    keep = [w for w in m.weapon_mounts if w.weapon == key][:1]
    return replace(m, weapon_mounts=tuple(keep), weapons=tuple((w.name, w.location) for w in keep))


def _unarmed(name: str) -> Any:
    from sim.units.catalog import get_classic
    return replace(get_classic(name), weapon_mounts=(), weapons=(), ammo_bins=())


def _gauss_mech() -> Any:
    """HBK with its AC/20 swapped for a Gauss rifle (and Gauss ammunition), CASE II in LT."""
    from sim.units.catalog import get_classic
    from sim.units.types import AmmoBin, WeaponMount
    m = get_classic(HBK)
    mounts = tuple(WeaponMount("ISGaussRifle", "IS Gauss Rifle", w.location)
                   if w.weapon == "IS AC/20" else w for w in m.weapon_mounts)
    bins = tuple(AmmoBin("IS Gauss Ammo", "IS Gauss", b.location, 8) if "AC/20" in b.name
                 else b for b in m.ammo_bins)
    return replace(m, weapon_mounts=mounts, ammo_bins=bins, case2_locations=("LT",),
                   slots={})


def duel_cases() -> dict[str, tuple[dict[str, Any], int, int]]:
    """name -> (params, duels, seed)."""
    T = 10
    return {
        "bench": ({"unit_a": HBK, "unit_b": WVR, "range": 6, "turns": 10}, 16384, 1),
        "brawl": ({"unit_a": HBK, "unit_b": WVR, "range": 1, "moved_a": "walk", "turns": T},
                  4000, 12),
        "unarmed": ({"unit_a": _unarmed(HBK), "unit_b": _unarmed(LOCUST), "range": 1,
                     "turns": T}, 4000, 12),
        "c15_c28_c30": ({"unit_a": HBK, "unit_b": WVR, "range": 3, "explosion_size": "core",
                         "advanced_criticals": True, "location_roll_two": "floating",
                         "turns": T}, 4000, 12),
        "crippled": ({"unit_a": HBK, "unit_b": WVR, "range": 3, "out_of_fight": "crippled",
                      "life_support_heat": "core", "restart_phase": "end",
                      "ac_first_crit": "damaged", "unconscious_restart": "never",
                      "stand_heat": "core", "engine_heat_while_shutdown": True,
                      "consciousness_rolls": "once_per_turn", "turns": T}, 4000, 12),
        "unconscious": ({"unit_a": HBK, "unit_b": WVR, "range": 1,
                         "out_of_fight": "unconscious", "turns": T}, 4000, 12),
        "immobile_unarmed": ({"unit_a": _only_weapon(HBK, "IS AC/20"),
                              "unit_b": _only_weapon(WVR, "IS SRM 6"), "range": 1,
                              "out_of_fight": "immobile_unarmed", "turns": T}, 4000, 12),
        "hatchet": ({"unit_a": "Hatchetman HCT-3F", "unit_b": HBK, "range": 1,
                     "moved_a": "walk", "turns": T}, 4000, 12),
        "charge_dfa": ({"unit_a": _unarmed(WVR), "unit_b": _unarmed(HBK), "range": 1,
                        "moved_a": "jump", "moved_b": "run",
                        "knockdown_value": "fall-and-prone", "turns": 25}, 4000, 12),
        "gauss_case2": ({"unit_a": _gauss_mech(), "unit_b": WVR, "range": 3, "turns": T,
                         "case2_explosion": "one-point", "tac_with_structure_damage": "one",
                         "crit_on_destroying_group": False}, 4000, 5),
    }


def hit_cases() -> dict[str, dict[str, Any]]:
    """name -> keyword arguments of ``sim.hit``."""
    return {
        "hbk_ct27": {"unit": HBK, "damage": 27, "location": "CT"},
        "hbk_front_5x4": {"unit": HBK, "groups": [5, 5, 5, 5], "side": "front"},
        "locust_ct20": {"unit": LOCUST, "damage": 20, "location": "CT"},
        "axman_rt": {"unit": "Axman AXM-1N", "damage": 45, "location": "RT"},
        "tw_rt_core": {"unit": "Mad Cat (Timber Wolf) Prime", "damage": 40, "location": "RT",
                       "rules": {"explosion_size": "core", "advanced_criticals": True}},
        "hbk_float": {"unit": HBK, "groups": [10, 10], "side": "right",
                      "rules": {"location_roll_two": "floating", "explosion_transfer": "armor",
                                "filler_slots_hittable": True}},
        "gauss_lt": {"unit": _gauss_mech(), "groups": [20, 10], "side": "rear",
                     "rules": {"case2_explosion": "one-point"}},
    }


def _strip(r: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in r.items() if k != "seconds"}


def run_all() -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    from sim.classic.duel import kernel
    from sim.classic.duel.scenario import build
    from sim.classic.hit_api import hit
    arrays: dict[str, np.ndarray] = {}
    for name, (p, n, seed) in duel_cases().items():
        out = kernel.run_block(build(p), None, np.random.default_rng(seed), n)
        for k, v in out.items():
            arrays[f"{name}.{k}"] = np.asarray(v)
    hits: dict[str, Any] = {}
    for name, kw in hit_cases().items():
        hits[f"{name}.exact"] = _strip(hit(**kw))
        hits[f"{name}.mc"] = _strip(hit(**kw, method="mc", trials=30_000, seed=3))
    return arrays, hits


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("record", "compare"):
        print(__doc__.strip(), file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    mode, where = argv[0], Path(argv[1])
    arrays, hits = run_all()
    if mode == "record":
        where.mkdir(parents=True, exist_ok=True)
        np.savez(where / "duel.npz", **arrays)
        (where / "hit.json").write_text(json.dumps(hits, sort_keys=True, default=str))
        print(f"recorded {len(arrays)} arrays, {len(hits)} hit results in {where}")
        return 0
    ref = np.load(where / "duel.npz")
    bad = [k for k in ref.files if k not in arrays or not np.array_equal(ref[k], arrays[k])]
    bad += [k for k in arrays if k not in ref.files]
    href = json.loads((where / "hit.json").read_text())
    now = json.loads(json.dumps(hits, sort_keys=True, default=str))
    bad += [k for k in href if href[k] != now.get(k)]
    bad += [k for k in now if k not in href]
    if bad:
        print("DIFFER:", ", ".join(bad))
        return 1
    print(f"identical: {len(arrays)} arrays, {len(hits)} hit results")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
