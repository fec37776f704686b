#!/usr/bin/env bash
# Times a whole tree: 10,000 real small Markdown files (2-8 KB, 100 folders, cut from the
# Node.js docs) converted by `outline-render tree -o out` at -j 1 and -j 2, against one
# cmark process per file (`xargs -P2 -n1 cmark`) and pandoc on a 500-file subset (scaled
# to 10,000), plus a second run with nothing to do, and peak memory for 1,000 and 10,000
# files. Usage: Benchmarks/many-files.sh [runs]     (needs hyperfine, cmark, pandoc)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
source Benchmarks/common.sh
data=Benchmarks/data
[ -d $data/tree ] || python3 Benchmarks/make-tree.py $data/tree 10000 100
[ -d $data/tree-1k ] || python3 Benchmarks/make-tree.py $data/tree-1k 1000 10
[ -d $data/tree-500 ] || python3 Benchmarks/make-tree.py $data/tree-500 500 5
echo "Input: $(find $data/tree -name '*.md' | wc -l) files in $(find $data/tree -mindepth 1 -type d | wc -l) folders, $(du -sm $data/tree | cut -f1) MB"

out=$data/results
mkdir -p "$out"
# cmark writes to /dev/null; to compare conversion with conversion, our outputs go to a
# RAM-backed folder (tmpfs) when there is one. One more run writes to this disk.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then target=/dev/shm/outline-render-bench; else target=$data; fi
mkdir -p $target
echo "Outputs: $target"
rm -rf $target/out-warm && $tool $data/tree -o $target/out-warm -q
hyperfine --runs "$runs" --export-json "$out/tree.json" \
  --prepare "rm -rf $target/out" -n "outline-render -j 1" "$tool $data/tree -o $target/out -j 1 -q" \
  --prepare "rm -rf $target/out" -n "outline-render -j 2" "$tool $data/tree -o $target/out -j 2 -q" \
  --prepare "true" -n "outline-render -j 2, nothing changed" "$tool $data/tree -o $target/out-warm -j 2 -q" \
  --prepare "rm -rf $data/out-disk" -n "outline-render -j 2, outputs on disk" "$tool $data/tree -o $data/out-disk -j 2 -q" \
  --prepare "true" -n "xargs -P2 cmark" "find $data/tree -name '*.md' -print0 | xargs -0 -P2 -n1 cmark > /dev/null" >/dev/null
hyperfine --runs 1 --export-json "$out/pandoc-tree.json" \
  -n "xargs -P2 pandoc (500 files)" "find $data/tree-500 -name '*.md' -print0 | xargs -0 -P2 -n1 pandoc -f commonmark -t html > /dev/null" >/dev/null

peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
rm -rf $target/out-1k $target/out-10k
echo "1000 $(peak $tool $data/tree-1k -o $target/out-1k -q)" > "$out/tree-memory.txt"
echo "10000 $(peak $tool $data/tree -o $target/out-10k -q)" >> "$out/tree-memory.txt"
rm -rf $target

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
r = {x["command"]: x["median"] for x in json.load(open(f"{out}/tree.json"))["results"]}
pandoc = json.load(open(f"{out}/pandoc-tree.json"))["results"][0]["median"] * 20
mem = dict(line.split() for line in open(f"{out}/tree-memory.txt"))
one, two, warm, cmark = r["outline-render -j 1"], r["outline-render -j 2"], r["outline-render -j 2, nothing changed"], r["xargs -P2 cmark"]
disk = r["outline-render -j 2, outputs on disk"]
print("\n| command (10,000 files) | median time | vs outline-render -j 2 |")
print("|---|---|---|")
for name, t in [("outline-render -j 1", one), ("outline-render -j 2", two), ("outline-render -j 2, nothing changed", warm),
                ("outline-render -j 2, outputs on disk", disk),
                ("xargs -P2 -n1 cmark", cmark), ("xargs -P2 -n1 pandoc (500 files × 20)", pandoc)]:
    print(f"| {name} | {t:.2f} s | {t / two:.2f}× |")
print(f"\n{cmark / two:.1f}× faster than one cmark per file (target ≥ 3×); -j 2 is {one / two:.2f}× -j 1 (target ≥ 1.7×); "
      f"a run with nothing to do is {two / warm:.1f}× faster than the first (target ≥ 5×); {pandoc / two:.0f}× faster than pandoc.")
print(f"Peak memory: {int(mem['1000']) / 1024:.0f} MB for 1,000 files, {int(mem['10000']) / 1024:.0f} MB for 10,000 files.")
PY
