"""The OPML, JSON, binary and OpenStep readers and the markdown/xml/opml/plist writers,
each checked against an independent reader: xml.etree (OPML, XML), plistlib (plists),
cmark (Markdown) and the JSON Schema (JSON)."""
import html
import json
import plistlib
import random
import re
import subprocess
import xml.etree.ElementTree as ET

import jsonschema
import pytest
import yaml

from conftest import EXAMPLES, NS, OUTPUT_FORMATS, ROOT, body_normalized, preorder, run, title_normalized, to_json

FIXTURES = ROOT / "Tests" / "fixtures"
SCHEMA = json.loads((ROOT / "Schemas" / "outline.schema.json").read_text())


def shape(nodes):
    """What every format keeps of the nodes: titles, ids, state, bodies, attributes, nesting."""
    return [(n["title"], n["id"], n["collapsed"], n["body"], n.get("attributes", {}), shape(n["children"])) for n in nodes]


# ---- OPML, read: the oracle is xml.etree plus docs/formats.md's expansionState rule ----------

OMNIOUTLINER = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<opml version="2.0">
  <head>
    <title>Trip &amp; plans</title>
    <expansionState>0,2,5</expansionState>
    <ownerName>Ada</ownerName>
    <dateModified>Mon, 30 Nov 2026 10:00:00 GMT</dateModified>
  </head>
  <body>
    <outline text="Before &lt;b&gt;leaving&lt;/b&gt;" _note="Pack light.&#10;&#10;- passport&#10;- charger" created="2026-11-01">
      <outline text="Book &amp;amp; pay" type="task" _status="checked"/>
      <outline text="Tickets">
        <outline text="Train &#233;tape" _note="Seat 42"/>
      </outline>
    </outline>
    <outline text="On the way" type="link" url="https://example.org/map">
      <outline text="Stops" id="stops">
        <outline text="Lyon"/>
        <outline text="   "/>
      </outline>
    </outline>
  </body>
</opml>
"""

OPML_1 = """<?xml version="1.0"?>
<opml version="1.0">
  <head><title>Old</title></head>
  <body>
    <outline text="One" _note="first">
      <outline text="Two"/>
    </outline>
  </body>
</opml>
"""


SPEC_APP_HEAD = {"lastCursor", "vertScrollState", "urlUpdateSocket", "ownerTwitterScreenName",
                 "windowTop", "windowLeft", "windowBottom", "windowRight"}
OURS_IN_HEAD = ("title", "expansionState", "_note", "_expansionReading", "_expansionStateHidden")


def collapsible(element):
    return bool(element.get("_note", "").strip() or element.findall("outline"))


def omni_expanded(numbers, every):
    """OmniOutliner's reading: the n-th outline in document order, from 0. Returns the
    expanded elements (by id) and whether every entry landed on one that can collapse."""
    expanded, fits = set(), True
    for n in numbers:
        if n >= len(every):
            fits = False
            continue
        expanded.add(id(every[n]))
        fits = fits and collapsible(every[n])
    return expanded, fits


def spec_expanded(numbers, summits):
    """The OPML 2.0 spec's reading, simulated: line n (from 1) of the outline as shown so far
    is expanded, which shows its children right below it."""
    shown = list(summits)
    expanded, fits = set(), True
    for n in numbers:
        if not 1 <= n <= len(shown):
            fits = False
            continue
        element = shown[n - 1]
        fits = fits and collapsible(element)
        if id(element) not in expanded:
            expanded.add(id(element))
            shown[n:n] = element.findall("outline")
    return expanded, fits


def opml_oracle(text, forced=None):
    """The outline the OPML implies, read with xml.etree and the expansionState rule of the
    README applied here, independently of the tool's code."""
    root = ET.fromstring(text.encode())
    head, body = root.find("head"), root.find("body")
    every = list(body.iter("outline"))
    summits = body.findall("outline")
    expanded = None
    state = head.find("expansionState") if head is not None else None
    if state is not None:
        numbers = [int(i) for i in (state.text or "").split(",") if i.strip()]
        omni, omni_fits = omni_expanded(numbers, every)
        spec, spec_fits = spec_expanded(numbers, summits)
        stated = head.findtext("_expansionReading")
        if forced:
            reading = forced
        elif stated:
            reading = stated.strip()
        elif 0 in numbers:
            reading = "omni"
        elif any(e.tag in SPEC_APP_HEAD for e in head):
            reading = "spec"
        else:
            reading = "omni" if omni_fits and not spec_fits else "spec"
        expanded = omni if reading == "omni" else spec
        hidden = head.findtext("_expansionStateHidden")
        for i in [int(i) for i in (hidden or "").split(",") if i.strip()]:
            expanded.add(id(every[i]))

    def node(element):
        # (A feed reader's folder may have only a `title`.)
        text = element.get("text") if element.get("text") is not None else element.get("title")
        plain = html.unescape(re.sub(r"<[A-Za-z/!?][^>]*>", "", text))
        title = title_normalized(plain) or "Untitled"
        result = {"title": title, "body": body_normalized(element.get("_note", "")),
                  "attributes": {k: v for k, v in element.attrib.items() if k not in ("text", "_note", "id")}}
        result["children"] = [node(child) for child in element.findall("outline")]
        collapsible = bool(result["body"] or result["children"])
        result["collapsed"] = collapsible and expanded is not None and id(element) not in expanded
        if element.get("id"):
            result["id"] = element.get("id")
        return result

    nodes = [node(e) for e in summits]
    extra = {e.tag: e.text or "" for e in head if e.tag not in OURS_IN_HEAD} if head is not None else {}
    return (head.findtext("title") if head is not None else None), extra, nodes


def strip(nodes):
    out = []
    for n in nodes:
        out.append({k: n[k] for k in ("title", "body", "collapsed")} | {"attributes": n.get("attributes", {}), "children": strip(n["children"])})
    return out


@pytest.mark.quick
@pytest.mark.parametrize("name,text", [("omnioutliner.opml", OMNIOUTLINER), ("old.opml", OPML_1),
                                       ("products.opml", (EXAMPLES / "opml" / "products.opml").read_text())])
def test_opml_reads_as_xml_etree_and_the_expansion_rule_say(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    title, attributes, nodes = opml_oracle(text)
    got = to_json(path)
    assert got.get("title") == title
    assert got.get("attributes", {}) == attributes
    assert strip(got["sections"]) == strip(nodes)
    for (_, mine), (_, theirs) in zip(preorder(got["sections"]), preorder(nodes)):
        if "id" in theirs:
            assert mine["id"] == theirs["id"]


OPML_FIXTURES = sorted((FIXTURES / "opml").glob("*.opml"))


@pytest.mark.parametrize("path", OPML_FIXTURES, ids=lambda p: p.name)
def test_each_apps_opml_reads_as_the_oracle_and_its_app_say(path):
    title, attributes, nodes = opml_oracle(path.read_text(encoding="iso-8859-1" if "ISO-8859-1" in path.read_text(errors="replace")[:60] else "utf-8"))
    got = to_json(path)
    assert got.get("title") == title
    assert got.get("attributes", {}) == attributes
    assert strip(got["sections"]) == strip(nodes)


def pandoc_text(inlines):
    """Pandoc's inlines as plain text."""
    out = []
    for item in inlines:
        kind, content = item["t"], item.get("c")
        if kind == "Str":
            out.append(content)
        elif kind in ("Space", "SoftBreak", "LineBreak"):
            out.append(" ")
        elif kind in ("Emph", "Strong", "Strikeout", "Underline", "SmallCaps", "Superscript", "Subscript"):
            out.append(pandoc_text(content))
        elif kind in ("Link", "Span"):
            out.append(pandoc_text(content[1]))
        elif kind == "Code":
            out.append(content[1])
        elif kind == "Quoted":
            quote = '"' if content[0]["t"] == "DoubleQuote" else "'"
            out.append(quote + pandoc_text(content[1]) + quote)
    return "".join(out)


@pytest.mark.parametrize("path", OPML_FIXTURES, ids=lambda p: p.name)
def test_pandocs_opml_reader_agrees_on_titles_and_notes(path):
    """pandoc reads each outline as a heading and its note as Markdown below it."""
    document = json.loads(subprocess.run(["pandoc", "-f", "opml", "-t", "json", str(path)],
                                         capture_output=True, text=True, check=True).stdout)
    headings, notes = [], []
    for block in document["blocks"]:
        if block["t"] == "Header":
            headings.append((block["c"][0], pandoc_text(block["c"][2])))
            notes.append([])
        else:
            notes[-1].append(json.dumps(block, ensure_ascii=False))
    ours = list(preorder(to_json(path)["sections"]))
    # pandoc takes `text` only (a folder titled by `title` is an empty heading there) and
    # makes quotes typographic.
    assert [(depth, node["title"]) for depth, node in ours] == [
        (level, " ".join(text.replace("\u2019", "'").split()) or node.get("attributes", {}).get("title", ""))
        for (level, text), (_, node) in zip(headings, ours)]
    words = re.compile(r"\w+")
    for (_, node), blocks in zip(ours, notes):
        theirs = words.findall(" ".join(pandoc_text(json.loads(b)["c"]) for b in blocks if json.loads(b)["t"] in ("Para", "Plain")))
        assert words.findall(node["body"]) == theirs, node["title"]


def test_opml_without_expansion_state_leaves_collapse_to_the_options(tmp_path):
    path = tmp_path / "old.opml"
    path.write_text(OPML_1)
    assert [n["collapsed"] for _, n in preorder(to_json(path)["sections"])] == [False, False]
    assert [n["collapsed"] for _, n in preorder(to_json(path, "--collapse-depth", "1")["sections"])] == [True, False]


# ---- Plists: binary ones made by plistlib, OpenStep written by hand --------------------

def test_binary_and_openstep_fixtures_read_like_the_xml_plist():
    xml = to_json(EXAMPLES / "plist" / "products.plist")
    assert to_json(FIXTURES / "products-binary.plist") == xml
    assert to_json(FIXTURES / "products-openstep.plist") == xml


@pytest.mark.parametrize("seed", range(8))
def test_generated_binary_plists_read_like_their_xml_form(tmp_path, seed):
    from test_plistlib_oracle import section
    rng = random.Random(seed)
    root = {"title": f"T{seed}", "sections": [section(rng, rng.randint(0, 3)) for _ in range(rng.randint(1, 4))]}
    binary, xml = tmp_path / "b.plist", tmp_path / "x.plist"
    binary.write_bytes(plistlib.dumps(root, fmt=plistlib.FMT_BINARY))
    xml.write_bytes(plistlib.dumps(root, fmt=plistlib.FMT_XML))
    assert plistlib.loads(binary.read_bytes()) == root  # the oracle agrees the bytes mean this
    assert to_json(binary) == to_json(xml)


# ---- Writers, each read back by an independent parser ----------------------------------

SOURCES = [EXAMPLES / "products.md", EXAMPLES / "people.md", FIXTURES / "writers.json"]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_plist_writer_output_loads_in_plistlib(source):
    check_plist(to_json(source), run(source, "--to", "plist").stdout)


def check_plist(outline, text):
    data = plistlib.loads(text.encode())

    def node(value):
        return {"title": value["title"], "id": value["id"], "collapsed": value["collapsed"], "body": value.get("detail", ""),
                **({"attributes": value["attributes"]} if "attributes" in value else {}),
                "children": [node(v) for v in value.get("items", [])]}
    assert data.get("title") == outline.get("title")
    assert data.get("detail", "") == outline["body"]
    assert data.get("attributes", {}) == outline.get("attributes", {})
    assert shape([node(v) for v in data["sections"]]) == shape(outline["sections"])


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_xml_writer_output_parses_in_xml_etree(source):
    check_xml(to_json(source), run(source, "--to", "xml").stdout)


def check_xml(outline, text):
    root = ET.fromstring(text.encode())
    assert root.tag == "outline" and root.get("title") == outline.get("title")
    assert {k: v for k, v in root.attrib.items() if k != "title"} == outline.get("attributes", {})

    def node(element):
        children = [e for e in element if e.tag in ("section", "item")]
        detail = element.find("detail")
        body = (detail.text or "") if element.tag == "section" and detail is not None else (element.text or "") if element.tag == "item" else ""
        assert element.tag == ("section" if children else "item")
        attributes = {k: v for k, v in element.attrib.items() if k not in ("title", "id", "collapsed")}
        return {"title": element.get("title"), "id": element.get("id"), "collapsed": element.get("collapsed") == "true",
                "body": body, **({"attributes": attributes} if attributes else {}), "children": [node(c) for c in children]}
    preamble = root.find("detail")
    assert (preamble.text if preamble is not None else "") == outline["body"]
    assert shape([node(e) for e in root if e.tag in ("section", "item")]) == shape(outline["sections"])


@pytest.mark.parametrize("reading", ["spec", "omni"])
@pytest.mark.parametrize("source", SOURCES + OPML_FIXTURES, ids=lambda p: p.name)
def test_opml_writer_output_parses_in_xml_etree_with_the_expansion_rule(source, reading):
    outline = to_json(source)
    text = run("-", "--from", "json", "--to", "opml", "--opml-expansion", reading, input=json.dumps(outline)).stdout
    check_opml(outline, text)


def check_opml(outline, text):
    title, attributes, nodes = opml_oracle(text)
    assert title == outline.get("title")
    assert attributes == outline.get("attributes", {})
    root = ET.fromstring(text.encode())
    assert (root.find("head").findtext("_note") or "") == outline["body"]
    assert strip(nodes) == strip(outline["sections"])
    # An id is written where reading the title back would give another (as in Markdown).
    written = [n.get("id") for _, n in preorder(nodes)]
    for mine, (_, source) in zip(written, preorder(outline["sections"])):
        slug = re.sub(r"[^\w\- ]", "", source["title"].lower()).replace(" ", "-") or "section"
        assert mine == (None if source["id"] == slug else source["id"]), source["title"]


def yaml_mapping(block):
    """Front matter as PyYAML reads it, every scalar as text (the outline marker aside)."""
    mapping = yaml.load(block, Loader=yaml.BaseLoader) or {}
    assert isinstance(mapping, dict), block
    mapping.pop("outline-render", None)
    return mapping


def cmark_outline(markdown):
    """Headings (depth, title) and front matter as cmark and a YAML-minded reader see them."""
    front = {}
    if markdown.startswith("---\n"):
        block, markdown = markdown[4:].split("\n---\n", 1)
        front = yaml_mapping(block)
    xml = subprocess.run(["cmark", "-t", "xml"], input=markdown, capture_output=True, text=True, check=True).stdout
    headings = []
    for child in ET.fromstring(xml):
        if child.tag != NS + "heading":
            continue
        text = "".join(e.text or "" for e in child.iter() if e.tag in (NS + "text", NS + "code"))
        attributes = re.search(r"\s*\{([^{}]*)\}$", text)
        title = text[:attributes.start()] if attributes else text
        depth = int(child.get("level"))
        if attributes and (deeper := re.search(r'outline-depth="(\d+)"', attributes.group(1))):
            depth = int(deeper.group(1))
        collapsed = bool(attributes and re.search(r"(^|\s)\.collapsed(\s|$)", attributes.group(1)))
        headings.append((depth, title, collapsed))
    return front, headings


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_markdown_writer_output_reads_in_cmark(source):
    check_markdown(to_json(source), run(source, "--to", "markdown").stdout)


def check_markdown(outline, text):
    front, headings = cmark_outline(text)
    assert front.get("title") == outline.get("title")
    assert {k: v for k, v in front.items() if k != "title"} == outline.get("attributes", {})
    assert headings == [(d, n["title"], n["collapsed"]) for d, n in preorder(outline["sections"])]


def cmark_items(text):
    """Page properties, and each list item as (depth, the first line of its first
    paragraph, whether a `collapsed:: true` line follows it), as cmark reads the outline
    format: nested lists, properties and bodies inside the items' paragraphs."""
    properties = {}
    if text.startswith("---\n"):  # front matter: the attributes a property cannot hold
        block, text = text[4:].split("\n---\n", 1)
        properties = yaml_mapping(block)
    lines = text.split("\n")
    while lines and re.match(r"^[\w-]+:: ", lines[0]):
        key, value = lines.pop(0).split(":: ", 1)
        properties[key] = value
    xml = subprocess.run(["cmark", "-t", "xml"], input="\n".join(lines), capture_output=True, text=True, check=True).stdout
    items = []

    def visit(element, depth):
        for child in element:
            if child.tag == NS + "item":
                paragraph = child.find(NS + "paragraph")
                pieces, rest = [], []
                for node in paragraph if paragraph is not None else []:
                    (rest if rest or node.tag == NS + "softbreak" else pieces).append(node)
                title = "".join(e.text or "" for node in pieces for e in node.iter() if e.tag in (NS + "text", NS + "code"))
                following = [e.text for node in rest for e in node.iter() if e.tag == NS + "text"]
                items.append((depth, title, following[:1] == ["collapsed:: true"]))
                visit(child, depth + 1)
            else:
                visit(child, depth)
    visit(ET.fromstring(xml), 1)
    return properties, items


def check_outline(outline, text):
    properties, items = cmark_items(text)
    assert properties.get("title") == outline.get("title")
    assert {k: v for k, v in properties.items() if k != "title"} == outline.get("attributes", {})
    assert items == [(d, n["title"], n["collapsed"]) for d, n in preorder(outline["sections"])]


GOLDEN = ROOT / "Tests" / "golden" / "formats"


@pytest.mark.quick
@pytest.mark.parametrize("golden", sorted(GOLDEN.rglob("*.json")), ids=lambda p: str(p.relative_to(GOLDEN)))
def test_every_format_golden_agrees_with_independent_parsers(golden):
    """The byte-for-byte goldens of GoldenTests.swift, read by other code than ours: the
    JSON validates, and plistlib, xml.etree and cmark find the same outline in the plist,
    XML, OPML, Markdown and outline goldens of the same source; the HTML golden holds every title,
    the text golden every title not inside a collapsed section."""
    outline = json.loads(golden.read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(outline)
    stem = golden.with_suffix("")
    check_plist(outline, stem.with_suffix(stem.suffix + ".plist").read_text())
    check_xml(outline, stem.with_suffix(stem.suffix + ".xml").read_text())
    check_opml(outline, stem.with_suffix(stem.suffix + ".opml").read_text())
    check_markdown(outline, stem.with_suffix(stem.suffix + ".md").read_text())
    check_outline(outline, stem.with_suffix(stem.suffix + ".outline").read_text())
    text = stem.with_suffix(stem.suffix + ".txt").read_text()
    fragment = stem.with_suffix(stem.suffix + ".html").read_text()
    for _, node in preorder(outline["sections"]):
        assert html.escape(node["title"], quote=False) in fragment

    def shown(nodes):  # text output lists the children of open sections only
        for node in nodes:
            yield node["title"]
            if not node["collapsed"]:
                yield from shown(node["children"])
    for title in shown(outline["sections"]):
        assert title in text


def test_writer_fixture_exercises_what_it_should():
    outline = json.loads((FIXTURES / "writers.json").read_text())
    depths = [d for d, _ in preorder(outline["sections"])]
    assert max(depths) >= 8
    text = json.dumps(outline)
    for piece in ["<&>", "attributes", "\\n", "{braces}", "# ", "collapsed\": true"]:
        assert piece in text


# ---- JSON: what the writer makes validates; the reader takes it back byte for byte -------

@pytest.mark.parametrize("source", sorted(p for p in EXAMPLES.rglob("*.*") if p.suffix != ".png") + [FIXTURES / "writers.json"], ids=lambda p: p.name)
def test_json_reads_back_to_the_same_bytes_in_every_format(source, tmp_path):
    json_path = tmp_path / "outline.json"
    json_path.write_text(run(source, "--to", "json").stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(json_path.read_text()))
    for fmt in OUTPUT_FORMATS:
        assert run(json_path, "--to", fmt).stdout == run(source, "--to", fmt).stdout, fmt
