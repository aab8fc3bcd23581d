"""Battle Value 2 tables as data (``reference-bv.md`` 21.7, 22.9, 23.4, 24.1-24.3).

Weapon, ammunition and equipment BV are in :mod:`sim.units.design.equipment` (``data/*.csv``);
internal structure points are :data:`sim.units.tables.INTERNAL_STRUCTURE` (24.1, the same
table as reference 5.1); the pilot skill multiplier is :mod:`sim.classic.bv` (24.4).
"""

from __future__ import annotations

from fractions import Fraction as F

#: Armor type (lower case, without the "(Inner Sphere)"/"(Clan)" tag) -> multiplier (23.4;
#: commercial = BAR 5 / 10, industrial BAR 10; 21.1)
ARMOR_MULTIPLIER: dict[str, F] = {
    "standard": F(1), "ferro-fibrous": F(1), "light ferro-fibrous": F(1),
    "heavy ferro-fibrous": F(1), "primitive": F(1), "hardened": F(2), "reactive": F(3, 2),
    "reflective": F(3, 2), "laser-reflective": F(3, 2), "ballistic-reinforced": F(3, 2),
    "impact-resistant": F(3, 2), "ferro-lamellor": F(6, 5),
    "anti-penetrative ablation": F(6, 5), "heat-dissipating": F(11, 10),
    "commercial": F(1, 2), "industrial": F(1), "heavy industrial": F(1),
}
#: Structure type (lower case, without an "IS "/"Clan " prefix) -> multiplier (23.4)
STRUCTURE_MULTIPLIER: dict[str, F] = {
    "standard": F(1), "endo steel": F(1), "endo-steel": F(1), "endo-composite": F(1),
    "endo composite": F(1), "industrial": F(1, 2), "composite": F(1, 2),
    "reinforced": F(2),
}
#: (engine type, Clan engine) -> (structure multiplier, engine slots per side torso) (23.4)
ENGINE: dict[tuple[str, bool], tuple[F, int]] = {
    ("Fusion", False): (F(1), 0), ("Fusion", True): (F(1), 0),
    ("Compact", False): (F(1), 0), ("Compact", True): (F(1), 0),
    ("Light", False): (F(3, 4), 2), ("Light", True): (F(3, 4), 2),
    ("XL", False): (F(1, 2), 3), ("XL", True): (F(3, 4), 2),
    ("XXL", False): (F(1, 4), 3), ("XXL", True): (F(1, 2), 2),
}
#: Gyro (lower case) -> BV per ton (21.3, 23.4)
GYRO_MULTIPLIER: dict[str, F] = {
    "standard gyro": F(1, 2), "xl gyro": F(1, 2), "compact gyro": F(1, 2),
    "heavy duty gyro": F(1), "heavy-duty gyro": F(1),
}
#: Cockpit (lower case) -> factor on the base BV (22.10)
COCKPIT_FACTOR: dict[str, F] = {
    "standard cockpit": F(1), "command console": F(1), "small cockpit": F(19, 20),
    "torso-mounted cockpit": F(19, 20), "small command console": F(19, 20),
}
#: TMM by MP (21.7, 24.2): upper bounds of the bands 0, 1, 2, ...
TMM_BANDS: tuple[int, ...] = (2, 4, 6, 9, 17, 24)
#: Explosive penalty per ammunition slot (21.5)
AMMO_SLOT_PENALTY = F(15)
#: Explosive penalty per slot of a Gauss weapon (21.5)
GAUSS_SLOT_PENALTY = F(1)
#: Fixed BV factors of 21.1-21.2, 22.2, 22.7
ARMOR_FACTOR = F(5, 2)
STRUCTURE_FACTOR = F(3, 2)
REAR_FACTOR = F(1, 2)
ARTEMIS_FACTOR = F(6, 5)
TC_FACTOR = F(5, 4)
TSM_WEIGHT_FACTOR = F(3, 2)
HATCHET_FACTOR = F(3, 2)
SWORD_FACTOR = F(69, 40)  # 1.725


def tmm(mp: int) -> int:
    """Target movement modifier by MP (21.7): 0-2 -> 0, 3-4 -> 1, ..., 25+ -> 6."""
    for k, top in enumerate(TMM_BANDS):
        if mp <= top:
            return k
    return len(TMM_BANDS)


def speed_factor(mp: int) -> F:
    """round_to_2_decimals((1 + (mp - 5) / 10) ^ 1.2), half up at the 2nd decimal (22.9,
    MegaMek ``Math.round(x * 100) / 100``; table 24.3)."""
    x = (1 + (mp - 5) / 10) ** 1.2
    return F(int(x * 100 + 0.5), 100)
