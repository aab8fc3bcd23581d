"""Real units: Classic 'Mechs read from MegaMek ``.mtf`` files, Alpha Strike cards read from
CSV / Master Unit List JSON, and the built-in catalog shipped with btsim."""

from sim.units.types import AmmoBin, ASCard, ClassicMech, Special, WeaponMount

__all__ = ["ASCard", "AmmoBin", "ClassicMech", "Special", "WeaponMount", "alpha_strike_card",
           "battle_value", "edit", "edit_unit", "edited_card"]

#: the price functions of issue 20, imported on first use (they import this package's types)
_LAZY = {"battle_value": "sim.units.bv2", "alpha_strike_card": "sim.units.as_conversion",
         "edit": "sim.units.design.edit", "edit_unit": "sim.units.edited",
         "edited_card": "sim.units.edited"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sim.units' has no attribute {name!r}")
