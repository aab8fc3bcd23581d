"""Fuzz every ``btsim`` subcommand in-process (issue 18): a valid, cheap command line of each
command gets one option (any option the command's parser declares, found by introspection,
or a positional) replaced by a hostile value. Whatever the value, the command either
succeeds (exit 0: the value was valid) or exits 2 with exactly one line on stderr that names
the option it was given, no traceback, and nothing written.

Hypothesis runs derandomized (tests/conftest.py), so the examples are the same on every run;
the example counts are sized to keep the file at a few seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli import build_parser, main

A, B = "Locust LCT-1V", "Wolverine WVR-6R"
#: one .mtf file for ``units import`` (from the shared data beside the repo, copied into the
#: sandbox; without it the import base imports nothing and is refused, still a valid fuzz)
MTF = Path(__file__).resolve().parents[2].parent / "shared/data/units/mtf/Locust LCT-1V.mtf"

#: command -> a valid command line that runs fast: (command words, positionals, options)
BASES: dict[str, tuple[list[str], list[str], list[str]]] = {
    "run": (["run"], ["tiny.toml"], ["--out", "out", "--quiet", "--exact"]),
    "attack": (["attack"], ["punch"], ["--tons", "50"]),
    "heat": (["heat"], [], ["--turns", "2"]),
    "fire": (["fire"], [A], ["--turns", "2"]),
    "profile": (["profile"], [A], ["--turns", "2"]),
    "hit": (["hit"], [A], ["--damage", "5", "--location", "CT"]),
    "duel": (["duel"], [A, "Commando COM-1B"], ["--turns", "2"]),
    "duel-classic": (["duel"], [A, B], ["--game", "classic", "--turns", "2", "--trials", "20"]),
    "classic-duel": (["classic-duel"], [A, B], ["--turns", "2", "--trials", "20"]),
    "compare": (["compare"], ["attack"], ["--set", "attack=punch", "--a", "tons=50", "--b",
                                          "tons=55", "--trials", "200", "--chunk-size", "50"]),
    "sensitivity": (["sensitivity"], ["out/tiny"], ["--no-plot"]),
    "rules": (["rules"], [], ["--game", "classic"]),
    "units": (["units"], [], ["--filter", "atlas"]),
    "units-show": (["units", "show"], ["Atlas AS7-D"], []),
    "units-import": (["units", "import"], ["mtf"], ["--skipped", "skipped.txt"]),
    "cache": (["cache", "clean"], ["out"], []),
    "report": (["report"], ["nothing-here"], []),
    "bench": (["bench"], [], ["--model", "nope"]),
    "merge": (["merge"], ["out/tiny"], ["--quiet"]),
    "rate": (["rate"], [A, "Commando COM-1B"], ["--pool", f"{A},Commando COM-1B",
                                                 "--no-save", "--max-trials", "20",
                                                 "--chunk-size", "10", "--seatings", "one"]),
}


def _argv(command: str) -> list[str]:
    cmd, pos, opts = BASES[command]
    return [*cmd, *pos, *opts]


#: options left out of the fuzz, with the reason
SKIP = {
    "help", "version",
    "title",        # report: any text is a valid title (and a valid report takes seconds)
    "progress",     # a choice list checked by argparse, fuzzed in test_cli_fuzz.py
    "jobs",         # a valid worker count starts a process pool (seconds)
    "quick", "sweep", "coverage", "big_trials",  # bench: a valid value runs the benchmark
    "scheduler", "backend",  # run: a valid address starts a Dask cluster (tested below)
}
#: a free-text option: any value is valid, so an exit 2 need not be about it
FREE = {"filter", "out", "skipped"}

FIFO, FILE = "{fifo}", "{file}"
HOSTILE = ["", " ", "x", "-1", "0", "inf", "nan", "1e30", "1" + "0" * 30, "a\nb", "é",
           "x" * 300, "/dev/zero", FIFO, FILE + "/sub", FILE, "bogus://x", ",", "=", "@",
           "\udcff", "a=inf", "-"]

SETTINGS = settings(max_examples=12, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A working folder with a tiny experiment and its results, a FIFO and a plain file;
    ``BTSIM_HOME`` points into it (``units import`` writes the user catalog there)."""
    root = tmp_path_factory.mktemp("fuzz")
    (root / "tiny.toml").write_text('name = "tiny"\nmodel = "attack"\ntrials = 200\n'
                                    '[fixed]\nattack = "punch"\ntons = 50\n'
                                    '[grid]\npiloting = [4, 5]\n', "utf-8")
    os.mkfifo(root / "pipe")
    (root / "plain").write_text("x", "utf-8")
    (root / "mtf").mkdir()
    if MTF.is_file():
        (root / "mtf" / MTF.name).write_bytes(MTF.read_bytes())
    old_cwd, old_home = os.getcwd(), os.environ.get("BTSIM_HOME")
    os.chdir(root)
    os.environ["BTSIM_HOME"] = str(root / "home")
    try:
        assert _call(["run", "tiny.toml", "--out", "out", "--quiet"])[0] == 0
        yield root
    finally:
        os.chdir(old_cwd)
        if old_home is None:
            os.environ.pop("BTSIM_HOME", None)
        else:
            os.environ["BTSIM_HOME"] = old_home


def _call(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse usage errors and --help
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def _tree(root: Path) -> dict[str, float]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in root.rglob("*")
            if not p.is_fifo()}


@functools.cache
def _full_parser() -> argparse.ArgumentParser:
    return build_parser()


def _subparser(argv: list[str]) -> argparse.ArgumentParser:
    """The (sub)parser ``argv`` ends in (``units show`` -> the ``show`` parser)."""
    parser = _full_parser()
    for word in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if subs and word in subs[0].choices:
            parser = subs[0].choices[word]
    return parser


def _targets(cmd: list[str]) -> list[argparse.Action]:
    """Every option of the command ``cmd`` that takes a value, and its positionals."""
    return [a for a in _subparser(cmd)._actions
            if a.dest not in SKIP and not isinstance(a, argparse._SubParsersAction)
            and a.nargs != 0 and a.dest != "command"]


def _mutate(command: str, action: argparse.Action, value: str) -> list[str]:
    cmd, pos, opts = (list(x) for x in BASES[command])
    if not action.option_strings:
        positionals = [a for a in _targets(cmd) if not a.option_strings]
        pos[positionals.index(action)] = value
        return [*cmd, *pos, *opts]
    hits = [i for i, w in enumerate(opts) if w in action.option_strings]
    if hits:
        opts[hits[0] + 1] = value
    else:
        flag = next(o for o in action.option_strings if o.startswith("-"))
        opts += [f"{flag}={value}"] if value.startswith("-") else [flag, value]
    return [*cmd, *pos, *opts]


def _names(action: argparse.Action) -> list[str]:
    names = [o for o in action.option_strings if o.startswith("--")]
    names += [action.dest, action.dest.replace("_", "-")]
    if not action.option_strings:
        names += [str(action.metavar or action.dest)]
    return names


def _check(argv: list[str], action: argparse.Action, root: Path) -> int:
    before = _tree(root)
    code, _, err = _call(argv)
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in err, (argv, err)
        if action.dest not in FREE:
            assert any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w])", lines[0], re.I)
                       for n in _names(action)), (argv, lines[0])
        assert _tree(root) == before, (argv, "wrote files on a refused command")
    return code


@pytest.mark.parametrize("command", sorted(BASES))
def test_bases_are_valid(command: str, sandbox: Path) -> None:
    """Each base command line runs (so a mutated one fails because of the mutation)."""
    if command in ("report", "bench"):
        pytest.skip("the base is refused on purpose: a valid report or benchmark is slow")
    if command == "merge":
        pytest.skip("the base is refused on purpose: a sharded run to merge takes seconds")
    if command == "units-import" and not MTF.is_file():
        pytest.skip(f"no shared .mtf file at {MTF}")
    code, _, err = _call(_argv(command))
    assert code == 0, err


@pytest.mark.parametrize("command", sorted(BASES))
@SETTINGS
@given(data=st.data())
def test_every_option_of_every_command(command: str, sandbox: Path, data: st.DataObject
                                       ) -> None:
    action = data.draw(st.sampled_from(_targets(BASES[command][0])), label="option")
    value = data.draw(st.sampled_from(HOSTILE), label="value")
    value = value.replace(FIFO, str(sandbox / "pipe")).replace(FILE, str(sandbox / "plain"))
    _check(_mutate(command, action, value), action, sandbox)


def test_every_command_is_fuzzed() -> None:
    """The fuzz covers every registered subcommand."""
    parser = _full_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == {b[0][0] for b in BASES.values()}
