"""Alpha Strike conversion tables as data (``reference-as-conversion.md`` 2.1, 2.2, 3.1,
3.3). Weapon facts (damage, ranges, heat, shots per ton) are the price calculators' table,
:mod:`sim.units.design.equipment`; TMM bands are :data:`sim.units.tables.AS_TMM_STEPS`."""

from __future__ import annotations

#: Size by tonnage (2.1): upper bounds of sizes 1, 2, 3; heavier is 4
SIZE_BANDS = (35, 55, 75)
#: 3.1: structure row -> values for 10, 15, ..., 100 t
STRUCTURE_ROWS: dict[str, tuple[int, ...]] = {
    "standard": (1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 8, 8),
    "is_compact": (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 7, 7, 8, 8, 9, 10, 10, 10),
    "is_large": (1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6, 6),
    "is_light_clan_xl": (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5),
    "is_xl": (1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4),
    "clan_xxl": (1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4),
    "is_xxl": (1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3),
    "clan_large_xxl": (1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3),
    "is_large_xxl": (1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3),
}
#: (engine type, Clan, large) -> structure row (3.1)
ENGINE_ROW: dict[tuple[str, bool, bool], str] = {
    ("Fusion", False, False): "standard", ("Fusion", True, False): "standard",
    ("Compact", False, False): "is_compact", ("Fusion", False, True): "is_large",
    ("Light", False, False): "is_light_clan_xl", ("XL", True, False): "is_light_clan_xl",
    ("XL", False, False): "is_xl", ("XL", False, True): "is_xl",
    ("Light", False, True): "is_xl", ("XL", True, True): "is_xl",
    ("XXL", True, False): "clan_xxl", ("XXL", False, False): "is_xxl",
    ("XXL", True, True): "clan_large_xxl", ("XXL", False, True): "is_large_xxl",
    ("ICE", False, False): "standard", ("Fuel Cell", False, False): "standard",
}
#: 3.3 (and reference-classic-combat.md 11.1): cluster hits at roll 7 and roll 9 by rack
CLUSTER_7 = {2: 1, 3: 2, 4: 3, 5: 3, 6: 4, 9: 5, 10: 6, 12: 8, 15: 9, 20: 12, 30: 18, 40: 24}
CLUSTER_9 = {2: 2, 3: 2, 4: 3, 5: 4, 6: 5, 9: 7, 10: 8, 12: 10, 15: 12, 20: 16, 30: 24, 40: 32}
#: 2.5 step 1: bracket thresholds (Classic long range in hexes) for S, M, L, E
REACH = (0, 4, 16, 24)
#: 2.3: armor type -> weight of its points (others 1)
ARMOR_WEIGHT = {"hardened": 2.0, "commercial": 0.5, "ferro-lamellor": 1.2}
#: 2.5 step 5: shots per weapon below which ammo-fed weapons take x0.75
LOW_AMMO = {"ultra": 20, "rotary": 60}
LOW_AMMO_DEFAULT = 10
#: V1 reading "override": per-class constants (S, M, L, E) that replace the formula
WEAPON_OVERRIDES: dict[str, tuple[float, float, float, float]] = {
    "ISLBXAC10": (0.63, 0.63, 0.63, 0.0),
    "CLLRM10": (0.6, 0.6, 0.6, 0.0),
}
#: 2.9 step 3: force bonus by special
FORCE_BONUS = {"ECM": 2.0, "RCN": 2.0, "AECM": 3.0, "BH": 2.0, "PRB": 1.0, "LPRB": 1.0}
#: 2.9 step 1: flat offensive values of specials
OFFENSE_SPECIAL = {"TSM": 1.0, "MEL": 0.5, "TAG": 0.5, "LTAG": 0.25}
