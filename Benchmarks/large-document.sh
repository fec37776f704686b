#!/usr/bin/env bash
# Times `outline-render --to html` against cmark and pandoc on one large real Markdown
# document (>= 20 MB, concatenated from the Node.js API references and changelogs that
# Debian's nodejs package installs), and prints the ratios and peak memory.
# Usage: Benchmarks/large-document.sh [runs]      (needs hyperfine, cmark, pandoc)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
source Benchmarks/common.sh

source Benchmarks/make-large.sh
size=$(stat -c %s "$doc")
echo "Input: $doc, $((size / 1000000)) MB, $(grep -c '' "$doc") lines, from $(ls /usr/share/doc/nodejs/changelogs/*.md* /usr/share/doc/nodejs/api/*.md* 2>/dev/null | grep -cE '\.md(\.gz)?$') real documents"
echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; cmark $(cmark --version | head -1 | awk '{print $2}'), pandoc $(pandoc --version | head -1 | awk '{print $2}')"

out=Benchmarks/data/results
mkdir -p "$out"
hyperfine --warmup 1 --runs "$runs" --export-json "$out/fast.json" \
  -n cmark "cmark $doc" \
  -n outline-render "$tool --to html $doc" >/dev/null
# pandoc takes minutes on this file: one run.
hyperfine --runs 1 --export-json "$out/pandoc.json" -n pandoc "pandoc -f commonmark -t html $doc" >/dev/null

peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
echo "cmark $(peak cmark "$doc")" > "$out/memory.txt"
echo "outline-render $(peak "$tool" --to html "$doc")" >> "$out/memory.txt"
echo "pandoc $(peak pandoc -f commonmark -t html "$doc")" >> "$out/memory.txt"

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
results = {r["command"]: r for f in ("fast.json", "pandoc.json") for r in json.load(open(f"{out}/{f}"))["results"]}
memory = dict(line.split() for line in open(f"{out}/memory.txt"))
base = results["cmark"]["median"]
ours = results["outline-render"]["median"]
print(f"\n| tool | median time | vs cmark | peak memory | vs cmark |")
print(f"|---|---|---|---|---|")
for name in ("cmark", "outline-render", "pandoc"):
    r = results[name]
    mem = int(memory[name]) / 1024
    print(f"| {name} | {r['median']:.2f} s | {r['median'] / base:.2f}× | {mem:,.0f} MB | {int(memory[name]) / int(memory['cmark']):.2f}× |")
print(f"\noutline-render: {ours / base:.2f}× cmark's time (target ≤ 1.5×), "
      f"{results['pandoc']['median'] / ours:.0f}× faster than pandoc (target ≥ 50×), "
      f"{int(memory['outline-render']) / int(memory['cmark']):.2f}× cmark's memory (target ≤ 1.5×)")
PY
