"""``btsim rules``: every rule option, its allowed values, reference, readings and presets."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim import options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules", help="list the rule options (--rule NAME=VALUE) and what each preset sets",
        description="Every rule option: its default, allowed values, reference (D-number or "
        "section of the rules reference), one line of doc, what each value means, and the "
        "value each preset (--rules) sets. A '*' marks a preset value that differs from the "
        "default.",
        epilog="examples:\n  btsim rules\n  btsim rules --game alphastrike\n"
        "  btsim rules --json\n  btsim heat --ov 2 --rule heat_tmm_threshold=3",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", help="only this game's options: " + "|".join(options.games()))
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=main)


def to_json(game: str | None = None) -> dict[str, Any]:
    """``{"games": {game: {models, presets}}, "options": [...]}``."""
    games = (game,) if game else options.games()
    opts = options.options(game)
    return {
        "games": {g: {"models": list(options.models_of(g)), "presets": list(options.presets(g))}
                  for g in games},
        "options": [o.as_dict() for o in opts],
    }


def _value(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _allowed(o: options.Option) -> str:
    if o.kind == "bool":
        return "true|false"
    if o.kind == "int":
        return f"{o.allowed['min']}..{o.allowed['max']}"
    return "|".join(o.allowed)


def to_text(game: str | None = None) -> str:
    """One table per game (name, reference, the value of each preset, allowed values), then
    each option's doc and readings."""
    out: list[str] = []
    for g in ((game,) if game else options.games()):
        opts = options.options(g)
        pres = options.presets(g)
        out.append(f"{g} rule options (models: {', '.join(options.models_of(g))}; "
                   f"presets: {', '.join(pres)})")
        rows = [["NAME", "REF", *(p.upper() for p in pres), "ALLOWED"]]
        for o in opts:
            cells = [_value(o.presets[p]) + ("*" if o.presets[p] != o.default else "")
                     for p in pres]
            rows.append([o.name, o.ref, *cells, _allowed(o)])
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        for r in rows:
            out.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True))
                       .rstrip())
        out.append("")
        for o in opts:
            out.append(f"  {o.name} [{o.ref}] {o.doc}")
            for val, text in o.readings.items():
                mark = " (default)" if val == _value(o.default) else ""
                out.append(f"      {val}{mark}: {text}")
        out.append("")
    out.append("* = the preset differs from the default. Pick a preset with --rules PRESET, "
               "override one option with --rule NAME=VALUE (or, in an experiment, the option "
               "name as a parameter).")
    return "\n".join(out).rstrip() + "\n"


def main(args: argparse.Namespace) -> int:
    if args.game is not None:
        options.presets(args.game)  # unknown game -> ConfigError, exit 2
    if args.json:
        print(json.dumps(to_json(args.game), indent=2))
    else:
        print(to_text(args.game), end="")
    return 0
