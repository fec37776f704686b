#!/usr/bin/env bash
# Sweeps each pathological input shape at 1x, 2x and 4x its base size and prints, side by
# side with cmark (Markdown) or xmllint --noout (XML) on the same bytes: CPU time (user +
# sys, median of RUNS with the spread), peak memory, and the growth factor of our CPU time
# from 1x to 4x divided by 4 (1.0 = linear; a quadratic path shows ~4).
# Usage: Benchmarks/pathological.sh [runs]        (needs cmark and xmllint: apt-get install cmark libxml2-utils)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
for needed in cmark xmllint python3; do
  command -v "$needed" >/dev/null || { echo "error: $needed is needed"; exit 1; }
done
swift build -c release >/dev/null
tool=$PWD/.build/release/outline-render
data=Benchmarks/data/pathological
mkdir -p "$data"

python3 - "$data" <<'PY'
import sys
out = sys.argv[1]
shapes = {  # name: (extension, function of a scale factor k, base k)
    "quotes-nested":     ("md", lambda k: ">" * k, 1_000_000),
    "brackets":          ("md", lambda k: "[" * k, 1_000_000),
    "emphasis-a*":       ("md", lambda k: "a*" * k, 500_000),
    "angle-brackets":    ("md", lambda k: "<" * k, 1_000_000),
    "images-links":      ("md", lambda k: "![[]()" * k, 20_000),
    "heading-attributes":("md", lambda k: "# x {" + "- " * k + "}\n", 80_000),
    "headings-distinct": ("md", lambda k: "".join(f"# Heading number {i}\n" for i in range(k)), 250_000),
    "headings-identical":("md", lambda k: "# a\n" * k, 250_000),
    "link-references":   ("md", lambda k: "".join(f"[r{i}]: /u{i}\n" for i in range(k)) + "".join(f"[r{i}] " for i in range(k)), 100_000),
    "xml-long-line":     ("xml", lambda k: "<outline>\n" + "<!-- x -->\n" * 65_533 + "<section title=\"l\">" + "<item title=\"i\">t</item>" * k + "</section>\n" + "".join(f"<section title=\"s{i}\"><item title=\"x\">y</item></section>\n" for i in range(k // 5)) + "</outline>\n", 50_000),
    "xml-deep-flat":     ("xml", lambda k: "<outline>" + "<section title=\"a\">" * 200 + "<item title=\"i\">t</item>" * k + "</section>" * 200 + "</outline>", 100_000),
}
for name, (ext, make, base) in shapes.items():
    for factor in (1, 2, 4):
        with open(f"{out}/{name}-{factor}x.{ext}", "w") as f:
            f.write(make(base * factor))
PY

source Benchmarks/measure.sh

printf '| shape | size | ours CPU s (spread) | floor CPU s | ours MB | floor MB | ours | growth 1x→4x ÷ 4 |\n|---|---|---|---|---|---|---|---|\n'
for first in "$data"/*-1x.*; do
  name=$(basename "$first"); name=${name%-1x.*}; ext=${first##*.}
  base=""
  for factor in 1 2 4; do
    file="$data/$name-${factor}x.$ext"
    # The floor gets 30 s: cmark is quadratic on some shapes (">30" in the table).
    if [ "$ext" = md ]; then floor=(timeout 30 cmark "$file"); else floor=(timeout 30 xmllint --noout "$file"); fi
    read -r cpu lo hi kb code <<<"$(measure "$tool" --to json "$file")"
    read -r fcpu _ _ fkb fcode <<<"$(measure "${floor[@]}")"
    [ "$fcode" = 124 ] && fcpu=">30"
    outcome=$([ "$code" = 0 ] && echo converted || echo refused)
    [ -z "$base" ] && base=$cpu
    growth=$([ "$factor" = 4 ] && awk -v a="$base" -v b="$cpu" 'BEGIN { printf "%.2f", (a > 0.02 ? b / a / 4 : 0) }' || echo "")
    printf '| %s | %s (%s KB) | %s (%s–%s) | %s | %d | %d | %s | %s |\n' "$name" "${factor}x" "$(( $(stat -c %s "$file") / 1000 ))" \
      "$cpu" "$lo" "$hi" "$fcpu" "$((kb / 1024))" "$((fkb / 1024))" "$outcome" "$growth"
  done
done
echo
echo "growth: 1.00 means linear; a refused shape stays near 0 s at every size (0 = too fast to tell)."
