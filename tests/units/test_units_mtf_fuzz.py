"""Issue 5 / issue 11 bad input: mutated .mtf text (line deletions, duplications, character
substitutions, truncations, weapon/ammo/heat-sink/engine lines dropped in anywhere) makes the
extended reader either succeed or raise MtfError; nothing else ever escapes, and what it
returns is consistent (weapon keys in the table, bins with shots, sinks accounted for)."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from units_helpers import MTF_FILES, mtf_text

from sim.classic.weapons import AMMO, WEAPONS
from sim.units import catalog
from sim.units.mtf import MtfError, parse_mtf
from sim.units.types import LOCATIONS, ClassicMech

#: Seed texts: the shared files when present, synthetic files from the catalog always.
SEEDS = [p.read_text("utf-8") for p in MTF_FILES] + [
    mtf_text(e.classic) for e in catalog.entries() if e.classic is not None]

_CHARS = st.sampled_from(list(":,()#-\n\r\t 0123456789xX*\"'é\u00b2\u0663"))
_PIECES = st.one_of(st.text(_CHARS, max_size=12),
                    st.sampled_from([
                        "Left Arm:", "mass:55", "Weapons:2", "Config:Quad", "LA armor:99",
                        "Hatchet", "-Empty-", "walk mp:99999", "Autocannon/20", "PPC",
                        "Medium Laser (R)", "CLLRM20 (OMNIPOD)", "IS Ammo MG - Half",
                        "Clan Ammo LRM-20", "ISArtemisIV", "Heat Sink", "CLDoubleHeatSink",
                        "ISDoubleHeatSink", "engine:300 XL Engine", "engine:x Engine",
                        "engine:0 Fusion Engine", "heat sinks:99 IS Double",
                        "base chassis heat sinks:-3", "base chassis heat sinks:7",
                        "Heavy Large Laser, Left Arm", "ISHeavyLargeLaser (R)",
                        "Autocannon/20 (SPLIT)", "CLTargeting Computer"]))


@st.composite
def mutated(draw) -> str:
    lines = draw(st.sampled_from(SEEDS)).split("\n")
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["delete", "duplicate", "substitute", "insert", "swap"]))
        k = draw(st.integers(0, len(lines) - 1))
        if op == "delete" and len(lines) > 1:
            del lines[k]
        elif op == "duplicate":
            lines.insert(k, lines[k])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == "insert":
            lines.insert(k, draw(_PIECES))
        elif lines[k]:
            pos = draw(st.integers(0, len(lines[k]) - 1))
            lines[k] = lines[k][:pos] + draw(_CHARS) + lines[k][pos + 1:]
    text = "\n".join(lines)
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_mtf_raises_only_mtferror(text: str) -> None:
    """Only MtfError (a UserError with file and line) or a valid 'Mech comes out."""
    try:
        mech = parse_mtf(text, "fuzz.mtf")
    except MtfError as exc:
        event("MtfError")
        assert str(exc).startswith("fuzz.mtf")
        assert exc.line is None or 1 <= exc.line <= text.count("\n") + 1
        return
    event("parsed")
    assert isinstance(mech, ClassicMech)
    assert mech.tons in range(20, 101, 5)
    assert set(mech.armor) == {"HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL",
                               "CTR", "LTR", "RTR"}
    n_lines = text.count("\n") + 1
    for m in mech.weapon_mounts:
        assert m.weapon is None or m.weapon in WEAPONS
        assert m.location in LOCATIONS and m.line is not None and 1 <= m.line <= n_lines
    for b in mech.ammo_bins:
        assert b.ammo in AMMO and b.shots > 0 and b.location in LOCATIONS
    assert 10 <= mech.engine_rating <= 500
    assert 0 <= mech.engine_heat_sinks <= mech.engine_rating // 25
    assert all(loc in LOCATIONS for loc in mech.heat_sink_locations)
    for _, loc, line in mech.unknown_equipment:
        assert loc in LOCATIONS and line is not None and 1 <= line <= n_lines
