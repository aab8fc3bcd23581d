"""Synthetic 'Mechs for the fire tests (no unit files needed) and the shared-data location."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sim.classic.fire.synthetic import synthetic_unit
from sim.classic.fire.unit import FireUnit

_env = os.environ.get("BTSIM_SHARED")
SHARED = Path(_env) if _env else Path(__file__).resolve().parents[2].parent / "shared"
MTF_DIR = SHARED / "data" / "units" / "mtf"
needs_shared = pytest.mark.skipif(not MTF_DIR.is_dir(),
                                  reason=f"shared unit data not found at {MTF_DIR}")


def hbk() -> FireUnit:
    """Hunchback HBK-4G-like: 2 Medium Laser, AC/20 (2 bins, 10 rounds, LT), Small Laser,
    13 single sinks, 4 of them in the legs; walk 4."""
    return synthetic_unit([("Small Laser", "HD"), ("AC/20", "RT"),
                           ("Medium Laser", "LA"), ("Medium Laser", "RA")],
                          [("IS Ammo AC/20", "LT", 5), ("IS Ammo AC/20", "LT", 5)],
                          sinks=13, leg_sinks=4, walk=4, name="HBK-like")


def timber_wolf() -> FireUnit:
    """Timber Wolf Prime-like: 2 ER Large, 2 ER Medium, 2 LRM 20, Medium Pulse, 2 MG on 17
    double sinks; Clan CASE where the ammunition is."""
    return synthetic_unit(
        [("ER Large Laser", "LA"), ("ER Large Laser", "RA"),
         ("ER Medium Laser", "LA"), ("ER Medium Laser", "RA"),
         ("LRM 20", "LT"), ("LRM 20", "RT"), ("Medium Pulse Laser", "LT"),
         ("Machine Gun", "RT"), ("Machine Gun", "CT")],
        [("Clan Ammo LRM-20", "LT", 6), ("Clan Ammo LRM-20", "RT", 6),
         ("Clan Ammo MG", "RT", 100)],
        sinks=17, double=True, walk=5, case=("LT", "RT"), name="TW-like",
        tech_base="Clan")


def hot_missiles() -> FireUnit:
    """Streak, Ultra, Rotary, LB-X and SRM on few sinks: jams, streak misses, ammo limits."""
    return synthetic_unit(
        [("Streak SRM 6", "LT"), ("Ultra AC/5", "RT"), ("Rotary AC/5", "RA"),
         ("LB 10-X AC", "LA"), ("SRM 4", "CT"), ("Medium Laser", "HD", True)],
        [("IS Ammo Streak SRM-6", "LT", 3), ("Ammo Ultra AC/5", "RT", 5),
         ("IS Ammo Rotary AC/5", "RA", 9), ("IS Ammo LB 10-X AC", "LA", 10),
         ("IS Ammo SRM-4", "CT", 25)], sinks=10, walk=5, jump=5, case=("RA",),
        name="Hot-missiles")
