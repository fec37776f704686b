#!/usr/bin/env bash
# Projects as their authors keep them, side by side with their own tool (CPU time):
#
#   mkdocs-material's own docs (Tests/real/mkdocs-material: mkdocs.yml, 96 pages, the
#   auto_append snippet) → site; ours given the project folder as it is, against
#   `mkdocs build` with mkdocs-material (target: at least 50× faster, a ratio ≤ 0.02).
#   mkdocs gets a copy with what the copy lacks left out: the plugins and hooks (the blog,
#   social cards and the rest need the project's own Python code and caches), the theme's
#   overrides (`custom_dir`), and the `template:` lines of the three pages that name an
#   override; ours reads the same pages and snippets.
#   a rerun after one page's edit against the first build (both ours; wall time): the
#   record skips what did not change (reported, no target)
#
# Builds run on tmpfs (/dev/shm). Usage: Benchmarks/project.sh [RUNS]   (default 3)
# Needs .venv with mkdocs and mkdocs-material (scripts/setup).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
swift build -c release >/dev/null
tool=$PWD/.build/release/outline-render
shm=/dev/shm/outline-render-project
mkdocs=$PWD/.venv/bin/mkdocs
rm -rf "$shm" && mkdir -p "$shm"
trap 'rm -rf "$out" "$shm"' EXIT
source Benchmarks/pairs.sh

cp -r Tests/real/mkdocs-material "$shm/material"
cp -r Tests/real/mkdocs-material "$shm/material-mkdocs"
.venv/bin/python - "$shm/material-mkdocs" <<'PY'
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
kept, skipping = [], False
for line in (root / "mkdocs.yml").read_text().splitlines(keepends=True):
    if re.match(r"(plugins|hooks):", line):
        skipping = True
        continue
    if skipping and (line[:1] in (" ", "\t") or not line.strip()):
        continue
    skipping = False
    if not re.match(r"\s+custom_dir:", line):
        kept.append(line)
(root / "mkdocs.yml").write_text("".join(kept))
for page in (root / "docs").rglob("*.md"):
    text = page.read_text()
    if re.search(r"^template:", text, re.M):
        page.write_text(re.sub(r"^template:.*\n", "", text, flags=re.M))
PY

echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB; $(date -u '+%F %H:%M UTC'); $runs runs per row, alternating"
echo "Floor: mkdocs $("$mkdocs" --version | awk '{ print $3 }'), mkdocs-material $(.venv/bin/python -c "import material; print(material.__version__)")"
echo
echo "| work | ours (s, median, min–max) | floor | floor (s) | ratio (spread) | ours MB | floor MB | target | met |"
echo "|---|---|---|---|---|---|---|---|---|"
export NO_MKDOCS_2_WARNING=1
prepare="rm -rf $shm/ours $shm/mkdocs" pair "mkdocs-material's docs as a project, 96 pages → site (CPU s)" "≤ 0.02" 1 "mkdocs build (material)" \
  -- "$mkdocs" build -q -f "$shm/material-mkdocs/mkdocs.yml" -d "$shm/mkdocs" -- "$tool" "$shm/material" -o "$shm/ours" -q --no-cache
rm -rf "$shm/rerun" "$shm/cache" && "$tool" "$shm/material" -o "$shm/rerun" -q --cache-dir "$shm/cache"
page=$shm/material/docs/setup/setting-up-navigation.md
edit="rm -rf $shm/first $shm/first-cache; echo >> $page"
prepare="$edit" pair "one page edited, rerun vs first build (wall s)" "" 2 "first build" \
  -- "$tool" "$shm/material" -o "$shm/first" -q --cache-dir "$shm/first-cache" -- "$tool" "$shm/material" -o "$shm/rerun" -q --cache-dir "$shm/cache"
