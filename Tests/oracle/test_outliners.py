"""Outliners' Markdown (docs/formats.md) and graphs and vaults as sites (docs/sites.md), on
Logseq's own documentation graph (Tests/real/logseq-docs, MIT) and on small graphs and
vaults written here: every page built, folded blocks closed as in the app, no property or
[[link]] syntax left as text, every link resolved, lossless round trips, hostile names."""
import html
import json
import pathlib
import re
import shutil
import urllib.parse

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT, run
from test_browser import browser  # noqa: F401 (the shared fixture)
from test_docs_site import Page, tool

GRAPH = ROOT / "Tests" / "real" / "logseq-docs"
SOURCES = sorted((GRAPH / "pages").glob("*.md")) + sorted((GRAPH / "journals").glob("*.md"))


@pytest.fixture(scope="module")
def graph_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("graph")
    shutil.copytree(GRAPH, root / "graph")
    result = tool(root, "graph", "-o", "site")
    return root / "site", result


def without_code(text):
    return re.sub(r"<(code|pre)\b.*?</\1>", "", text, flags=re.S)


CALLOUTS = {"note", "tip", "important", "caution", "warning", "pinned", "quote", "center"}
TAG = re.compile(r"""(?:^|(?<=[ \t]))#(?:\[\[([^\[\]]+)\]\]|([^\s#\[\](){},.;:!?"'`*+][^\s#\[\](){},.;:!?"'`*]*))""")


def tags_of_the_graph():
    """Each tag (`#tag`, `#[[tag]]`, `tags::`) and the pages carrying it, and the names the
    graph's pages have (file name, `title::`, `alias::`), read here apart from the tool:
    outside code (fences, code spans, Logseq's `#+BEGIN_QUERY` blocks) and link labels."""
    names, tags = set(), {}
    for source in SOURCES:
        text = source.read_text()
        names.add(source.stem.replace("___", "/").lower())
        for key, value in re.findall(r"^(title|alias):: (.+)$", text, flags=re.M):
            names.update(re.sub(r"\[\[|\]\]", "", name).strip().lower() for name in value.split(","))
        fenced, org = False, None
        for line in text.split("\n"):
            content = re.sub(r"^\s*(- )?", "", line)
            if content.startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            if org:
                org = None if content.lower().startswith("#+end_" + org) else org
                continue
            begin = re.match(r"#\+begin_(\w+)", content, flags=re.I)
            if begin and begin.group(1).lower() not in CALLOUTS:
                org = begin.group(1).lower()
                continue
            found = []
            if re.match(r"^tags:: ", content):
                found += [re.sub(r"\[\[|\]\]", "", t).strip().lstrip("#") for t in content[7:].split(",")]
            else:
                plain = re.sub(r"(`+).*?\1", "", content)
                plain = re.sub(r"\[[^\[\]]*\]\(", "(", plain)  # (a link's label is no tag's place)
                found += [a or b for a, b in TAG.findall(plain)]
            for tag in found:
                if tag:
                    tags.setdefault(tag.lower(), (tag, set()))[1].add(source)
    return names, tags


def tag_page_file(name):
    """Where Logseq writes the page `name` (its `:file/name-format :triple-lowbar`)."""
    return "".join("%%%02X" % ord(c) if c in '%\\:*?"<>|#' else c for c in name.replace("/", "___"))


def test_every_page_of_logseqs_graph_is_built(graph_site):
    site, result = graph_site
    assert result.returncode == 0, result.stderr
    built = sorted(p.relative_to(site).with_suffix(".md") for p in site.glob("*/*.html") if p.parent.name != "outline-site")
    names, tags = tags_of_the_graph()
    tag_pages = [f"pages/{tag_page_file(tag)}.md" for key, (tag, _) in tags.items() if key not in names]
    assert len(tag_pages) > 5
    assert built == sorted([p.relative_to(GRAPH) for p in SOURCES] + [pathlib.Path(p) for p in tag_pages])
    # Only links to pages that do not exist are warned about, one warning per page.
    for line in result.stderr.splitlines():
        # (The graph's images are not bundled.)
        assert "warning:" not in line or "exist, shown as text" in line or re.search(r"no file '(\.\./)?assets/", line), line


def properties(outline):
    """Every (key, value) the reader took as a property, of the page and of its items."""
    found = list(outline.get("attributes", {}).items())
    stack = list(outline["sections"])
    while stack:
        node = stack.pop()
        found += [(k, v) for k, v in node.get("attributes", {}).items() if k != "outline-title"]
        found += [("collapsed", "true")] if node["collapsed"] else []
        stack += node["children"]
    return found


def test_no_property_or_link_syntax_is_left_as_text(graph_site):
    site, _ = graph_site
    taken = 0
    for source in SOURCES:
        page = (site / source.relative_to(GRAPH)).with_suffix(".html")
        # (Each section's title is also in a heading hidden for screen readers.)
        shown = re.sub(r'<h\d class="outline-heading">.*?</h\d>', "", without_code(page.read_text()))
        text = html.unescape(re.sub(r"<[^>]+>", "", shown))
        taken_here = [f"{key}:: {value}" for key, value in properties(json.loads(run(source, "--to", "json").stdout))]
        for line in set(taken_here):
            # (The same words may be in the page's text too, as the docs show properties.)
            written = source.read_text().count(line)
            assert text.count(line) <= max(0, written - taken_here.count(line)), (page.name, line)
        taken += len(taken_here)
        text = without_code(page.read_text())
        assert not re.search(r"\[\[[^\[\]\n]+\]\]", text), page
        assert not re.search(r"\(\([0-9a-f-]{36}\)\)", text), page
    assert taken > 500


def collapsed_items(source):
    """The items of a Logseq page that hold `collapsed:: true` and have something to fold
    (children or body lines: unlike Logseq, which folds children only, a folded item's
    content folds too, as a section's body does in every format): read here line by line,
    apart from the reader under test."""
    lines = source.split("\n")
    found = 0
    for index, line in enumerate(lines):
        match = re.match(r"^(\s*)- ?(.*)", line)
        if not match:
            continue
        indent = len(match.group(1).expandtabs(4))
        properties, rest = [], []
        if re.match(r"^[\w-]+:: ", match.group(2)):  # an item that starts with its properties
            properties.append(match.group(2).strip())
        for following in lines[index + 1:]:
            item = re.match(r"^(\s*)- ", following)
            if following.strip() and len(re.match(r"^\s*", following).group(0).expandtabs(4)) <= indent:
                break
            if item:
                rest.append(following)
                break
            if re.match(r"^\s*[\w-]+:: ", following) and not rest:
                properties.append(following.strip())
            elif following.strip():
                rest.append(following)
        if "collapsed:: true" in properties and rest:
            found += 1
    return found


def test_folded_blocks_start_closed_as_in_logseq(graph_site):
    site, _ = graph_site
    total = 0
    for source in SOURCES:
        expected = collapsed_items(source.read_text())
        page = (site / source.relative_to(GRAPH)).with_suffix(".html").read_text()
        closed = len(re.findall(r'<details id="[^"]*">', page))
        assert closed == expected, source.name
        total += expected
    assert total > 50


def test_every_link_between_pages_lands_on_its_page_and_anchor(graph_site):
    site, _ = graph_site
    ids = {p: Page(p.read_text()).ids for p in site.glob("*/*.html")}
    checked = 0
    for page in ids:
        for link in Page(page.read_text()).links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or parts.netloc or not parts.path.endswith(".html") or "outline-site" in parts.path:
                continue
            target = (page.parent / urllib.parse.unquote(parts.path)).resolve()
            assert target in ids, (page.name, link)
            if parts.fragment:
                assert urllib.parse.unquote(parts.fragment) in ids[target], (page.name, link)
            checked += 1
    assert checked > 500


EMBED = re.compile(r"^\s*(?:- )?\{\{embed\s+(?:\[\[([^\[\]]+)\]\]|\(\(([0-9a-f-]{36})\)\))\s*\}\}\s*$")


def embeds_and_targets():
    """Each page's embeds standing as a line of their own outside code, and what they embed
    as Logseq finds it (a page by its file name or `title::`, a block by its `id::`), read
    here apart from the tool: the page's file, or the block's first line."""
    pages, blocks, embeds = {}, {}, {}
    for source in SOURCES:
        text = source.read_text()
        pages[source.stem.replace("___", "/").lower()] = source
        title = re.search(r"^title:: (.+)$", text, flags=re.M)
        if title:
            pages.setdefault(title.group(1).strip().lower(), source)
        last_item = ""
        for line in text.split("\n"):
            item = re.match(r"^\s*- (.*)", line)
            if item:
                last_item = item.group(1)
            block = re.match(r"^\s*(?:- )?id:: ([0-9a-f-]{36})\s*$", line)
            if block:
                blocks[block.group(1)] = last_item
    for source in SOURCES:
        # An item's title line, or a paragraph of its body made of embeds only (an embed on a
        # line of its own inside a paragraph of text is shown as its link: docs/sites.md).
        standing, paragraph, fenced = [], [], False
        for line in source.read_text().split("\n") + [""]:
            if line.strip().startswith("```"):
                fenced = not fenced
            if fenced or re.match(r"^\s*- ", line) or not line.strip() or re.match(r"^\s*[\w-]+:: ", line):
                if paragraph and all(EMBED.match(text) for text in paragraph):
                    standing += paragraph
                paragraph = []
                if not fenced and re.match(r"^\s*- ", line) and EMBED.match(line):
                    standing.append(line)
            else:
                paragraph.append(line)
        for line in standing:
            match = EMBED.match(line)
            if match.group(1) and match.group(1).strip().lower() in pages:
                embeds.setdefault(source, []).append(("page", pages[match.group(1).strip().lower()]))
            elif match.group(2) in blocks:
                embeds.setdefault(source, []).append(("block", blocks[match.group(2)]))
    return embeds


def test_embeds_show_the_page_or_block_they_name(graph_site):
    site, _ = graph_site
    embeds = embeds_and_targets()
    shown = 0
    for source, targets in embeds.items():
        page = (site / source.relative_to(GRAPH)).with_suffix(".html").read_text()
        assert page.count('<div class="outline-embed') >= len(targets), source.name
        after = html.unescape(re.sub(r"<[^>]+>", " ", without_code(page[page.index('<div class="outline-embed'):])))
        after = " ".join(after.split())
        for kind, target in targets:
            if kind == "block":
                # The block's first words, as text (its markup and code aside).
                text = re.sub(r"!\[[^\]]*\]\([^)]*\)|\{[^}]*\}|`[^`]*`", "", target)  # (images and attributes show no text)
                text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
                words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\[\[|\]\]|\(\([0-9a-f-]+\)\)|[*_#]", "", text))[:3]
                assert all(word in after for word in words), (source.name, target)
        shown += len(targets)
    assert shown >= 15


def test_a_tag_without_a_page_is_a_page_listing_what_carries_it(graph_site):
    site, _ = graph_site
    names, tags = tags_of_the_graph()
    checked = 0
    for key, (tag, carriers) in tags.items():
        if key in names:
            continue
        page = (site / "pages" / f"{tag_page_file(tag)}.html").read_text()
        assert f"<title>{html.escape(tag, quote=False)}" in page
        listed = set(re.findall(r'<li><a href="([^"]+)">', page.split("Linked references", 1)[1]))
        for carrier in carriers:
            href = urllib.parse.quote(str(carrier.relative_to(GRAPH / carrier.parent.name).with_suffix(".html")), safe="/!$&'()*+,;=:@~")
            href = href if carrier.parent.name == "pages" else "../journals/" + href
            assert href in listed, (tag, carrier.name, listed)
            checked += 1
    assert checked > 5


def test_journals_are_named_by_date_and_listed_newest_first(graph_site):
    site, _ = graph_site
    page = (site / "journals" / "2020_09_14.html").read_text()
    assert "<title>Sep 14th, 2020" in page
    listed = re.findall(r'href="(?:\.\./journals/|)(\d{4}_\d\d_\d\d)\.html"', page)
    assert listed and listed == sorted(listed, reverse=True)


@pytest.mark.parametrize("fmt", ["json", "outline", "opml", "plist", "markdown"])
def test_every_page_round_trips(tmp_path, fmt):
    for source in SOURCES:
        original = run(source, "--from", "outline", "--to", "json").stdout
        written = tmp_path / f"page.{ {'outline': 'md', 'markdown': 'md'}.get(fmt, fmt) }"
        written.write_text(run(source, "--from", "outline", "--to", fmt).stdout)
        assert run(written, "--from", fmt, "--to", "json").stdout == original, source.name


SMALL_GRAPH = {
    "logseq/config.edn": '{:journal/page-title-format "yyyy-MM-dd" :hidden ["drafts"]}\n',
    "pages/Target.md": (
        "alias:: Other name\n\n- Folded parent\n  collapsed:: true\n\t- The referenced block\n"
        "\t  id:: 64f0c1a2-0000-4000-8000-000000000001\n\t  Its body.\n- Visible\n"
    ),
    "pages/Source.md": (
        "- See ((64f0c1a2-0000-4000-8000-000000000001)) and [[target]], [[Other Name|the alias]].\n"
        "- A [label]([[Target]]) and {{embed [[Target]]}} and #Target and #[[Space Ship/Deck]]\n"
        "- Missing: [[Nowhere]] and [[javascript:alert(1)]] and [[../../etc/passwd]]\n"
        "- ![pic](../assets/pic.png)\n"
    ),
    "pages/Space Ship___Deck.md": "- Deck\n",
    "journals/2024_01_15.md": "- Older\n",
    "journals/2024_02_01.md": "- Newer, see [[2024-01-15]]\n",
    "drafts/secret.md": "- not a page\n",
    "assets/pic.png": "png",
}


@pytest.fixture(scope="module")
def small_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("small")
    for name, text in SMALL_GRAPH.items():
        (root / "g" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "g" / name).write_text(text)
    result = tool(root, "g", "-o", "site")
    return root / "site", result


def test_links_resolve_as_logseq_resolves_them(small_site):
    site, result = small_site
    assert result.returncode == 0, result.stderr
    source = (site / "pages" / "Source.html").read_text()
    block = '<a href="Target.html#64f0c1a2-0000-4000-8000-000000000001">The referenced block</a>'
    assert block in source
    assert '<a href="Target.html">target</a>' in source and '<a href="Target.html">the alias</a>' in source
    assert source.count('<a href="Target.html">') >= 5  # labelled, embed and #tag too
    assert '<a href="Space%20Ship___Deck.html">#Space Ship/Deck</a>' in source
    assert '<img src="../assets/pic.png"' in source and (site / "assets" / "pic.png").exists()
    # A page that does not exist is text, and one warning names them all.
    for name in ["Nowhere", "javascript:alert(1)", "../../etc/passwd"]:
        assert f'<span class="outline-missing-page">{html.escape(name, quote=False)}</span>' in source
    assert "javascript:" not in re.sub(r"<span[^>]*>[^<]*</span>", "", source)
    warnings = [line for line in result.stderr.splitlines() if "warning:" in line]
    assert len(warnings) == 1 and "3 pages that do not exist" in warnings[0] and "Source.md" in warnings[0]
    assert not (site / "drafts").exists()
    newer = (site / "journals" / "2024_02_01.html").read_text()
    assert "<title>2024-02-01" in newer and '<a href="2024_01_15.html">2024-01-15</a>' in newer


def test_a_block_reference_opens_its_folded_target(browser, small_site):  # noqa: F811
    site, _ = small_site
    browser.get((site / "pages" / "Source.html").as_uri())
    browser.find_element(By.LINK_TEXT, "The referenced block").click()
    target = browser.find_element(By.ID, "64f0c1a2-0000-4000-8000-000000000001")
    assert browser.execute_script("return arguments[0].closest('details[id]').open && arguments[0].checkVisibility()", target)
    assert browser.execute_script("return document.getElementById('folded-parent').open")


VAULT = {
    ".obsidian/app.json": "{}",
    "Home.md": (
        "# Home\n\nSee [[Guide#Install steps]], [[guide|the guide]] and [[Notes/Deep note]].\n\n"
        "![[diagram.png]]\n\n> [!faq]- Closed question\n> The answer.\n\n> [!tip]+ Open tip\n> Shown.\n"
    ),
    "Guide.md": "# Guide\n\n## Install steps\n\nRun it.\n",
    "Notes/Deep note.md": "- An outline\n\t- in a note\n",
    "attachments/diagram.png": "png",
}


def test_an_obsidian_vault_links_by_name_and_folds_its_callouts(tmp_path):
    for name, text in VAULT.items():
        (tmp_path / "v" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "v" / name).write_text(text)
    result = tool(tmp_path, "v", "-o", "site")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    home = (tmp_path / "site" / "Home.html").read_text()
    assert '<a href="Guide.html#install-steps">Guide › Install steps</a>' in home
    assert '<a href="Guide.html">the guide</a>' in home and '<a href="Notes/Deep%20note.html">Notes/Deep note</a>' in home
    assert '<img src="attachments/diagram.png" alt="diagram.png" />' in home
    assert (tmp_path / "site" / "attachments" / "diagram.png").exists()
    assert '<details class="outline-callout outline-callout-faq"><summary>' in home
    assert '<details class="outline-callout outline-callout-tip" open><summary>' in home
    assert 'id="install-steps"' in (tmp_path / "site" / "Guide.html").read_text()
    # A note that is a bullet outline is read as one.
    assert '<details id="an-outline" open>' in (tmp_path / "site" / "Notes" / "Deep note.html").read_text()


def test_hostile_outlines_are_refused_with_their_place_or_stay_text(tmp_path):
    deep = "\n".join("\t" * depth + "- x" for depth in range(300))
    (tmp_path / "deep.md").write_text(deep)
    result = run(tmp_path / "deep.md", "--from", "outline", check=False)
    assert result.returncode == 1 and re.search(r"deep\.md:\d+:\d+: error: .*deeper than 256", result.stderr)
    assert result.stdout == ""
    (tmp_path / "nul.md").write_bytes(b"- a\n\t- b\x00\n")
    result = run(tmp_path / "nul.md", check=False)
    assert result.returncode == 1 and "nul.md:2:" in result.stderr and "NUL" in result.stderr
    (tmp_path / "markup.md").write_text("- <img src=x onerror=alert(1)> [[<b>x</b>]]\n\t- [y](javascript:alert(1))\n")
    page = run(tmp_path / "markup.md", "--fragment").stdout
    # Raw HTML is what GitHub keeps of it: the image and the bold, without the handler.
    assert "onerror" not in page and "javascript:" not in page and '<img src="x">' in page
    assert json.loads(run(tmp_path / "markup.md", "--to", "json").stdout)["sections"][0]["children"][0]["title"] == "y"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_for_the_readme(browser, graph_site, scheme):  # noqa: F811
    """docs/graph-SCHEME.png, shown in the README, made by every run from Logseq's own
    docs graph: a page with its links, a folded block and its linked references."""
    site, _ = graph_site
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        browser.set_window_size(1300, 900)
        browser.get((site / "pages" / "Block Reference.html").as_uri())
        path = ROOT / "docs" / f"graph-{scheme}.png"
        assert browser.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
    finally:
        browser.set_window_size(1400, 900)
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_each_page_lists_the_pages_that_link_to_it(graph_site):
    site, _ = graph_site
    page = (site / "pages" / "Block Reference.html").read_text()
    listed = re.findall(r'<li><a href="([^"]+)">', page.split('class="outline-backlinks"')[1])
    assert "Glossary.html" in listed and len(listed) >= 2
    # Each listed page links here (by a name or an alias of this page).
    for href in listed:
        assert 'href="Block%20Reference.html' in (site / "pages" / urllib.parse.unquote(href)).read_text(), href
