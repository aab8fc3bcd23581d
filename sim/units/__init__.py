"""Real units: Classic 'Mechs read from MegaMek ``.mtf`` files, Alpha Strike cards read from
CSV / Master Unit List JSON, and the built-in catalog shipped with btsim."""

from sim.units.types import AmmoBin, ASCard, ClassicMech, Special, WeaponMount

__all__ = ["ASCard", "AmmoBin", "ClassicMech", "Special", "WeaponMount"]
