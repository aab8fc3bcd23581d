"""Shared pieces of the classic-duel tests: single-weapon 'Mechs built from catalog ones."""

from __future__ import annotations

from dataclasses import replace

from sim.units.catalog import get_classic
from sim.units.types import ClassicMech

HBK = "Hunchback HBK-4G"
WVR = "Wolverine WVR-6R"
LOCUST = "Locust LCT-1V"


def only_weapon(name: str, weapon_key: str) -> ClassicMech:
    """``name`` with every weapon mount but the first ``weapon_key`` removed (its ammunition
    kept), so its fire is one weapon."""
    m = get_classic(name)
    keep = [w for w in m.weapon_mounts if w.weapon == weapon_key][:1]
    assert keep, f"{name} has no {weapon_key}"
    return replace(m, weapon_mounts=tuple(keep),
                   weapons=tuple((w.name, w.location) for w in keep))


def unarmed(name: str) -> ClassicMech:
    """``name`` with no weapons and no ammunition (a target that cannot hurt back)."""
    m = get_classic(name)
    return replace(m, weapon_mounts=(), weapons=(), ammo_bins=())
