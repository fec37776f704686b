#!/usr/bin/env bash
# A folder as a docs site (navigation and search included), side by side with mkdocs:
#
#   a real docs tree → site: pymdown-extensions' docs (from its PyPI source archive: the
#   mkdocs-style docs of a Python tool, admonitions, tabs and details throughout), ours
#   against `mkdocs build` on the same tree with the default theme and its search (CPU
#   time; target: at least 50× faster, a ratio ≤ 0.02)
#   10,000 generated pages against 1,000 (Benchmarks/make-tree.py): build time and output
#   bytes (target: at most 11× for 10× the pages)
#   a rerun with nothing changed against the first run, 10,000 pages (target ≤ 0.2)
#   the site search on the 10,000-page site in headless Chromium: milliseconds from the
#   query to the results drawn, as the page's script measures it (reported, no target)
#
# Builds run on tmpfs (/dev/shm). Usage: Benchmarks/site.sh [RUNS]   (default 3)
# Needs python3 and .venv with mkdocs, pymdown-extensions and selenium (scripts/setup
# makes .venv; this script adds mkdocs to it), chromium and chromium-driver.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
swift build -c release >/dev/null
tool=$PWD/.build/release/outline-render
data=$PWD/Benchmarks/data/site
shm=/dev/shm/outline-render-site
mkdir -p "$data" "$shm"
[ -x .venv/bin/mkdocs ] || .venv/bin/pip install -q mkdocs pymdown-extensions
mkdocs=$PWD/.venv/bin/mkdocs
trap 'rm -rf "$out" "$shm"' EXIT
source Benchmarks/pairs.sh

# The real trees: the docs folders of two source archives, each with a plain mkdocs.yml
# (the default theme with its search, and the extensions the pages are written for).
tree() {  # tree NAME: prints the folder holding NAME's docs/ and mkdocs.yml
  local folder=$data/$1
  if [ ! -d "$folder/docs" ]; then
    rm -rf "$folder" && mkdir -p "$folder"
    .venv/bin/pip download -q --no-deps --no-binary :all: -d "$data/archives" "$1" >/dev/null
    tar xzf "$(ls "$data"/archives/"${1//-/_}"-*.tar.gz "$data"/archives/"$1"-*.tar.gz 2>/dev/null | head -1)" -C "$folder" --strip-components 1
    rm -f "$folder/mkdocs.yml" "$folder/mkdocs.yaml"
    local source=$(find "$folder" -maxdepth 3 -type d -name docs | head -1)
    [ "$source" = "$folder/docs" ] || mv "$source" "$folder/docs"
    printf 'site_name: %s\nmarkdown_extensions: [admonition, tables, toc, pymdownx.details, pymdownx.superfences, pymdownx.tabbed]\n' "$1" >"$folder/mkdocs.yml"
  fi
  echo "$folder"
}
pages() { find "$1" -name '*.md' | wc -l; }

echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB; $(date -u '+%F %H:%M UTC'); $runs runs per row, alternating"
echo "Floor: mkdocs $("$mkdocs" --version | awk '{ print $3 }') (default theme and search)"
echo
echo "| work | ours (s, median, min–max) | floor | floor (s) | ratio (spread) | ours MB | floor MB | target | met |"
echo "|---|---|---|---|---|---|---|---|---|"
for name in pymdown-extensions; do
  folder=$(tree "$name")
  prepare="rm -rf $shm/ours $shm/mkdocs" pair "$name docs, $(pages "$folder/docs") pages → site (CPU s)" "≤ 0.02" 1 "mkdocs build" \
    -- "$mkdocs" build -q -f "$folder/mkdocs.yml" -d "$shm/mkdocs" -- "$tool" "$folder/docs" -o "$shm/ours" -q --no-cache
done

# Generated trees: 1,000 and 10,000 pages of real Markdown in folders of 100.
for count in 1000 10000; do
  [ -d "$data/tree$count" ] || python3 Benchmarks/make-tree.py "$data/tree$count" "$count" $((count / 100)) >/dev/null
done
build() { echo "$tool $data/tree$1 -o $shm/site$1 -q --no-cache"; }
prepare="rm -rf $shm/site1000 $shm/site10000" pair "10,000 pages vs 1,000 → site (CPU s)" "≤ 11" 1 "1,000 pages" \
  -- $(build 1000) -- $(build 10000)
bytes() { rm -rf "$shm/bytes" && $(build "$1" | sed "s|$shm/site$1|$shm/bytes|") && du -sb "$shm/bytes" | awk '{ print $1 }'; }
small=$(bytes 1000) large=$(bytes 10000)
printf '| 10,000 pages vs 1,000: output bytes | %s | 1,000 pages | %s | %s× | — | — | ≤ 11 | %s |\n' "$large" "$small" \
  "$(awk -v a="$large" -v b="$small" 'BEGIN { printf "%.2f", a / b }')" "$(awk -v a="$large" -v b="$small" 'BEGIN { print (a / b <= 11 ? "yes" : "no") }')"
rerun="$tool $data/tree10000 -o $shm/rerun -q --cache-dir $shm/cache"
rm -rf "$shm/rerun" "$shm/cache" && $rerun
prepare="rm -rf $shm/first $shm/first-cache" pair "10,000 pages, nothing changed vs first run (wall s)" "≤ 0.2" 2 "first run" \
  -- "$tool" "$data/tree10000" -o "$shm/first" -q --cache-dir "$shm/first-cache" -- $rerun
echo
.venv/bin/python Benchmarks/search-latency.py "$shm/site10000"
