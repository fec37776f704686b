#!/usr/bin/env bash
# Reads and writes the outline formats of SPEC §3.4 / §5.4 on one ~11 MB outline, side by
# side with the floor for the same bytes: `xmllint --noout` (libxml2 building the tree) for
# OPML, and Python's json.load for JSON. Prints CPU time (user + sys, median of RUNS with
# the spread), peak memory and the ratio to the floor; the target for each read + --to json
# is 3× xmllint --noout on the OPML.
# Usage: Benchmarks/formats.sh [runs]       (needs xmllint: apt-get install libxml2-utils)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
for needed in xmllint python3; do
  command -v "$needed" >/dev/null || { echo "error: $needed is needed"; exit 1; }
done
swift build -c release >/dev/null
tool=$PWD/.build/release/outline-render
data=Benchmarks/data/formats
mkdir -p "$data"
source Benchmarks/measure.sh

# An outline shaped like a real outliner document: 5 levels, titles of a few words, a
# note on about half the nodes (a sentence or a short paragraph, some with a link).
if [ ! -s "$data/outline.opml" ]; then
  python3 - "$data/outline.opml" <<'PY'
import random, sys
from xml.sax.saxutils import quoteattr
rng = random.Random(7)
words = "plan trip book ticket pack passport call hotel review budget draft chapter outline note idea meeting agenda follow up release notes design test deploy fix bug write docs".split()
out = ['<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n<head><title>Benchmark outline</title></head>\n<body>\n']
size = 0
def node(depth):
    global size
    title = " ".join(rng.choice(words) for _ in range(rng.randint(2, 6))).capitalize()
    attrs = f"text={quoteattr(title)}"
    if rng.random() < 0.5:
        note = " ".join(rng.choice(words) for _ in range(rng.randint(8, 60))).capitalize() + "."
        if rng.random() < 0.2:
            note += " See [the docs](https://example.org/" + rng.choice(words) + ")."
        attrs += f" _note={quoteattr(note)}"
    if rng.random() < 0.1:
        attrs += ' created="2026-11-30T10:00:00Z"'
    children = rng.randint(0, 5) if depth < 5 else 0
    line = "  " * depth + "<outline " + attrs + ("/>\n" if not children else ">\n")
    out.append(line); size += len(line)
    for _ in range(children):
        node(depth + 1)
    if children:
        out.append("  " * depth + "</outline>\n")
while size < 11_000_000:
    node(1)
out.append("</body>\n</opml>\n")
open(sys.argv[1], "w").write("".join(out))
PY
fi
[ -s "$data/outline.json" ] || "$tool" "$data/outline.opml" -o "$data/outline.json"
opml=$data/outline.opml
json=$data/outline.json
echo "Inputs: $opml ($(( $(stat -c %s "$opml") / 1000000 )) MB, $(grep -c '<outline' "$opml") nodes), $json ($(( $(stat -c %s "$json") / 1000000 )) MB)"
echo "Machine: $(nproc) cores; xmllint $(xmllint --version 2>&1 | head -1 | awk '{print $NF}'), Python $(python3 -V | awk '{print $2}'); $runs runs each"

read -r floor flo fhi fkb _ <<<"$(measure xmllint --noout "$opml")"
read -r pyjson plo phi pkb _ <<<"$(measure python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$json")"
printf '\n| work | CPU s (spread) | peak MB | vs xmllint --noout on the OPML |\n|---|---|---|---|\n'
printf '| xmllint --noout (OPML) | %s (%s–%s) | %d | 1.00× |\n' "$floor" "$flo" "$fhi" "$((fkb / 1024))"
printf '| python3 json.load (JSON) | %s (%s–%s) | %d | %s× |\n' "$pyjson" "$plo" "$phi" "$((pkb / 1024))" "$(awk -v a="$pyjson" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')"
row() {  # row LABEL COMMAND...
  local label=$1; shift
  read -r cpu lo hi kb code <<<"$(measure "$@")"
  [ "$code" = 0 ] || { echo "error: $label failed"; exit 1; }
  printf '| %s | %s (%s–%s) | %d | %s× |\n' "$label" "$cpu" "$lo" "$hi" "$((kb / 1024))" "$(awk -v a="$cpu" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')"
}
row "outline-render OPML → json" "$tool" "$opml" --to json
row "outline-render JSON → json" "$tool" "$json" --to json
row "outline-render JSON → opml" "$tool" "$json" --to opml
row "outline-render JSON → markdown" "$tool" "$json" --to markdown
row "outline-render JSON → plist" "$tool" "$json" --to plist
row "outline-render JSON → xml" "$tool" "$json" --to xml
echo
echo "Target: each read + --to json within 3× xmllint --noout's CPU time."
