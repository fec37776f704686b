#!/usr/bin/env bash
# The speed table of the README, in one run: every input format side by side with its floor
# on the same bytes, and the batch figures.
#
#   Markdown (22 MB of the Node.js docs, with their tables) → html fragment / text / json
#                                                    floors: cmark, and cmark-gfm with GitHub's extensions
#   the same without its table lines → html fragment                      floor: cmark
#   XML section file, plist, OPML (~11 MB each) → json                   floor: xmllint --noout
#   JSON outline (~11 MB) → json                                         floor: python3 json.load
#   10,000 small Markdown files: -j 2 against -j 1 and against xargs -P2 cmark (tmpfs), -j 2
#   against -j 1 on this disk, and a rerun with nothing changed against the first run.
#
# Each row alternates ours and the floor RUNS times (so both see the same machine) and
# prints CPU time (user + sys: the median, then min–max), peak memory, the ratio of the
# medians and the ratio's own spread (of the per-pair ratios). Batches compare wall time:
# parallelism is what they measure.
#
# Usage: Benchmarks/speed.sh [RUNS]              (default 5)
#        Benchmarks/speed.sh --record [RUNS]     the same, and docs/performance.md's table
#                                                 section becomes this run and the one before
#        Benchmarks/speed.sh --callgrind         instruction counts for the Markdown rows
#                                                 (a 2 MB slice), steadier than CPU time
# Needs cmark, xmllint, python3 (and valgrind for --callgrind): scripts/setup installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=time
if [ "${1:-}" = "--callgrind" ]; then mode=callgrind; shift; fi
if [ "${1:-}" = "--record" ]; then
  # The report goes to Benchmarks/data/runs/ too; docs/performance.md shows the last two.
  shift
  mkdir -p Benchmarks/data/runs
  report=Benchmarks/data/runs/$(date -u +%Y%m%dT%H%M%SZ).md
  "$0" "$@" | tee "$report.partial"
  mv "$report.partial" "$report"
  exec python3 Benchmarks/record-speed.py docs/performance.md Benchmarks/data/runs
fi
runs=${1:-5}
for needed in cmark cmark-gfm xmllint python3; do
  command -v "$needed" >/dev/null || { echo "error: $needed is needed (scripts/setup installs it)"; exit 1; }
done
swift build -c release >/dev/null
tool=$PWD/.build/release/outline-render
data=Benchmarks/data
mkdir -p "$data/formats"

# Inputs, made once and kept in Benchmarks/data (not committed).
source Benchmarks/make-large.sh
outline() {  # outline FORMAT OPML_SIZE: an ~11 MB input of FORMAT from a generated outline
  local file=$data/formats/speed.$1
  if [ ! -s "$file" ]; then
    python3 Benchmarks/make-outline.py "$data/formats/speed-$1.opml" "$2"
    "$tool" "$data/formats/speed-$1.opml" --to "$1" -o "$file"
    rm "$data/formats/speed-$1.opml"
  fi
  echo "$file"
}
# The benchmark document less every line with a pipe: a document with no tables.
plain=$data/large-no-tables.md
[ -s "$plain" ] || grep -v '|' "$doc" >"$plain"
gfm=(cmark-gfm -e table -e strikethrough -e autolink -e tasklist -e footnotes)
xml=$(outline xml 8600000)
plist=$(outline plist 4500000)
opml=$(outline opml 11000000)
json=$(outline json 5000000)

megabytes() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }

if [ "$mode" = callgrind ]; then
  command -v valgrind >/dev/null || { echo "error: valgrind is needed (apt-get install valgrind)"; exit 1; }
  slice=$data/slice.md
  head -c 2000000 "$doc" >"$slice"
  instructions() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ { print $NF }'; }
  echo "Instruction counts (callgrind) on $slice ($(megabytes "$slice") MB), $(date -u +%F), $(nproc) cores"
  echo
  echo "| work | ours | cmark | ratio |"
  echo "|---|---|---|---|"
  floor=$(instructions cmark "$slice")
  for to in "html --fragment" text json; do
    ours=$(instructions "$tool" "$slice" --to $to)
    printf '| Markdown → %s | %s | %s | %s× |\n' "$to" "$ours" "$floor" "$(awk -v a="$ours" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')"
  done
  exit 0
fi

trap 'rm -rf "$out" /dev/shm/outline-render-speed' EXIT
source Benchmarks/pairs.sh

echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB; $(date -u '+%F %H:%M UTC'); $runs runs per row, alternating"
echo "Floors: cmark $(cmark --version | head -1 | awk '{ print $2 }'), cmark-gfm $(cmark-gfm --version | head -1 | awk '{ print $2 }'), xmllint $(xmllint --version 2>&1 | head -1 | awk '{ print $NF }'), Python $(python3 -V | awk '{ print $2 }')"
echo "Inputs: Markdown $(megabytes "$doc") MB; XML $(megabytes "$xml") MB; plist $(megabytes "$plist") MB; OPML $(megabytes "$opml") MB; JSON $(megabytes "$json") MB"
echo
echo "| work | ours (CPU s, median, min–max) | floor | floor (CPU s) | ratio (spread) | ours MB | floor MB | target | met |"
echo "|---|---|---|---|---|---|---|---|---|"
# Peak memory against the floor's own peak, from the pair just run (the largest of its runs).
memory_rows=()
peak_ratio() {  # peak_ratio LABEL FLOOR TARGET
  memory_rows+=("$(awk -v ours="$last_ours_kb" -v floor="$last_floor_kb" -v l="$1" -v f="$2" -v t="$3" -v limit="${3#≤ }" 'BEGIN {
    r = ours / floor; printf "| %s | %.1f | %s | %.1f | %.2f× | %s | %s |", l, ours * 1024 / 1e6, f, floor * 1024 / 1e6, r, t, (r <= limit + 0 ? "yes" : "no") }')")
}
pair "Markdown → html fragment" "≤ 1.2" 1 "cmark-gfm -e table…" -- "${gfm[@]}" "$doc" -- "$tool" "$doc" --to html --fragment
# (Against cmark, which makes no tables of the document's tables: for the record only.)
pair "Markdown → html fragment" "" 1 cmark -- cmark "$doc" -- "$tool" "$doc" --to html --fragment
peak_ratio "Markdown → html fragment" cmark "≤ 1.3"
pair "Markdown, no tables → html fragment" "≤ 1.2" 1 cmark -- cmark "$plain" -- "$tool" "$plain" --to html --fragment
pair "Markdown → text" "≤ 1.2" 1 cmark -- cmark "$doc" -- "$tool" "$doc" --to text
peak_ratio "Markdown → text" cmark "≤ 1.3"
pair "Markdown → json" "≤ 1.2" 1 cmark -- cmark "$doc" -- "$tool" "$doc" --to json
peak_ratio "Markdown → json" cmark "≤ 1.3"
pair "XML section file → json" "≤ 3" 1 "xmllint --noout" -- xmllint --noout "$xml" -- "$tool" "$xml" --to json
peak_ratio "XML section file → json" "xmllint --noout" "≤ 1"
pair "plist → json" "≤ 3" 1 "xmllint --noout" -- xmllint --noout "$plist" -- "$tool" "$plist" --to json
peak_ratio "plist → json" "xmllint --noout" "≤ 1"
pair "OPML → json" "≤ 3" 1 "xmllint --noout" -- xmllint --noout "$opml" -- "$tool" "$opml" --to json
peak_ratio "OPML → json" "xmllint --noout" "≤ 1"
pair "JSON → json" "" 1 "python3 json.load" -- python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$json" -- "$tool" "$json" --to json

# Batches: 10,000 real small Markdown files. Wall time; outputs on tmpfs unless said.
[ -d $data/tree ] || python3 Benchmarks/make-tree.py $data/tree 10000 100
shm=/dev/shm/outline-render-speed
mkdir -p $shm
batch() { echo "$tool $data/tree -o $1 -q -j $2"; }
prepare="rm -rf $shm/out" pair "10,000 files, -j 2, tmpfs (wall s)" "≤ 0.333" 2 "xargs -P2 cmark" \
  -- bash -c "find $data/tree -name '*.md' -print0 | xargs -0 -n1 -P2 cmark >/dev/null" -- $(batch $shm/out 2)
prepare="rm -rf $shm/out" pair "10,000 files, -j 2 vs -j 1, tmpfs (wall s)" "≤ 0.625" 2 "-j 1" \
  -- $(batch $shm/out 1) -- $(batch $shm/out 2)
prepare="rm -rf $data/out-disk" pair "10,000 files, -j 2 vs -j 1, disk (wall s)" "≤ 1" 2 "-j 1" \
  -- $(batch $data/out-disk 1) -- $(batch $data/out-disk 2)
rm -rf $shm/warm && $tool $data/tree -o $shm/warm -q
prepare="rm -rf $shm/out" pair "10,000 files, nothing changed vs first run (wall s)" "≤ 0.2" 2 "first run" \
  -- $(batch $shm/out 2) -- $(batch $shm/warm 2)
rm -rf "$data/out-disk"
echo
echo "Peak memory (the largest of the runs above, in MB of 10^6 bytes) against the floor's own peak:"
echo
echo "| work | ours MB | floor | floor MB | ours ÷ floor | target | met |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${memory_rows[@]}"
echo
echo "A ratio is ours ÷ floor (lower is better): the target ≤ 0.333 is 3× faster than the floor, ≤ 0.625 is 1.6× faster."
