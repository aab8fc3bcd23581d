"""The design facts of a 'Mech that the price calculators read (Battle Value 2,
:mod:`sim.units.bv2`; the Alpha Strike conversion, :mod:`sim.units.as_conversion`): the
reader (:mod:`.reader`) and the equipment table (:mod:`.equipment`, ``data/*.csv``)."""

from sim.units.design.reader import Design, Inventory, design_of, inventory, read_design

__all__ = ["Design", "Inventory", "design_of", "inventory", "read_design"]
