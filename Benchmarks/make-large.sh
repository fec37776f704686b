#!/usr/bin/env bash
# Writes Benchmarks/data/large.md (once): at least 20 MB of real Markdown, the Node.js API
# references and changelogs that Debian's nodejs (or nodejs-doc) installs, concatenated.
# Sourced by the benchmark scripts from the project root; sets $doc.
doc=Benchmarks/data/large.md
mkdir -p Benchmarks/data
if [ ! -s "$doc" ]; then
  # NodeSource's nodejs installs these as .md, Debian's nodejs-doc as .md.gz. (Installing
  # nodejs-doc removes NodeSource's nodejs: use it only where Node comes from Debian.)
  sources=$(ls -S /usr/share/doc/nodejs/changelogs/*.md* /usr/share/doc/nodejs/api/*.md* 2>/dev/null | grep -E '\.md(\.gz)?$' || true)
  [ -n "$sources" ] || { echo "error: no Node.js docs under /usr/share/doc/nodejs (apt-get install nodejs-doc)"; exit 1; }
  : >"$doc"
  while [ "$(stat -c %s "$doc")" -lt 20000000 ]; do zcat -f $sources >>"$doc"; done
fi
