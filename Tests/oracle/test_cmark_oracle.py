"""Markdown bodies render exactly as cmark renders them, on the examples and on large real
documents that Debian packages install (written by no one here)."""
import glob
import html
import gzip
import pathlib
import tempfile
import os
import re
import subprocess

import pytest

from conftest import CMARK, CMARK_GFM, EXAMPLES, GOLDEN, without_heading_ids, cmark, cmark_section_bodies, expected_depths, fragment_bodies, github_visible, preorder, run, to_json, top_level_headings

def real_documents():
    """Large real Markdown files on the machine: Node.js API references and changelogs,
    and whatever else under /usr/share/doc is big enough. NodeSource's nodejs package
    installs them as .md, Debian's nodejs-doc as .md.gz (decompressed once into a cache)."""
    found = sorted(set(
        glob.glob("/usr/share/doc/nodejs/api/*.md*")
        + glob.glob("/usr/share/doc/nodejs/changelogs/*.md*")
        + glob.glob("/usr/share/doc/*/*.md*")
        + glob.glob("/usr/share/doc/*/*/*.md*")
    ))
    cache = pathlib.Path(tempfile.gettempdir()) / "outline-render-real-documents"
    documents = []
    for path in found:
        if path.endswith(".md.gz"):
            text = gzip.decompress(pathlib.Path(path).read_bytes())
            if len(text) < 20_000:
                continue
            copy = cache / os.path.relpath(path, "/usr/share/doc")[: -len(".gz")]
            if not copy.exists() or copy.read_bytes() != text:
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_bytes(text)
            documents.append(str(copy))
        elif path.endswith(".md") and os.path.getsize(path) >= 20_000:
            documents.append(path)
    return documents[:60]


REAL = real_documents()
BLOCK_MARKUP = re.compile(r'class="outline-(callout|block|tab)\b')


def test_enough_real_documents_are_installed():
    # The machine image ships Node.js with its docs (5+ MB; Debian's nodejs-doc has no
    # changelogs: 3.5 MB); without them this suite proves little.
    assert len(REAL) >= 10, f"only {len(REAL)} real Markdown documents found"
    assert sum(os.path.getsize(p) for p in REAL) > 3_000_000


_KEY = re.compile(r"[^\s#:\-?,\[\]{}&*!|>'\"%@`][^:]*:(\s|$)")


def blank_front_matter(markdown):
    """The document as cmark should see it: a top `---` block that is a YAML mapping (see
    docs/formats.md; real docs carry Jekyll's) is metadata, so its lines become blank lines."""
    lines = markdown.split("\n")
    if len(lines) < 3 or lines[0].rstrip() != "---" or not lines[1].strip():
        return markdown
    for end in range(1, len(lines)):
        if lines[end].rstrip() in ("---", "..."):
            block = lines[1:end]
            keys = [l for l in block if _KEY.match(l)]
            rest_ok = all(_KEY.match(l) or not l.strip() or l.startswith(("#", " ", "\t", "-")) for l in block)
            if keys and rest_ok:
                return "\n" * (end + 1) + "\n".join(lines[end + 1:])
            return markdown
    return markdown


@pytest.mark.quick
@pytest.mark.parametrize("name", ["products.md", "people.md"])
def test_example_bodies_equal_cmark_of_each_slice(name):
    path = EXAMPLES / name
    outline = to_json(path)
    bodies = fragment_bodies(run(path, "--fragment").stdout)
    nodes = [n for _, n in preorder(outline["sections"])]
    assert [i for i, _ in bodies[1:]] == [n["id"] for n in nodes]
    preamble = bodies[0][1].split("\n", 1)[1] if outline.get("title") else bodies[0][1]
    assert preamble == cmark(outline["body"])
    for (node_id, html), node in zip(bodies[1:], nodes):
        assert html == cmark(node["body"]), node_id


def test_golden_html_bodies_equal_cmark():
    import json
    outline = json.loads((GOLDEN / "products.json").read_text())
    bodies = fragment_bodies((GOLDEN / "products.fragment.html").read_text())
    for (node_id, html), (_, node) in zip(bodies[1:], preorder(outline["sections"])):
        assert node_id == node["id"]
        assert html == cmark(node["body"])


@pytest.mark.parametrize("flavor", ["commonmark", "markdown"], ids=["cmark", "cmark-gfm"])
@pytest.mark.parametrize("path", REAL, ids=[p.split("/doc/")[-1].split("real-documents/")[-1] for p in REAL])
def test_real_document_nodes_are_cmarks_headings_and_bodies_lose_nothing(path, flavor):
    """Strict CommonMark against `cmark`, GitHub's flavour (the default) against `cmark-gfm`."""
    oracle = CMARK if flavor == "commonmark" else CMARK_GFM
    markdown = blank_front_matter(open(path, encoding="utf-8").read().replace("\r\n", "\n"))
    if flavor == "markdown" and "<details" in markdown.lower():
        # A <details> pair holds the headings between its tags (as on GitHub), so its
        # sections are not cmark-gfm's headings by design (test_blocks_browser.py and
        # CollapsibleBlockTests check those); the strict CommonMark run covers the rest.
        pytest.skip("<details> blocks hold headings")
    blocks = top_level_headings(markdown, oracle)
    headings = [(i, b) for i, b in enumerate(blocks) if b[1] is not None]

    outline = to_json(path, "--from", flavor)
    nodes = list(preorder(outline["sections"]))
    assert len(nodes) == len(headings)
    assert [d for d, _ in nodes] == expected_depths([b[1] for _, b in headings])
    for (_, node), (_, (_, _, text)) in zip(nodes, headings):
        # A trailing {…} is pandoc attribute syntax, stripped from titles by design.
        assert node["title"] == text or re.fullmatch(re.escape(node["title"]) + r"\s*\{[^}]*\}", text) or (not text and node["title"] == "Untitled")

    pieces = cmark_section_bodies(markdown, blocks, oracle)
    assert len(pieces) == len(headings) + 1

    ours = fragment_bodies(run(path, "--fragment", "--from", flavor).stdout)
    if ours[0][1].startswith('<h1 class="outline-page-title">'):
        ours[0] = (None, ours[0][1].partition("\n")[2])  # a front-matter title is the page's <h1>
    assert len(ours) == len(pieces)
    assert [i for i, _ in ours[1:]] == [n["id"] for _, n in nodes]
    # A body with a block of ours (a GitHub alert such as Node's `> \[!TIP]`, an mkdocs block,
    # <details>) is not cmark-gfm's by design (tests/test_blocks.py checks those); the rest must be.
    # Raw HTML, in GitHub's flavour, is what GitHub's sanitizer keeps: a body that holds some
    # is compared with cmark-gfm's unsafe HTML as ammonia keeps it (`github_visible`).
    unsafe = cmark_section_bodies(markdown, blocks, [*CMARK_GFM, "--unsafe"]) if flavor == "markdown" else pieces
    set_aside = 0
    for (node_id, html), piece, raw in zip(ours, pieces, unsafe):
        if flavor == "markdown" and BLOCK_MARKUP.search(html):
            set_aside += 1
            continue
        if flavor == "markdown" and "<!-- raw HTML omitted -->" in piece:
            assert github_visible(without_heading_ids(html)) == github_visible(raw), node_id
            continue
        assert without_heading_ids(html) == piece, node_id
    assert set_aside <= max(2, len(pieces) // 20)


_OUR_TITLE = re.compile(
    r'<summary><span class="outline-title outline-level-\d+">(.*?)</span><a class="outline-permalink"'
    r'|^<(h\d|div role="heading" aria-level="\d+") id="[^"]+" class="outline-leaf">(.*)</(?:h\d|div)>$',
    re.M,
)
_ANCHOR = re.compile(r'<span id="[^"]*"></span>')


@pytest.mark.parametrize("flavor", ["commonmark", "markdown"], ids=["cmark", "cmark-gfm"])
@pytest.mark.parametrize("path", REAL, ids=[p.split("/doc/")[-1].split("real-documents/")[-1] for p in REAL])
def test_real_document_titles_show_what_cmark_makes_of_their_headings(path, flavor):
    """A section's title shows its heading's markup (code, emphasis, links, images) exactly as
    cmark (or cmark-gfm) renders that heading; a title without markup is its text."""
    oracle = CMARK if flavor == "commonmark" else CMARK_GFM
    markdown = blank_front_matter(open(path, encoding="utf-8").read().replace("\r\n", "\n"))
    if flavor == "markdown" and "<details" in markdown.lower():
        pytest.skip("<details> blocks hold headings")
    starts = {start for start, level, _ in top_level_headings(markdown, oracle) if level is not None}
    theirs = [
        inner
        for start, inner in re.findall(r'<h\d data-sourcepos="(\d+):[^"]*">(.*?)</h\d>', cmark(markdown, [*oracle, "--sourcepos"]), re.S)
        if int(start) in starts
    ]
    ours = [m[1] if m[1] is not None else m[3] for m in _OUR_TITLE.finditer(run(path, "--fragment", "--from", flavor).stdout)]
    assert len(ours) == len(theirs)
    compared = 0
    for our, their in zip(ours, theirs):
        # Set aside by design: pandoc attributes and markmap comments (markers, not content),
        # raw HTML (kept by GitHub's rules here, omitted by cmark), footnote references.
        if their.rstrip().endswith("}") or "<!--" in their or "[^" in their or "footnote" in their:
            continue
        assert html.unescape(_ANCHOR.sub("", our)) == html.unescape(" ".join(their.split("\n"))), their
        compared += 1
    assert compared >= len(ours) * 0.9


# cmark ends an HTML block of kinds 2 to 5 that closes on its own first line (a comment, a
# processing instruction, a declaration, CDATA) on the line before it: as a body's last block
# it was taken for a body without raw HTML, and what it holds after its closing was lost.
@pytest.mark.parametrize(
    "block",
    [
        "<!-- note --> kept text",
        '<!-- badges --><img src="logo.png" alt="Logo">',
        "<?php echo 1; ?> after the instruction",
        "<!DOCTYPE html> after the declaration",
        "<![CDATA[ data ]]> after the data",
    ],
    ids=["comment", "comment-image", "instruction", "declaration", "cdata"],
)
@pytest.mark.parametrize("before", ["Intro.\n\n", "# Title\n\nIntro.\n\n", "> Quote.\n\n"], ids=["paragraph", "section", "quote"])
@pytest.mark.parametrize("after", ["", "\n## Next\n\nMore.\n"], ids=["end", "before-heading"])
def test_a_last_html_block_closed_on_its_first_line_keeps_what_github_keeps(tmp_path, block, before, after):
    markdown = before + block + "\n" + after
    page = tmp_path / "page.md"
    page.write_text(markdown)
    ours = run(page, "--fragment").stdout
    theirs = cmark(markdown, [*CMARK_GFM, "--unsafe"])
    # (Sections' titles aside, ours in summaries, cmark-gfm's in headings: the bodies' text
    # and images are compared.)
    ours = re.sub(r"<summary>.*?</summary>|<h\d[^>]*>.*?</h\d>", "", ours)
    theirs = re.sub(r"<h\d>.*?</h\d>", "", theirs)
    assert "raw HTML omitted" not in ours
    (our_text, our_tags), (their_text, their_tags) = github_visible(ours), github_visible(theirs)
    assert our_text == their_text
    assert {t for t in our_tags if t[0] == "img"} == {t for t in their_tags if t[0] == "img"}
