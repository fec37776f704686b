"""Writes an OPML outline shaped like a real outliner document, of about SIZE bytes: 5
levels, titles of a few words, a note on about half the nodes (a sentence or a short
paragraph, some with a link). Deterministic (seeded).
Usage: python3 Benchmarks/make-outline.py OUTPUT.opml SIZE"""
import random
import sys
from xml.sax.saxutils import quoteattr

path, target = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
words = ("plan trip book ticket pack passport call hotel review budget draft chapter outline note idea meeting "
         "agenda follow up release notes design test deploy fix bug write docs").split()
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
    out.append(line)
    size += len(line)
    for _ in range(children):
        node(depth + 1)
    if children:
        out.append("  " * depth + "</outline>\n")


while size < target:
    node(1)
out.append("</body>\n</opml>\n")
with open(path, "w") as f:
    f.write("".join(out))
