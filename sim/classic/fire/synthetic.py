"""Synthetic firing 'Mechs for tests and the benchmark (no unit files needed)."""

from __future__ import annotations

from collections.abc import Sequence

from sim.classic.fire.unit import FireUnit, Mount, Pool
from sim.classic.weapons import WEAPONS, lookup_ammo


def synthetic_unit(weapons: Sequence[tuple[str, str] | tuple[str, str, bool]],
                   ammo: Sequence[tuple[str, str, int]] = (), *, sinks: int = 10,
                   double: bool = False, leg_sinks: int = 0, walk: int = 4, jump: int = 0,
                   case: Sequence[str] = (), name: str = "Synthetic") -> FireUnit:
    """A :class:`FireUnit` from weapon keys with locations (optionally a rear flag) and
    ammunition bins ``(ammo key, location, rounds)``."""
    mounts = tuple(Mount(w[0], WEAPONS[w[0]], w[1], bool(w[2]) if len(w) > 2 else False)
                   for w in weapons)
    pools: dict[str, list[tuple[str, int, int, bool]]] = {}
    for key, loc, shots in ammo:
        a = lookup_ammo(key)
        if a is None:
            raise KeyError(key)
        pools.setdefault(a.weapon_family_key, []).append(
            (loc, shots, a.damage_per_shot, a.explosive))
    pl = tuple(Pool(k, sum(x[1] for x in v), max(x[2] for x in v), any(x[3] for x in v),
                    tuple(dict.fromkeys(x[0] for x in v)), all(x[0] in case for x in v))
               for k, v in pools.items())
    return FireUnit(name, "Inner Sphere", mounts, pl, sinks, double, leg_sinks, walk, jump,
                    True, ())


def bench_mech() -> FireUnit:
    """Seven forward weapons (2 Medium Laser, Large Laser, AC/10, LRM 15, SRM 4, Ultra AC/5)
    on 18 single sinks (27 heat firing everything): heat climbs under policy ``all``."""
    return synthetic_unit(
        [("IS Medium Laser", "LA"), ("IS Medium Laser", "RA"), ("IS Large Laser", "RA"),
         ("IS AC/10", "RT"), ("IS LRM 15", "LT"), ("IS SRM 4", "LT"), ("IS Ultra AC/5", "CT")],
        [("IS Ammo AC/10", "RT", 10), ("IS Ammo LRM-15", "LT", 8), ("IS Ammo SRM-4", "LT", 25),
         ("IS Ammo Ultra AC/5", "CT", 20)], sinks=18, name="Bench-7")
