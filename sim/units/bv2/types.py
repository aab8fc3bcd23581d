"""The Battle Value 2 breakdown: every step of ``reference-bv.md`` 21-22 and its number."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


def num(x: Fraction | float | int) -> str:
    """A number as the reference's worked examples print it (``760.0``, ``1374.085``)."""
    return repr(float(x))


def short(x: Fraction | float | int) -> str:
    """An integral value without a decimal point (``46``), else as :func:`num`."""
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else num(f)


@dataclass(frozen=True)
class Defensive:
    """Section 21, step by step."""

    armor_points: int
    torso_cockpit_armor: int
    armor_multiplier: Fraction
    armor_bv: Fraction
    structure_points: int
    structure_multiplier: Fraction
    engine_multiplier: Fraction
    structure_bv: Fraction
    gyro_multiplier: Fraction
    gyro_bv: Fraction
    equipment_bv: Fraction
    ams_ammo_bv: Fraction
    ams_cap: Fraction
    explosive: Fraction
    #: (item, location, penalty) of every penalised explosive item
    explosive_items: tuple[tuple[str, str, Fraction], ...]
    floored: bool
    run_mp: int
    jump_mp: int
    tmm_run: int
    tmm_jump: int
    factor: Fraction
    dbr: Fraction

    @property
    def subtotal(self) -> Fraction:
        """The running total before the defensive factor (21.1-21.6)."""
        return max(self.armor_bv + self.structure_bv + self.gyro_bv + self.equipment_bv
                   - self.explosive, Fraction(1))


@dataclass(frozen=True)
class WeaponLine:
    """One weapon of the heat walk (22.2-22.5)."""

    name: str
    location: str
    rear: bool
    bv: Fraction
    heat: Fraction
    heat_sum: Fraction
    full: bool
    total: Fraction
    factors: tuple[str, ...] = ()


@dataclass(frozen=True)
class AmmoLine:
    """One ammunition group (22.6)."""

    key: tuple[str, int]
    ammo_bv: Fraction
    cap: Fraction
    added: Fraction


@dataclass(frozen=True)
class Offensive:
    """Section 22, step by step."""

    heat_capacity: int
    movement_heat: int
    heat_efficiency: int
    switched: bool
    weapons: tuple[WeaponLine, ...]
    weapon_bv: Fraction
    ammo: tuple[AmmoLine, ...]
    ammo_bv: Fraction
    equipment_bv: Fraction
    weight: Fraction
    speed_mp: int
    speed_factor: Fraction
    obr: Fraction


@dataclass(frozen=True)
class BVBreakdown:
    """Battle Value 2 of one unit (gunnery 4 / piloting 5) with every step."""

    unit: str
    defensive: Defensive
    offensive: Offensive
    cockpit_factor: Fraction
    base: Fraction
    bv: int
    rules: dict[str, Any] = field(default_factory=dict)
    assumed: tuple[str, ...] = ()

    @property
    def value(self) -> int:
        return self.bv

    def lines(self) -> list[str]:
        """The steps, one line each, in the layout of the reference's worked examples
        (reference-bv.md 26)."""
        d, o = self.defensive, self.offensive
        tc = f"+{d.torso_cockpit_armor}" if d.torso_cockpit_armor else ""
        out = [
            f"armor {d.armor_points} {tc} x2.5 x {num(d.armor_multiplier)} = {num(d.armor_bv)}",
            f"structure {d.structure_points} x1.5 x {num(d.structure_multiplier)} x "
            f"{num(d.engine_multiplier)} = {num(d.structure_bv)} -> "
            f"{num(d.armor_bv + d.structure_bv)}",
        ]
        run = d.armor_bv + d.structure_bv + d.gyro_bv
        out.append(f"gyro {self._tons()} x {num(d.gyro_multiplier)} = {num(d.gyro_bv)} -> "
                   f"{num(run)}")
        run += d.equipment_bv
        out.append(f"defensive equipment {num(d.equipment_bv)} (AMS ammo "
                   f"{num(d.ams_ammo_bv)} cap {num(d.ams_cap)} ) -> {num(run)}")
        run -= d.explosive
        out.append(f"explosive -{num(d.explosive)} -> {num(run)}"
                   + (" -> floor 1.0" if d.floored else ""))
        out.append(f"run {d.run_mp} jump {d.jump_mp} TMM {d.tmm_run} {d.tmm_jump} factor "
                   f"{num(d.factor)} DBR {num(d.dbr)}")
        out.append(f"heat efficiency 6 + {o.heat_capacity} - {o.movement_heat} = "
                   f"{o.heat_efficiency}" + (" (front and rear switched)" if o.switched else ""))
        for w in o.weapons:
            out.append(f"  weapon {w.name} {w.location} {'R' if w.rear else ''} bv {num(w.bv)} "
                       f"heat {num(w.heat)} sum {num(w.heat_sum)} "
                       f"{'full' if w.full else 'half'} -> {num(w.total)}")
        for a in o.ammo:
            out.append(f"  ammo {a.key!r} {short(a.ammo_bv)} cap {short(a.cap)} -> "
                       f"{short(a.added)}")
        total = o.weapon_bv + o.ammo_bv + o.equipment_bv
        out.append(f"ammo {num(o.ammo_bv)} offensive equipment {num(o.equipment_bv)} -> "
                   f"{num(total)}")
        out.append(f"weight {num(o.weight)} -> {num(total + o.weight)}")
        out.append(f"speed factor mp {o.speed_mp} factor {num(o.speed_factor)} OBR "
                   f"{num(o.obr)}")
        out.append(f"DBR + OBR = {num(d.dbr + o.obr)} cockpit x {num(self.cockpit_factor)} = "
                   f"{num(self.base)} -> BV {self.bv}")
        return out

    def _tons(self) -> str:
        d = self.defensive
        return short(d.gyro_bv / d.gyro_multiplier)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the value, the main ratings and the step lines."""
        return {"unit": self.unit, "bv": self.bv, "dbr": float(self.defensive.dbr),
                "obr": float(self.offensive.obr), "base": float(self.base),
                "steps": self.lines(), "rules": self.rules, "assumed": list(self.assumed)}
