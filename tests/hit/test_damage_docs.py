"""docs/rules.md documents every damage option (issue 9's rule, for :class:`DamageRules`)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from sim.classic.damage_rules import DamageRules
from sim.options import META_KEY

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
SECTION = "Classic damage, critical hits and Battle Value"


def _render(v: object) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def test_every_damage_option_has_an_entry() -> None:
    text = DOC.read_text("utf-8")
    m = re.search(rf"^## {re.escape(SECTION)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"docs/rules.md has no section '## {SECTION}'"
    parts = re.split(r"^#### `([A-Za-z0-9_]+)`\s*$", m.group(1), flags=re.M)
    blocks = {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}
    for f in dataclasses.fields(DamageRules):
        assert f.name in blocks, f"{f.name} has no entry"
        block = blocks[f.name]
        assert f"`{_render(f.default)}` (default)" in block, f.name
        decl = f.metadata[META_KEY]
        values = (True, False) if decl.allowed is bool else decl.allowed
        for v in values:
            assert f"`{_render(v)}`" in block, (f.name, v)
        assert decl.ref in block
