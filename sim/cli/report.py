"""``btsim report [RESULTS_DIR]``: rebuild the figures and the HTML/Markdown report from saved
results, without rerunning any experiment."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="rebuild figures and report.html / report.md from saved results",
        description="Read every results/<experiment>/ folder written by `btsim run` and write "
        "its figures (one compressed PNG each, 150 dpi) beside the data, then "
        "RESULTS_DIR/report.html (one self-contained page), RESULTS_DIR/report.md and "
        "RESULTS_DIR/explorer.html (the interactive explorer: one offline page, no network "
        "request). Nothing is rerun.",
        epilog="examples:\n  btsim report\n  btsim report /tmp/results --title 'Nightly run'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("results_dir", nargs="?", default="results", metavar="RESULTS_DIR",
                   help="folder holding the experiment results (default: results/)")
    p.add_argument("--title", default="btsim balance report", help="report title")
    p.add_argument("--quiet", action="store_true", help="print nothing on success")
    p.add_argument("--no-explorer", action="store_true",
                   help="write the report only, not explorer.html")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from sim.report import build_report

    if not args.quiet and sys.stderr.isatty():  # progress (make report): figures take a while
        print(f"btsim: report: building figures and the report from {args.results_dir}/ ...",
              file=sys.stderr, flush=True)
    report = build_report(args.results_dir, title=args.title,
                          explorer=not args.no_explorer)
    if not args.quiet:
        print(f"{report.html}: {len(report.sections)} sections, {len(report.figures)} "
              f"figures (PNG), {len(report.findings)} findings", file=sys.stdout)
        print(f"{report.markdown}", file=sys.stdout)
        if report.explorer is not None:
            size = report.explorer.stat().st_size / 1e6
            print(f"{report.explorer}: {size:.2f} MB", file=sys.stdout)
    return 0
