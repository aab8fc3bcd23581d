"""The firing view of a 'Mech: weapon names from slot strings (10.1), mounts from slot runs,
rear mounts, ammunition pools, leg sinks; all 14 shared ``.mtf`` files."""

from __future__ import annotations

from collections import Counter

import pytest
from fire_helpers import MTF_DIR, needs_shared

from sim.classic.fire.unit import fire_unit
from sim.classic.weapons import lookup_ammo, lookup_weapon


@pytest.mark.parametrize(("text", "tech", "key"), [
    ("ISMediumLaser", "Inner Sphere", "IS Medium Laser"),
    ("Medium Laser", "Clan", "IS Medium Laser"),           # as written: the IS class
    ("LRM 20", "Clan", "Clan LRM 20"),                     # C20: display name + tech base
    ("CLLRM20", "Clan", "Clan LRM 20"),
    ("Autocannon/20", "Inner Sphere", "IS AC/20"),
    ("AC/20", "Inner Sphere", "IS AC/20"),
    ("CLAntiMissileSystem", "Clan", "Clan AMS"),
    ("ClSmall Laser", "Clan", "Small Laser"),              # one MegaMek class for both
    ("ISUltraAC5", "Inner Sphere", "IS Ultra AC/5"),
    ("CLStreakSRM6", "Clan", "Clan Streak SRM 6"),
])
def test_weapon_names(text: str, tech: str, key: str) -> None:
    w = lookup_weapon(text, tech)
    if key == "Clan LRM 20" and text == "LRM 20":   # a display name: C20 reads the tech base
        w = lookup_weapon(text, tech, display=True)
    assert w is not None and w.key == key


def test_ammo_names() -> None:
    assert lookup_ammo("Clan Machine Gun Ammo - Half", "Clan").key == "Clan Ammo MG"
    assert lookup_ammo("CLAMS Ammo", "Clan").key == "Clan Ammo AMS"
    cluster = lookup_ammo("IS LB 10-X Cluster Ammo")
    assert cluster.weapon_family_key == "IS Ammo LB 10-X AC"
    assert cluster.feeds(lookup_weapon("ISLBXAC10"))
    assert lookup_ammo("Heat Sink") is None and lookup_weapon("Phaser Bank") is None


@needs_shared
@pytest.mark.parametrize("path", sorted(MTF_DIR.glob("*.mtf")) if MTF_DIR.is_dir() else [],
                         ids=lambda p: p.stem)
def test_every_shared_mtf_reads_its_weapons(path) -> None:
    from sim.units.mtf import read_mtf

    mech = read_mtf(path)
    unit = fire_unit(mech)
    got = Counter(m.weapon.key for m in unit.mounts)
    want = Counter(lookup_weapon(n, mech.tech_base, display=True).key
                   for n, _ in mech.weapons)
    assert got == want
    rear = [m for m in unit.mounts if m.rear]
    assert len(rear) == (2 if mech.model == "AS7-D" else 0)
    if mech.model == "HBK-4G":
        assert unit.leg_sinks == 4 and [p.shots for p in unit.pools] == [10]
    if mech.tech_base == "Clan":
        assert all(p.contained for p in unit.pools)   # Clan CASE (10.1)


def test_targeting_computer_minus_one_for_direct_fire_only() -> None:
    """10.3: the Loki Prime's targeting computer takes 1 off its ER PPCs and ER medium
    lasers, not off its machine guns or Streak launcher (built-in catalog, no shared data)."""
    from dataclasses import replace

    from sim.classic.fire.model import MODEL
    from sim.units.catalog import get_classic

    loki = get_classic("Loki (Hellbringer) Prime")
    plain = replace(loki, equipment=tuple(e for e in loki.equipment
                                          if "Targeting" not in e[0]))
    assert fire_unit(loki).targeting_computer and not fire_unit(plain).targeting_computer
    with_tc = MODEL.scenario({"unit": loki, "range": 3, "turns": 1})
    without = MODEL.scenario({"unit": plain, "range": 3, "turns": 1})
    for a, b in zip(with_tc.guns, without.guns, strict=True):
        direct = a.weapon.family in ("laser", "pulse", "ppc")
        assert int(a.tn[0, 0]) == int(b.tn[0, 0]) - (1 if direct else 0), a.name
    assert {g.weapon.family for g in with_tc.guns} >= {"ppc", "laser", "mg", "streak"}
