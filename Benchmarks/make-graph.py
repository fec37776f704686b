"""Writes a generated Logseq graph of PAGES pages into FOLDER/graph (pages/, journals/,
logseq/config.edn), and the same pages as Markdown (each block a heading, its lines its
body) into FOLDER/markdown, for Benchmarks/graph.sh: each page about 40 blocks nested up
to four deep, with [[links]] to other pages (a tenth to pages that do not exist), block
references and ids, folded blocks, code and properties. In FOLDER/markdown each link is a
Markdown link to the same page (a block reference to the page holding the block);
FOLDER/markdown-plain has the links' text only. Deterministic (seeded).
Usage: python3 Benchmarks/make-graph.py FOLDER PAGES"""
import pathlib
import random
import re
import sys
import uuid

folder, count = pathlib.Path(sys.argv[1]), int(sys.argv[2])
rng = random.Random(7)
words = "outline block graph page note link fold open garden journal query tag alias".split()
names = [f"Topic {i} {rng.choice(words)}" for i in range(count)]
ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(count * 4)]
graph, markdown, plain = folder / "graph", folder / "markdown", folder / "markdown-plain"
for sub in ("pages", "journals", "logseq"):
    (graph / sub).mkdir(parents=True, exist_ok=True)
markdown.mkdir(parents=True, exist_ok=True)
plain.mkdir(parents=True, exist_ok=True)


def file_name(index):
    name = names[index]
    return f"2024_{index // 28 % 12 + 1:02d}_{index % 28 + 1:02d}.md" if index % 10 == 0 else name.replace("/", "___") + ".md"


files = {name.lower(): file_name(index) for index, name in enumerate(names)}
# The page each block id belongs to (page i holds ids 4i to 4i + 3).
page_of_id = {block_id: position // 4 % count for position, block_id in enumerate(ids)}


def markdown_links(title):
    """A title's wiki links and block references as Markdown links (all pages are in one folder there)."""
    title = re.sub(r"\[\[([^\]]+)\]\]", lambda m: f"[{m[1]}](<{files.get(m[1].lower(), m[1] + '.md')}>)", title)
    return re.sub(r"\(\(([0-9a-f-]{36})\)\)", lambda m: f"[block](<{file_name(page_of_id[m[1]])}>)", title)
(graph / "logseq" / "config.edn").write_text('{:preferred-format "Markdown"}\n')


def sentence():
    parts = [rng.choice(words) for _ in range(rng.randint(6, 14))]
    kind = rng.random()
    if kind < 0.3:
        parts.insert(rng.randrange(len(parts)), f"[[{rng.choice(names)}]]")
    elif kind < 0.34:
        parts.insert(rng.randrange(len(parts)), f"[[Missing {rng.randrange(50)}]]")
    elif kind < 0.4:
        parts.insert(rng.randrange(len(parts)), f"(({rng.choice(ids)}))")
    return " ".join(parts).capitalize()


for index, name in enumerate(names):
    lines = [f"type:: [[{rng.choice(words)}]]", ""]
    heads = []
    linked = []
    depth = 0
    for block in range(40):
        depth = max(0, min(depth + rng.choice([-1, 0, 1]), 3))
        title = sentence()
        lines.append("\t" * depth + "- " + title)
        heads.append("#" * (depth + 1) + " " + title.replace("[[", "").replace("]]", ""))
        linked.append("#" * (depth + 1) + " " + markdown_links(title))
        pad = "\t" * depth + "  "
        if block % 10 == 3:
            lines.append(pad + "collapsed:: true")
        if block % 5 == 0:
            lines.append(pad + f"id:: {ids[(index * 4 + block // 10) % len(ids)]}")
        if block % 7 == 0:
            body = [sentence(), "```python", f"print({block})", "```"]
            lines += [pad + line for line in body]
            heads += ["", *body, ""]
            linked += ["", *map(markdown_links, body), ""]
    target = graph / ("journals" if index % 10 == 0 else "pages")
    file = file_name(index)
    (target / file).write_text("\n".join(lines) + "\n")
    (markdown / file).write_text("\n".join(linked) + "\n")
    (plain / file).write_text("\n".join(heads) + "\n")
