"""Shared helpers for the oracle, browser and validator tests (run by scripts/test)."""
import json
import os
import pathlib
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "Examples"
GOLDEN = ROOT / "Tests" / "golden"
TOOL = os.environ.get("OUTLINE_RENDER", str(ROOT / ".build" / "debug" / "outline-render"))


def run(*args, input=None, check=True):
    """Runs outline-render; returns the CompletedProcess (text mode)."""
    result = subprocess.run([TOOL, *map(str, args)], input=input, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"outline-render {args} failed ({result.returncode}): {result.stderr}")
    return result


def _formats(label):
    """The format names `--help` lists after `label`: the tool's own lists (InputFormat.all,
    OutputFormat.all), so that a format added there is tested everywhere these are used."""
    match = re.search(label + r": ([a-z, ]+)\.", " ".join(run("--help").stdout.split()))
    assert match, f"--help lists no '{label}'"
    return match[1].split(", ")


INPUT_FORMATS = _formats("Input format")
OUTPUT_FORMATS = _formats("Output format")
# The formats written and read back: every output format that is also an input format.
OUTLINE_FORMATS = [f for f in OUTPUT_FORMATS if f in INPUT_FORMATS]


def to_json(path, *args):
    return json.loads(run(path, "-t", "json", *args).stdout)


CMARK = ["cmark"]
# GitHub Flavored Markdown as outline-render reads Markdown by default (the oracle for it).
CMARK_GFM = ["cmark-gfm", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist", "-e", "footnotes"]


def cmark(markdown, command=CMARK):
    """cmark's own HTML for a Markdown text (the oracle); `command` may be CMARK_GFM."""
    return subprocess.run(command, input=markdown, capture_output=True, text=True, check=True).stdout


def preorder(nodes, depth=1):
    for node in nodes:
        yield depth, node
        yield from preorder(node["children"], depth + 1)


_TOKEN = re.compile(
    r'^(?:<details id="(?P<open_id>[^"]+)"[^>]*><summary>.*</summary>'
    r'|<(?:h\d|div role="heading" aria-level="\d+") id="(?P<leaf_id>[^"]+)" class="outline-leaf">.*</(?:h\d|div)>'
    r'|<(?:h\d|div role="heading" aria-level="\d+") class="(?P<heading>outline-heading)">.*</(?:h\d|div)>'
    r'|(?P<close></details>))$'
)


def fragment_bodies(html):
    """Splits safe-mode fragment HTML into [(id, body_html)] in document order; the
    preamble comes first with id None (after the page title's <h1>, if any). Safe mode omits raw HTML, so a body cannot
    contain a line that looks like our own <details>/<summary> markup."""
    bodies = [[None, []]]
    current = bodies[0]
    for line in html.splitlines(keepends=True):
        match = _TOKEN.match(line.rstrip("\n"))
        if not match:
            current[1].append(line)
            continue
        if match["open_id"] or match["leaf_id"]:
            current = [match["open_id"] or match["leaf_id"], []]
            bodies.append(current)
        else:
            current = [None, []]  # after </details> or before a <details>: no body's text
    return [(i, "".join(b)) for i, b in bodies]


def body_normalized(text):
    """outline-render's rule for text from plist, XML, OPML and JSON: LF endings and no
    leading or trailing blank lines; text that starts on a new line (pretty-printed XML)
    also loses the indentation common to its lines."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blank = [not l.strip(" \t") for l in lines]
    if all(blank):
        return ""
    first = blank.index(False)
    last = len(lines) - 1 - blank[::-1].index(False)
    if first == 0:
        return "\n".join(lines[:last + 1])
    indent = min(len(l) - len(l.lstrip(" \t")) for l, b in zip(lines, blank) if not b)
    return "\n".join("" if b else l[indent:] for l, b in zip(lines[first:last + 1], blank[first:last + 1]))


def title_normalized(text):
    """outline-render's rule for titles: runs of spaces, tabs and line breaks made one space, trimmed."""
    return " ".join(t for t in re.split(r"[ \t\r\n]+", text) if t)


@pytest.fixture
def tmp(tmp_path):
    return tmp_path


NS = "{http://commonmark.org/xml/1.0}"


def top_level_headings(markdown, command=CMARK):
    """(start line, level, plain text) of each top-level heading, from cmark's XML."""
    xml = subprocess.run([*command, "-t", "xml", "--sourcepos"], input=markdown, capture_output=True, text=True, check=True).stdout
    # (cmark-gfm's XML names a footnote's definition `<unknown>`, and writes it after the
    # rest, out of the order of positions: it has no heading, and is left out.)
    document = ET.fromstring(re.sub(r"<(/?)<unknown>", r"<\1footnote", xml))
    blocks = []
    for child in document:
        if child.tag == "footnote":
            continue
        # (cmark-gfm gives no position to the paragraph it splits off before a table.)
        start = int(child.get("sourcepos").split(":")[0]) if child.get("sourcepos") else (blocks[-1][0] if blocks else 1)
        if child.tag == NS + "heading":
            text = "".join(
                " " if e.tag in (NS + "softbreak", NS + "linebreak") else (e.text or "")
                for e in child.iter() if e.tag in (NS + "text", NS + "code", NS + "softbreak", NS + "linebreak")
            )
            blocks.append((start, int(child.get("level")), " ".join(text.split())))
        else:
            blocks.append((start, None, None))
    return blocks


def expected_depths(levels):
    """Each heading nests under the nearest preceding heading of a lower level."""
    stack, depths = [], []
    for level in levels:
        while stack and stack[-1] >= level:
            stack.pop()
        stack.append(level)
        depths.append(len(stack))
    return depths


_REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S")


def cmark_section_bodies(markdown, blocks, command=CMARK):
    """cmark's HTML of each section body, in full-document context: cmark renders the whole
    document with each top-level heading replaced by a marker paragraph, and the pieces
    between markers are the preamble and the bodies. `blocks` is top_level_headings()."""
    lines = markdown.split("\n")
    replaced = list(lines)
    headings = [(i, b) for i, b in enumerate(blocks) if b[1] is not None]
    for k, (index, (start, _, _)) in enumerate(headings):
        end = blocks[index + 1][0] - 1 if index + 1 < len(blocks) else len(lines)
        # A setext heading's range starts at the link reference definitions its paragraph
        # began with (cmark takes them out of the heading): they stay, the heading goes.
        while start < end and _REFERENCE_DEFINITION.match(lines[start - 1]):
            start += 1
        replaced[start - 1] = f"\nOUTLINEMARKER{k}\n"
        for line in range(start, end):
            replaced[line] = None
    oracle = cmark("\n".join(l for l in replaced if l is not None), command)
    return re.split(r"<p>OUTLINEMARKER\d+</p>\n", oracle)


_BODY_HEADING_ID = re.compile(r'<h([1-6]) id="[^"]*">')


def without_heading_ids(html):
    """Body HTML as cmark writes it: ours gives every heading a body holds an id (as GitHub
    and mkdocs do, so that it can be linked to); cmark's command does not."""
    return _BODY_HEADING_ID.sub(r"<h\1>", html)


# GitHub's sanitizer allowlist (html-pipeline's SanitizationFilter, with picture/source as
# github.com keeps them), given to an independent sanitizer: ammonia (nh3, PyPI), an HTML5
# parser's tree filtered and written back. The oracle for raw HTML (SPEC §3.1.2).
GITHUB_ELEMENTS = {
    "h1", "h2", "h3", "h4", "h5", "h6", "br", "b", "i", "strong", "em", "a", "pre", "code", "img", "tt", "div", "ins", "del",
    "sup", "sub", "p", "ol", "ul", "table", "thead", "tbody", "tfoot", "blockquote", "dl", "dt", "dd", "kbd", "q", "samp", "var",
    "hr", "ruby", "rt", "rp", "li", "tr", "td", "th", "s", "strike", "summary", "details", "caption", "figure", "figcaption",
    "abbr", "bdo", "cite", "dfn", "mark", "small", "span", "time", "wbr", "picture", "source", "colgroup", "col", "u",
}
GITHUB_ATTRIBUTES = {
    "*": {
        "abbr", "accept", "accept-charset", "accesskey", "action", "align", "alt", "aria-describedby", "aria-hidden",
        "aria-label", "aria-labelledby", "axis", "border", "cellpadding", "cellspacing", "char", "charoff", "charset",
        "checked", "clear", "cols", "colspan", "color", "compact", "coords", "datetime", "dir", "disabled", "enctype", "for",
        "frame", "headers", "height", "hreflang", "hspace", "id", "ismap", "label", "lang", "maxlength", "media", "method",
        "multiple", "name", "nohref", "noshade", "nowrap", "open", "progress", "prompt", "readonly", "rel", "rev", "role",
        "rows", "rowspan", "rules", "scope", "selected", "shape", "size", "span", "start", "summary", "tabindex", "title",
        "type", "usemap", "valign", "value", "width", "itemprop",
    },
    "a": {"href"}, "img": {"src", "longdesc", "srcset", "sizes"}, "source": {"srcset", "sizes"},
    "div": {"itemscope", "itemtype"}, "blockquote": {"cite"}, "del": {"cite"}, "ins": {"cite"}, "q": {"cite"},
}
GITHUB_DROPPED_WITH_CONTENT = {
    "iframe", "math", "noembed", "noframes", "noscript", "plaintext", "script", "style", "svg", "xmp", "template",
    "textarea", "title", "select", "object",
}


def github_sanitized(html):
    """`html` as GitHub's allowlist keeps it, by ammonia (see GITHUB_ELEMENTS), its white
    space made one space and none beside a tag (where the two sides may break lines apart),
    without elements that hold nothing (an HTML parser makes some when it repairs the tree:
    an `<a>` left open in a paragraph is opened again after it; ours closes it there)."""
    import nh3
    kept = nh3.clean(
        html, tags=GITHUB_ELEMENTS, attributes=GITHUB_ATTRIBUTES, url_schemes={"http", "https", "mailto"},
        clean_content_tags=GITHUB_DROPPED_WITH_CONTENT, strip_comments=True, link_rel=None)
    kept = re.sub(r"\s*(<[^>]*>)\s*", r"\1", re.sub(r"\s+", " ", kept)).strip()
    while True:
        emptied = re.sub(r"<(\w+)[^>]*></\1>", "", kept)
        if emptied == kept:
            return kept
        kept = emptied


def github_visible(html):
    """What a reader gets of `html` as GitHub keeps it: its text (white space made one space)
    and the set of its elements with their attributes. Where an element left open ends is
    not compared: an HTML parser carries an open `<code>` into every block after it, ours
    closes it at the end of its list item or paragraph."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.text, self.tags = [], set()

        def handle_starttag(self, tag, attrs):
            self.tags.add((tag, tuple(sorted(attrs))))

        def handle_data(self, data):
            self.text.append(data)

    reader = Reader()
    reader.feed(github_sanitized(html))
    reader.close()
    return " ".join("".join(reader.text).split()), reader.tags


def differences_from_oracle(markdown, args, command, normalized=lambda html: html):
    """How outline-render's rendering of `markdown` (with `args`) differs from the oracle's
    (`command`): an empty list when it does not.

    - Without top-level headings the text is one preamble: our `--fragment` output must be
      the oracle's HTML byte for byte.
    - With headings it becomes sections (by design ours wraps them in <details>): each node's
      title must be the oracle's heading text, and each body's HTML what the oracle renders
      for it in the whole document's context.
    Both sides' HTML is compared through `normalized` (`github_sanitized`: as a browser reads it)."""
    ours = run(*args, "--fragment", input=markdown, check=False)
    if ours.returncode != 0:
        return [f"exit {ours.returncode}: {ours.stderr.strip()}"]
    blocks = top_level_headings(markdown, command)
    headings = [b for b in blocks if b[1] is not None]
    if not headings:
        expected = normalized(cmark(markdown, command))
        html = normalized(without_heading_ids(ours.stdout))
        return [] if html == expected else [f"HTML differs:\nours:   {html!r}\noracle: {expected!r}"]
    differs = []
    outline = json.loads(run(*args, "-t", "json", input=markdown).stdout)
    titles = [node["title"] for _, node in preorder(outline["sections"])]
    if titles != [text for _, _, text in headings]:
        differs.append(f"titles {titles} != the oracle's {[t for _, _, t in headings]}")
    bodies = [normalized(without_heading_ids(html)) for _, html in fragment_bodies(ours.stdout)]
    expected = [normalized(html) for html in cmark_section_bodies(markdown, blocks, command)]
    if bodies != expected:
        differs.append(f"bodies differ:\nours:   {bodies!r}\noracle: {expected!r}")
    return differs


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "quick: one oracle sample per format, and one browser and one site check (scripts/test --quick runs only these)")


def mkdocs_yml_without_code(text):
    """An mkdocs.yml without what runs a project's own code or needs its files (its plugins,
    hooks and the theme's `custom_dir`), for `mkdocs` to build a copy of a real project."""
    kept, skipping = [], False
    for line in text.splitlines(keepends=True):
        if re.match(r"(plugins|hooks):", line):
            skipping = True
            continue
        if skipping and (line[:1] in (" ", "\t") or not line.strip()):
            continue
        skipping = False
        if not re.match(r"\s+custom_dir:", line):
            kept.append(line)
    return "".join(kept)

