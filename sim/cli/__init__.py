"""The ``btsim`` command line. Each subcommand lives in its own module under ``sim.cli``
with a ``register(subparsers)`` function that adds its parser and sets ``func`` to a
callable ``(args) -> int`` (the exit status).

User errors (:class:`sim.errors.UserError`) and every error of the operating system (a
read-only or full disk, a path that is not a folder, a file that cannot be read:
:func:`sim.errors.os_error_message`) become one line on stderr and exit status 2, never a
traceback. Ctrl-C exits with 130 and leaves no partial results behind.

Start-up stays fast (``btsim --help`` and ``btsim units`` import neither numpy nor pandas;
timed by ``btsim bench``): a command module imports only the standard library, ``sim.errors``
and ``sim.cli.common`` at its top and everything heavy inside its functions, and
:func:`build_parser` registers in full only the command being run; the other commands are
listed from the one-line ``help`` of their ``add_parser`` call alone.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

from sim import __version__
from sim.errors import ECHO_LIMIT, UserError, os_error_message, path_text, shown

#: the order ``--help`` lists the subcommands in; a module of ``sim.cli`` that defines
#: ``register`` and is not named here is found anyway and listed after these (so a new
#: command is one new module, see docs/architecture.md)
ORDER = ("run", "attack", "heat", "fire", "profile", "hit", "duel", "compare", "sensitivity",
         "rules", "units", "rate", "cache", "merge", "report", "bench")


def commands() -> tuple[str, ...]:
    """Names of the subcommand modules: every module of ``sim.cli`` with a ``register``
    function (helpers such as ``common`` and ``progress`` have none), in :data:`ORDER`."""
    import pkgutil

    found = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    known = [n for n in ORDER if n in found]
    return tuple(known + sorted(n for n in found if n not in ORDER))


EPILOG = """examples:
  btsim attack punch --tons 70 --damaged upper-arm --terrain light-woods
  btsim attack charge --tons 65 --hexes 5 --target-tons 70 --trials 1000000 --seed 1 --json
  btsim heat --unit "Loki (Hellbringer) Prime" --policy max --turns 10
  btsim run experiments/01_physical_damage.toml --jobs 2 --target-error 0.002
  btsim compare heat --set ov=2 --a policy=never --b policy=max --trials 200000
  btsim sensitivity results/physical_damage
  btsim report results/
  btsim units --filter atlas
  btsim bench --json

Exit status: 0 success, 2 bad input (one line on stderr), 130 interrupted."""


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


class _Listed(Exception):
    """Raised by :class:`_HelpProbe` to stop a ``register`` at its ``add_parser`` call."""

    def __init__(self, name: str, kwargs: dict[str, object]) -> None:
        super().__init__(name)
        self.name, self.kwargs = name, kwargs


class _HelpProbe:
    """A stand-in for the subparsers object: its ``add_parser`` records the command's name
    and ``help`` and stops ``register`` there, before any option (and any import the
    options need) is added."""

    def add_parser(self, name: str, **kwargs: object) -> argparse.ArgumentParser:
        raise _Listed(name, kwargs)


def _listing(mod: object) -> tuple[str, str | None]:
    """The name and one-line help that ``mod.register`` gives its command."""
    try:
        mod.register(_HelpProbe())  # type: ignore[attr-defined]
    except _Listed as found:
        help_text = found.kwargs.get("help")
        return found.name, help_text if isinstance(help_text, str) else None
    raise RuntimeError(f"{mod!r}: register() added no parser")  # pragma: no cover


def command_of(argv: list[str]) -> str | None:
    """The subcommand named by ``argv`` (its first word not starting with ``-``: the
    top-level options take no value), or None."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(command: str | None = None, *, full: bool = True) -> argparse.ArgumentParser:
    """The ``btsim`` parser. With ``full`` every command is registered with all its options;
    otherwise only ``command`` is (none for ``None``), and the others are listed with their
    one-line help only, which is all ``btsim --help`` shows and all a parse of
    ``command``'s arguments needs."""
    parser = _Parser(
        prog="btsim",
        description="Monte Carlo balance simulator for BattleTech: Classic physical attacks "
        "and Alpha Strike heat, exact and sampled.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"btsim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in commands():
        mod = importlib.import_module(f"sim.cli.{name}")
        if not hasattr(mod, "register"):
            continue
        listed, help_text = _listing(mod)
        if full or listed == command:
            mod.register(sub)
        else:
            sub.add_parser(listed, help=help_text)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args: argparse.Namespace | None = None
    parser = build_parser(command_of(argv), full=False)
    try:
        args = parser.parse_args(argv)
        _refuse_empty(args, parser)
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return 2
        return int(args.func(args) or 0)
    except UserError as exc:
        _say(_named(str(exc), argv, args, parser))
        return exc.exit_code
    except BrokenPipeError:  # e.g. `btsim units | head`
        return 0
    except OSError as exc:  # a read-only or full disk, a file for a folder, ...
        _say(_option_of(exc, args, parser) + os_error_message(exc))
        return 2
    except UnicodeEncodeError as exc:  # a path with bytes that are not UTF-8, deep in a writer
        if "surrogates" not in str(exc):
            raise
        _say(_option_of(OSError(0, "", exc.object), args, parser)
             + "a path or value that is not valid UTF-8 text")
        return 2
    except KeyboardInterrupt:
        _stop_workers()
        print("btsim: interrupted; no results were written", file=sys.stderr)
        return 130


def _stop_workers() -> None:
    """Kill joblib's loky workers after Ctrl-C, so that the exit never waits on a pool the
    interrupt caught while it was starting (its feeder threads would block the shutdown)."""
    reusable = sys.modules.get("joblib.externals.loky.reusable_executor")
    pool = getattr(reusable, "_executor", None)  # None: no pool was started
    if pool is None:
        return
    try:
        pool.shutdown(wait=False, kill_workers=True)
    except Exception:  # noqa: BLE001 - best effort on the way out; the exit code stands
        pass


#: a quoted value longer than sim.errors.ECHO_LIMIT (messages echo at most that much of one);
#: a quote opens after a non-word character and closes before one, so the text between two
#: quoted values (``The 'shard' parameter must be ...; got '1/2'``) or an apostrophe
#: (``round's``) is never taken for a value
_LONG_QUOTE = re.compile(rf"(?<![\w'])'[^']{{{ECHO_LIMIT},}}'(?!\w)"
                         rf"|(?<![\w\"])\"[^\"]{{{ECHO_LIMIT},}}\"(?!\w)")


def _say(message: str) -> None:
    """``btsim: error: MESSAGE`` as one line on stderr, whatever the message holds (a
    newline, a path that is not valid UTF-8)."""
    text = one_line(message).encode("utf-8", "backslashreplace").decode("utf-8")
    text = _LONG_QUOTE.sub(lambda m: m.group(0)[: ECHO_LIMIT - 4] + "..." + m.group(0)[0],
                           text)
    try:
        print(f"btsim: error: {text}", file=sys.stderr)
    except UnicodeEncodeError:  # a stderr that is not UTF-8
        print("btsim: error: " + text.encode("ascii", "backslashreplace").decode("ascii"),
              file=sys.stderr)


def _refuse_empty(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """UserError for an option given an empty (or blank) value, such as ``--range ''``:
    none means "the default" (leave the option out for that), except where the default is
    itself empty (``units --filter ''``)."""
    defaults = _defaults(parser)
    flags = _flags(parser)
    for dest, value in vars(args).items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, str) and not v.strip() and defaults.get(dest) != v:
                raise UserError(f"{flags.get(dest, dest)}: an empty value {v!r}; give a "
                                "value, or leave the option out for its default")


def _defaults(parser: argparse.ArgumentParser) -> dict[str, object]:
    out: dict[str, object] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out = {**_defaults(sub), **out}
        else:
            out.setdefault(action.dest, action.default)
    return out


def _named(message: str, argv: list[str], args: argparse.Namespace | None,
           parser: argparse.ArgumentParser) -> str:
    """``message`` prefixed with the option it is about, when it quotes a value the user gave
    (or a part of one: a unit of ``A@3,B``) but names no option (``unknown Classic unit
    'bogus'`` from ``--attacker bogus`` becomes ``--attacker 'bogus': unknown ...``)."""
    if args is None:
        return message
    given = set(argv) | {x for a in argv if a.startswith("--") for x in a.split("=", 1)}
    flags = _flags(parser)
    if any(re.search(rf"{re.escape(f)}(?![\w-])", message) for f in flags.values()
           if f.startswith("--") and f in given):
        return message  # it names an option the user gave
    for dest, value in vars(args).items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            if not isinstance(v, str) or not v.strip() or v not in given:
                continue
            parts = {v, *(p.strip() for p in re.split(r"[,@=]", v) if p.strip())}
            if not any(repr(p) in message or shown(p) in message for p in parts):
                continue
            flag = flags.get(dest, dest)
            if ((flag.startswith("-") and re.search(rf"{re.escape(flag)}(?![\w-])", message))
                    or re.search(rf"'{re.escape(dest)}'|(?<![\w-]){re.escape(dest)}:",
                                 message)):
                return message  # it names its option already
            return f"{flag} {shown(v)}: {message}"
    return message


def _flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    """dest -> how the user wrote it (``--out``; a positional's metavar), over ``parser`` and
    every subparser under it."""
    out: dict[str, str] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out = {**_flags(sub), **out}
        elif action.option_strings:
            out.setdefault(action.dest, next((o for o in action.option_strings
                                              if o.startswith("--")), action.option_strings[0]))
        else:
            out.setdefault(action.dest, str(action.metavar or action.dest))
    return out


def _option_of(exc: OSError, args: argparse.Namespace | None,
               parser: argparse.ArgumentParser) -> str:
    """``--out 'results': `` when the failing path is an option's value or lies under it
    (empty when no option gave it)."""
    if args is None or exc.filename is None:
        return ""
    try:
        failed = os.fsdecode(exc.filename)
    except (TypeError, ValueError):
        return ""
    flags = _flags(parser)
    for dest, value in vars(args).items():
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str) and v and (failed == v or failed.startswith(v.rstrip("/") + "/")):
                flag = flags.get(dest, dest)
                return f"{flag} {path_text(v)}: " if failed != v else f"{flag}: "
    return ""


def one_line(text: str) -> str:
    """``text`` on one line (a message quoting a value with a newline stays one line)."""
    return " ".join(text.splitlines()) if "\n" in text or "\r" in text else text


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
