"""`boardgamesbot bench [--quick]`: measure and write docs/performance.md."""

from __future__ import annotations

import argparse

from bench import engine, report

NAME = "bench"
HELP = "Run the benchmarks, print the tables and write docs/performance.md."


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="short runs (under a minute), for smoke tests")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/performance.md alone")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    budget = 0.3 if args.quick else 3.0
    sections = [("Engine: random full games on one core", engine.table(engine.run(budget)))]
    for title, lines in sections:
        print(f"\n## {title}\n")
        print("\n".join(lines))
    if not args.no_write:
        path = report.write(sections, args.quick)
        print(f"\nwritten to {path}")
    return 0
