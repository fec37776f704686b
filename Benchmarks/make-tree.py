"""Cuts real Markdown (the Node.js API references and changelogs Debian installs) into a
tree of small documents: 2-8 KB each, split at heading boundaries, spread over folders.
Usage: python3 Benchmarks/make-tree.py OUTPUT_DIR COUNT FOLDERS"""
import glob
import gzip
import os
import random
import sys

out, count, folders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# NodeSource's nodejs installs them as .md, Debian's nodejs-doc as .md.gz.
sources = sorted(p for p in glob.glob("/usr/share/doc/nodejs/api/*.md*") + glob.glob("/usr/share/doc/nodejs/changelogs/*.md*")
                 if p.endswith((".md", ".md.gz")))
if not sources:
    sys.exit("error: no Node.js docs under /usr/share/doc/nodejs")

# Sections: runs of lines starting at a heading (outside code fences).
sections, current, fenced = [], [], False
for path in sources:
    for line in (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        if line.startswith("#") and not fenced and current:
            sections.append("".join(current))
            current = []
        current.append(line)
    if current:
        sections.append("".join(current))
        current, fenced = [], False

rng = random.Random(42)
written, index = 0, 0
while written < count:
    target = rng.randint(2048, 8192)
    chunk = ""
    while len(chunk.encode()) < target:
        section = sections[index % len(sections)]
        index += 1
        chunk += section if len((chunk + section).encode()) <= 8192 else section[: 8192 - len(chunk.encode())].rsplit("\n", 1)[0] + "\n"
    folder = os.path.join(out, f"part{written % folders:03d}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"doc{written:05d}.md"), "w", encoding="utf-8") as f:
        f.write(chunk)
    written += 1
