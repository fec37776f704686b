#!/usr/bin/env bash
# A Logseq graph as a site (links, block references, journals resolved) against a Markdown
# site of the same pages and size (each block a heading, each link a Markdown link to the
# same page): CPU time per run, ours both sides (target: the graph within 1.5× of the
# Markdown site); the same without the links, for the record; and the graph of 10× the
# pages against 1× (resolving links is linear in links: target at most 11×).
# Builds run on tmpfs (/dev/shm). Usage: Benchmarks/graph.sh [RUNS] [PAGES]  (3, 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
pages=${2:-2000}
swift build -c release >/dev/null
tool=$PWD/.build/release/outline-render
shm=/dev/shm/outline-render-graph
rm -rf "$shm" && mkdir -p "$shm"
trap 'rm -rf "$out" "$shm"' EXIT
source Benchmarks/pairs.sh
python3 Benchmarks/make-graph.py "$shm/small" "$pages"
python3 Benchmarks/make-graph.py "$shm/large" "$((pages * 10))"
echo "Machine: $(nproc) cores; $(date -u '+%F %H:%M UTC'); $runs runs per row, alternating; $pages pages"
echo "Graph: $(du -sh "$shm/small/graph" | cut -f1), Markdown: $(du -sh "$shm/small/markdown" | cut -f1)"
echo
echo "| work | ours (s, median, min–max) | floor | floor (s) | ratio (spread) | ours MB | floor MB | target | met |"
echo "|---|---|---|---|---|---|---|---|---|"
prepare='rm -rf "$shm/out-a" "$shm/out-b"'
pair "graph of $pages pages vs the same as Markdown" "≤ 1.5" 1 "Markdown site" -- \
  "$tool" --no-cache -q "$shm/small/markdown" -o "$shm/out-a" -- "$tool" --no-cache -q "$shm/small/graph" -o "$shm/out-b"
pair "the same, Markdown without the links" "" 1 "Markdown site" -- \
  "$tool" --no-cache -q "$shm/small/markdown-plain" -o "$shm/out-a" -- "$tool" --no-cache -q "$shm/small/graph" -o "$shm/out-b"
pair "graph of $((pages * 10)) pages vs $pages" "≤ 11" 1 "$pages pages" -- \
  "$tool" --no-cache -q "$shm/small/graph" -o "$shm/out-a" -- "$tool" --no-cache -q "$shm/large/graph" -o "$shm/out-b"
