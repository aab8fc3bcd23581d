"""Issue 5 bad input: mutated .mtf text (line deletions, duplications, character
substitutions, truncations) makes the reader either succeed or raise MtfError; nothing else
ever escapes."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from units_helpers import MTF_FILES, mtf_text

from sim.units.catalog import get_classic
from sim.units.mtf import MtfError, parse_mtf
from sim.units.types import ClassicMech

#: Seed texts: the shared files when present, synthetic files from the catalog always.
SEEDS = [p.read_text("utf-8") for p in MTF_FILES] + [
    mtf_text(get_classic(n)) for n in ("Atlas AS7-D", "Loki (Hellbringer) Prime",
                                       "Hatchetman HCT-3F")]

_CHARS = st.sampled_from(list(":,()#-\n\r\t 0123456789xX*\"'é\u00b2\u0663"))
_PIECES = st.one_of(st.text(_CHARS, max_size=12),
                    st.sampled_from(["Left Arm:", "mass:55", "Weapons:2", "Config:Quad",
                                     "LA armor:99", "Hatchet", "-Empty-", "walk mp:99999"]))


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
