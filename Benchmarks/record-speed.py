#!/usr/bin/env python3
"""Puts the two newest reports of `Benchmarks/speed.sh --record` into docs/performance.md,
between its markers, so that the published tables are the script's output, never pasted.

Usage: Benchmarks/record-speed.py DOC RUNS_FOLDER
"""
import pathlib
import sys

BEGIN, END = "<!-- speed.sh --record: begin -->", "<!-- speed.sh --record: end -->"


def main(doc, runs):
    reports = sorted(p for p in pathlib.Path(runs).glob("*.md") if p.read_text().strip())[-2:]
    if not reports:
        return
    text = pathlib.Path(doc).read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"error: {doc} has no {BEGIN} … {END} block")
    body = "\n\n".join("```\n" + p.read_text().strip() + "\n```" for p in reports)
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    pathlib.Path(doc).write_text(head + BEGIN + "\n" + body + "\n" + END + tail)


if __name__ == "__main__":
    main(*sys.argv[1:3])
