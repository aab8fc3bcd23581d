"""A firing 'Mech (reference part 2, 10.1-10.3) built from a :class:`ClassicMech` through the
weapon table.

Mounts are the unit reader's ``mech.weapon_mounts`` and ammunition its ``mech.ammo_bins``
(both ``.mtf`` files and the built-in catalog carry them, rear flags included); only a
hand-built 'Mech without mounts falls back to its ``Weapons:`` list, with a note. Rear-mounted
weapons never fire at a target in the front arc and add no heat (10.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.classic.fire.cluster import ARTEMIS_BONUS
from sim.classic.weapons import (
    AMMO,
    ARTEMIS_FAMILIES,
    ARTEMIS_KIND,
    EQUIPMENT,
    ONE_SHOT_ROUNDS,
    WEAPONS,
    Weapon,
    lookup_weapon,
    one_shot_rounds,
)
from sim.units.types import AmmoBin, ClassicMech, WeaponMount
from sim.units.usable import incomplete_note


@dataclass(frozen=True)
class Mount:
    """One weapon mount: the name as written, the weapon (None if unknown), location, rear."""

    name: str
    weapon: Weapon | None
    location: str
    rear: bool
    line: int | None = None
    #: Artemis fire control linked to this launcher: "" none, "iv" or "v" (10.3; +2 / +3 on
    #: the cluster roll through :func:`sim.classic.fire.cluster.cluster_modifier`), or
    #: "apollo" (an MRM's Apollo FCS: -1 on that roll, its +1 to-hit cancelled)
    artemis: str = ""
    #: a one-shot launcher's own pool (:func:`sim.classic.weapons.one_shot_rounds`); "" for
    #: a weapon fed from the bins of its ammunition family (or none)
    pool_key: str = ""

    @property
    def cluster_bonus(self) -> int:
        """What the linked Artemis adds to the cluster roll (0 without one; the number from
        :data:`sim.classic.fire.cluster.ARTEMIS_BONUS`, the one table of it)."""
        return ARTEMIS_BONUS[self.artemis]


@dataclass(frozen=True)
class Pool:
    """All ammunition of one type (bins fed in slot order, 10.3 "Ammo feed")."""

    key: str                  # AmmoType.weapon_family_key (matched by Weapon.ammo)
    shots: int                # total rounds in all bins
    damage_per_shot: int      # explosion damage per round (14.4)
    explosive: bool
    locations: tuple[str, ...]
    contained: bool           # every bin sits in a CASE / CASE II location
    #: rounds of each bin in feed (slot) order (10.3 "Ammo feed"); () = one bin of ``shots``
    bins: tuple[int, ...] = ()
    #: every bin holds Narc-capable rounds (issue 19: the +2 of a Narc beacon on the target)
    narc: bool = False

    def explosion_loss(self, left: int) -> int:
        """Rounds a heat-induced explosion of this pool destroys when ``left`` rounds are
        left (C8: the whole bin with the most rounds left explodes; the bins are fed in
        slot order, so the bins left are the last ones, the first of them partly used).
        Exact for a pool whose bins hold the same rounds (a full bin, or the partly used
        one when no full bin is left); with bins of different sizes it reads the bins left
        as if no bin of the pool had exploded before."""
        sizes = self.bins or (self.shots,)
        rest, most = left, 0
        for size in reversed(sizes):
            take = min(size, rest)
            most = max(most, take)
            rest -= take
            if rest <= 0:
                break
        return most


@dataclass(frozen=True)
class FireUnit:
    """What the fire model needs of a 'Mech."""

    name: str
    tech_base: str
    mounts: tuple[Mount, ...]
    pools: tuple[Pool, ...]
    heat_sinks: int
    double_sinks: bool
    leg_sinks: int
    walk_mp: int
    jump_mp: int
    ammo_known: bool
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: a working targeting computer (10.3: -1 to-hit for direct-fire weapons)
    targeting_computer: bool = False

    def pool_index(self, w: Weapon, mount: Mount | None = None) -> int:
        """Index of the pool feeding ``w`` (on ``mount``: a one-shot launcher has its own,
        ``Mount.pool_key``); -1 for energy weapons or unknown ammunition."""
        key = mount.pool_key if mount is not None and mount.pool_key else w.ammo
        if key is None:
            return -1
        for i, p in enumerate(self.pools):
            if p.key == key:
                return i
        return -1


def _fallback_mounts(mech: ClassicMech) -> list[Mount]:
    """Mounts of a hand-built 'Mech without ``weapon_mounts``: its ``Weapons:`` list, each
    name resolved as a display name through the tech base (C20)."""
    return [Mount(n, lookup_weapon(n, mech.tech_base, display=True), loc, False)
            for n, loc in mech.weapons]


def linked_artemis(mount: WeaponMount, bins: tuple[AmmoBin, ...]) -> str:
    """The Artemis kind ("iv", "v"; "" for none) that acts on ``mount``'s cluster roll (reference 10.3: Artemis IV +2 on an
    LRM/SRM firing Artemis-capable ammunition; Artemis V +3 with Artemis V-capable
    ammunition, MegaMek ``ArtemisVHandler``, whose V-capable rounds also serve an Artemis IV).
    Every bin the launcher feeds from must carry such rounds (a pool mixing standard rounds
    gets none: btsim does not track which bin fires first); "" without a link."""
    w = WEAPONS.get(mount.weapon) if mount.weapon is not None else None
    if mount.artemis == "apollo":  # an Apollo FCS needs no special rounds (its MRM's own)
        return "apollo" if w is not None and w.family == "mrm" else ""
    if not mount.artemis or w is None or w.family not in ARTEMIS_FAMILIES or w.ammo is None:
        return ""
    fed = [b.munition for b in bins if b.ammo is not None and b.ammo in AMMO
           and AMMO[b.ammo].feeds(w)]
    ok = {"artemis_iv": ("artemis", "artemis_v"), "artemis_v": ("artemis_v",)}[mount.artemis]
    return ARTEMIS_KIND[mount.artemis] if fed and all(m in ok for m in fed) else ""


#: Most machine guns one array links (MegaMek ``MGAWeaponHandler``; TacOps: 2-4).
MGA_MAX_LINKED = 4


def is_mg_array(w: Weapon | None) -> bool:
    """True for a machine gun array row (``Machine Gun Array``, light and heavy ones)."""
    return w is not None and w.family == "mg" and w.name.endswith(" Array")


def link_mg_arrays(mounts: list[Mount], pools: list[Pool]
                   ) -> tuple[list[Mount], list[Pool], list[str]]:
    """Machine gun arrays (MegaMek ``MGAWeaponHandler``, facts where the references are
    silent): an array fires the machine guns of its type in its location (up to
    :data:`MGA_MAX_LINKED`, same facing) as one weapon: one to-hit roll, the number of guns
    that hit from the cluster table with the gun count as the column (no modifier), every
    hit on the one location the salvo rolls (one damage group), each gun's heat, and one
    round per gun from their ammunition. The linked mounts become one mount whose weapon
    has ``cluster`` = the gun count; its pool is the guns' pool counted in salvos (rounds
    // guns per bin, explosion damage per salvo = guns x per round), which is exact when the
    array's guns are the pool's only users. When another weapon also feeds from that pool
    the guns fire singly instead (a note says so)."""
    from dataclasses import replace

    notes: list[str] = []
    out = list(mounts)
    for arr in [m for m in mounts if is_mg_array(m.weapon)]:
        assert arr.weapon is not None
        base = arr.weapon.name.removesuffix(" Array")
        linked = [m for m in out if m.location == arr.location and m.rear == arr.rear
                  and m.weapon is not None and m.weapon.family == "mg"
                  and m.weapon.name == base][:MGA_MAX_LINKED]
        out.remove(arr)
        if len(linked) < 2:
            notes.append(f"{arr.weapon.name} ({arr.location}): fewer than two {base}s to link; "
                         "they fire singly")
            continue
        w = linked[0].weapon
        assert w is not None
        n = len(linked)
        users = [m for m in out if m.weapon is not None and m.weapon.ammo == w.ammo]
        k = next((i for i, p in enumerate(pools) if p.key == w.ammo), -1)
        if k >= 0 and len(users) != n:
            notes.append(f"{arr.weapon.name} ({arr.location}): its {base}s share their ammunition "
                         "with other weapons; they fire singly (not as one array)")
            continue
        if k >= 0:
            p = pools[k]
            bins = tuple(b // n for b in (p.bins or (p.shots,)))
            pools[k] = replace(p, shots=sum(bins), bins=bins,
                               damage_per_shot=p.damage_per_shot * n)
        gun = replace(w, name=f"{arr.weapon.name} ({n} x {base})", cluster=n,
                      group=w.damage * n, heat=w.heat * n)
        at = out.index(linked[0])
        for m in linked:
            out.remove(m)
        out.insert(at, replace(linked[0], name=arr.name, weapon=gun))
        notes.append(f"{arr.weapon.name} ({arr.location}): {n} {base}s fire as one array (one "
                     "to-hit roll, the cluster table for the guns that hit, one location)")
    return out, pools, notes


def fire_unit(mech: ClassicMech) -> FireUnit:
    """Build the firing view of ``mech`` from the unit reader's fields (issue 11).

    Mounts are ``mech.weapon_mounts`` (critical-slot blocks, rear flags kept; a weapon split
    across two locations sits where the reader puts it, e.g. the Axman's AC/20 in the CT);
    ammunition is ``mech.ammo_bins`` grouped into one pool per ammunition family
    (:meth:`AmmoType.feeds`), and each one-shot launcher has a one-round pool of its own
    (:func:`sim.classic.weapons.one_shot_rounds`); leg sinks are the LL/RL entries of
    ``mech.heat_sink_locations`` (C17). A weapon btsim does not simulate (the table lacks
    it, or marks it ``no:``) is left out of the mounts and never fires; the unit is then
    incomplete and the first note says what is not simulated (issue 19). A launcher with a
    linked Artemis gets its cluster bonus (:func:`linked_artemis`). Unknown equipment and the
    reader's notes are carried as notes."""
    notes: list[str] = []
    mounts: list[Mount]
    one_shot = {i: key for i, key, _ in one_shot_rounds(mech.weapon_mounts)}
    if mech.weapon_mounts:
        mounts = [Mount(m.name, WEAPONS.get(m.weapon) if m.weapon is not None else None,
                        m.location, m.rear, m.line, linked_artemis(m, mech.ammo_bins),
                        one_shot.get(i, ""))
                  for i, m in enumerate(mech.weapon_mounts)]
    else:
        mounts = _fallback_mounts(mech)
        if mounts:
            notes.append("weapon mounts from the unit's Weapons: list (no weapon_mounts): "
                         "rear mounting unknown, every weapon assumed forward")
    incomplete = incomplete_note(mech)
    if incomplete is not None:
        notes.append(incomplete)
    pods = sum(1 for k, _ in mech.equipment if k in EQUIPMENT and EQUIPMENT[k].kind
               == "coolant_pod")
    if pods:  # issue 19: the Classic duel spends them (option coolant_pod)
        notes.append(f"{pods} coolant pod(s): not used by this model's heat (the Classic "
                     "duel spends them, option coolant_pod)")
    # a weapon btsim does not simulate never fires (issue 19: the unit is incomplete)
    mounts = [m for m in mounts if m.weapon is not None and m.weapon.fires]
    notes += [f"{m.weapon.name} ({m.location}): +{m.cluster_bonus} on its cluster roll from "
              "its linked Artemis (reference 10.3)" for m in mounts
              if m.cluster_bonus and m.weapon is not None]
    for wm in mech.weapon_mounts:
        if wm.split_location:
            notes.append(f"{wm.name} is split between {wm.location} and {wm.split_location}; "
                         f"its location is read as {wm.location} (MegaMek's reading)")
    ammo_known = bool(mech.ammo_bins) or bool(mech.weapon_mounts) or not mounts
    if not ammo_known and any(m.weapon is not None and m.weapon.ammo for m in mounts):
        notes.append("ammunition bins unknown (no ammo_bins): ammunition is not limited "
                     "and cannot explode")
    protected = set(mech.case_locations) | set(mech.case2_locations)
    pools: dict[str, list[tuple[str, int, int, bool]]] = {}
    narc: dict[str, list[bool]] = {}
    for b in mech.ammo_bins:
        a = AMMO.get(b.ammo) if b.ammo is not None else None
        if a is None:
            where = b.location + (f", line {b.line}" if b.line else "")
            notes.append(f"ammunition {b.name!r} ({where}) not in the ammunition table: "
                         "ignored (no weapon feeds from it, it cannot explode)")
            continue
        pools.setdefault(a.weapon_family_key, []).append(
            (b.location, int(b.shots), a.damage_per_shot, a.explosive))
        narc.setdefault(a.weapon_family_key, []).append(b.munition == "narc")
    pool_list = tuple(
        Pool(k, sum(s for _, s, _, _ in v), max(d for _, _, d, _ in v),
             any(x for _, _, _, x in v), tuple(dict.fromkeys(loc for loc, _, _, _ in v)),
             all(loc in protected for loc, _, _, _ in v), tuple(s for _, s, _, _ in v),
             all(narc[k]))
        for k, v in pools.items())
    # a one-shot launcher's own round (reference 10.3: it fires once per game): a pool of
    # its own that nothing explodes (no critical slot holds it)
    pool_list += tuple(Pool(key, ONE_SHOT_ROUNDS, 0, False, (loc,), True, (ONE_SHOT_ROUNDS,))
                       for _, key, loc in one_shot_rounds(mech.weapon_mounts))
    if any(is_mg_array(m.weapon) for m in mounts):
        mounts, pools_l, mga_notes = link_mg_arrays(mounts, list(pool_list))
        pool_list = tuple(pools_l)
        notes += mga_notes
    for name, loc, line in mech.unknown_equipment:
        notes.append(f"unknown equipment {name!r} ({loc}" + (f", line {line}" if line else "")
                     + "): not simulated")
    notes.extend(mech.notes)
    if mech.heat_sink_locations or mech.engine_heat_sinks:
        leg = sum(1 for loc in mech.heat_sink_locations if loc in ("LL", "RL"))
    else:
        leg = 0
        notes.append("heat-sink locations unknown: depth-1 water cooling counts no leg sinks "
                     "under C17 'legs'")
    tc = any(EQUIPMENT[k].kind == "targeting_computer" for k, _ in mech.equipment
             if k in EQUIPMENT)
    return FireUnit(mech.name, mech.tech_base, tuple(mounts), pool_list, mech.heat_sinks,
                    mech.heat_sink_type.lower().startswith(("double", "laser")), leg, mech.walk_mp,
                    mech.jump_mp, ammo_known, tuple(dict.fromkeys(notes)),
                    targeting_computer=tc)
