"""mkdocs' dialect (SPEC §3.1.3, docs/formats.md "mkdocs' dialect"): read with `--from mkdocs`
or in a tree whose mkdocs.yml names markdown_extensions, and compared with what Python-Markdown
and pymdown-extensions (the extensions mkdocs runs) make of the same text, block by block."""
import html
import re
import html.parser
import pathlib

import markdown
import pytest

from conftest import run

BLOCKS = ["pymdownx.blocks.admonition", "pymdownx.blocks.details", "pymdownx.blocks.tab", "pymdownx.superfences"]
VOID = {"input", "br", "hr", "img", "meta", "link", "source", "wbr"}


class Shape(html.parser.HTMLParser):
    """A page's blocks in order, as events both writers' HTML reduce to: `("callout", type,
    title)`, `("details", type, title, open)`, `("tabs",)`, `("tab", title, selected)`, each
    closed by `("end",)`, and `("p", text)` / `("code", text)` for what they hold. Ours is
    read from its classes (`outline-callout-note`), Python-Markdown's from pymdownx's
    (`admonition note`, `tabbed-set`, a radio `input` and `label` before each tab)."""

    def __init__(self, text, ours=False):
        super().__init__()
        self.ours = ours  # (our sections are `<details>` without a class: not blocks)
        self.events, self.stack, self.text, self.collect = [], [], "", None
        self.pending = None  # (an event waiting for its title: the next title element's text)
        self.label = None  # (pymdownx: a tab's radio state, then its label)
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        kind = None
        if tag == "div" and "outline-callout" in classes:
            kind = ["callout", next((c[16:] for c in classes if c.startswith("outline-callout-")), "")]
        elif tag == "div" and "admonition" in classes:
            kind = ["callout", next((c for c in classes if c != "admonition"), "")]
        elif tag == "details" and "outline-tab" in classes:
            kind = ["tab", "open" in a]
        elif tag == "details" and (classes or not self.ours):
            callout = next((c[16:] for c in classes if c.startswith("outline-callout-")), None)
            kind = ["details", callout if callout is not None else (classes[0] if classes and classes[0] != "outline-callout" else ""), "open" in a]
        elif tag == "div" and ("outline-tabs" in classes or "tabbed-set" in classes):
            kind = ["tabs"]
        elif tag == "div" and "tabbed-content" in classes:
            checked, title = self.label
            self.events.append(("tab", title, checked))
            kind = ["tab-content"]
        elif tag == "input" and a.get("type") == "radio":
            self.label = ["checked" in a, None]
        if kind and kind[0] in ("callout", "details", "tab"):
            self.pending = kind
            if kind[0] == "callout":
                self.pending.append("")  # (no title bar: an empty title)
                self.events.append(tuple(self.pending))
        elif kind == ["tabs"]:
            self.events.append(("tabs",))
        if tag in ("summary", "label") or (tag == "p" and ({"outline-callout-title", "admonition-title"} & set(classes))):
            self.collect, self.text = "title", ""
        elif tag in ("p", "pre", "li") and self.collect is None:
            self.collect, self.text = tag, ""
        if tag not in VOID:
            self.stack.append((tag, kind is not None))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.collect == "title" and tag in ("summary", "label", "p"):
            title = " ".join(self.text.split())
            if tag == "label":
                self.label[1] = title
            elif self.pending:
                if self.pending[0] == "callout":
                    self.events.pop()
                    self.pending[-1] = title
                    self.events.append(tuple(self.pending))
                elif self.pending[0] == "details":
                    self.events.append(("details", self.pending[1], title, self.pending[2]))
                else:
                    self.events.append(("tab", title, self.pending[1]))
                self.pending = None
            self.collect = None
        elif self.collect == tag:
            text = " ".join(self.text.split())
            if text:
                self.events.append(("code" if tag == "pre" else "p", text))
            self.collect = None
        while self.stack:
            open_tag, is_block = self.stack.pop()
            if is_block:
                self.events.append(("end",))
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self.collect:
            self.text += data


def ours(source, *args):
    return Shape(run("-", "--from", "mkdocs", "--fragment", *args, input=source).stdout, ours=True).events


def theirs(source):
    return Shape(markdown.markdown(source, extensions=BLOCKS)).events


def assert_as_python_markdown(source, extensions, normalized=lambda html: html):
    """Our fragment of `source` in mkdocs' dialect is Python-Markdown's with `extensions`
    (`normalized`: what the two write differently and a browser reads alike)."""
    mine = run("-", "--from", "mkdocs", "--fragment", input=source if source.endswith("\n") else source + "\n").stdout.strip()
    assert normalized(mine) == normalized(markdown.markdown(source, extensions=extensions).strip())


CASES = {
    "types and titles": "/// note | A title\nInside **bold**.\n\n- a list\n///\n\n/// tip\nTip text.\n///\n\n/// WARNING\nLoud.\n///\n",
    "admonition with a type option": "/// admonition | Plain\n    type: danger\n\nContent\n///\n\n/// admonition | No type\nContent\n///\n",
    "an empty title": '/// note | \nNo title bar.\n///\n',
    "details": "/// details | Summary here\n    type: warning\n    open: True\n\nHidden.\n///\n\n/// details | Closed\nShut.\n///\n",
    "tabs in groups": (
        "/// tab | One\nFirst\n///\n\n/// tab | Two\n    select: true\n\nSecond\n///\n\n"
        "/// tab | Three\n    new: true\n\nThird, a new group\n///\n"
    ),
    "nesting with more slashes": (
        "//// tab | Python 3.10+\n\n```python\nx = 1\n```\n\n////\n\n//// tab | Older\n\n/// tip\nNested tip.\n///\n\nText.\n\n////\n"
    ),
    "a header inside a paragraph": "Some text\n/// note | Then\ncontent\n///\n",
    "an unclosed block runs to the end": "/// note\nall\n\nthe rest\n",
    "an end without a block stays text": "text\n\n///\n\nmore\n",
    "an unknown name stays text": "/// unknown | stays\ntext\n///\n",
    "fences in code stay code": "```\n/// note\ncode\n///\n```\n",
    "nested and closed": "//// note | Outer\n/// tip | Inner\ntip\n///\nmore\n////\n\nafter\n",
}


@pytest.mark.parametrize("name", CASES)
def test_fenced_blocks_are_what_pymdownx_makes_of_them(name):
    assert ours(CASES[name]) == theirs(CASES[name]), name


def test_the_fenced_blocks_of_a_real_page_are_what_pymdownx_makes_of_them():
    # FastAPI's docs/en/docs/tutorial/dependencies/classes-as-dependencies.md (MIT): tabs of
    # four slashes holding tips of three, and notes between.
    page = (pathlib.Path(__file__).parent.parent / "real" / "fastapi-classes-as-dependencies.md").read_text()
    mine, python = ours(page), theirs(page)
    assert sum(1 for e in python if e[0] in ("callout", "tab")) >= 10
    assert mine == python


def test_outside_mkdocs_dialect_fenced_blocks_stay_text():
    page = run("-", "--fragment", input="/// note | Hello\ncontent\n///\n").stdout
    assert "<p>/// note | Hello\ncontent\n///</p>" in page


def test_a_tree_whose_mkdocs_yml_names_extensions_is_read_in_the_dialect(tmp_path):
    source = "/// note | Hello\ncontent\n///\n"
    for project, config in {
        "listed": "site_name: x\nmarkdown_extensions:\n  - toc:\n      permalink: true\n  - pymdownx.blocks.admonition\nnav: []\n",
        "mapped": "markdown_extensions:\n  abbr: null\n  pymdownx.blocks.admonition:\n    types: [note]\n",
        "flow": "markdown_extensions: [toc, pymdownx.blocks.admonition]\n",
        "none": "site_name: x\n",
        "other": "markdown_extensions:\n- pymdownx.blocks.tab\n",
    }.items():
        docs = tmp_path / project / "docs"
        docs.mkdir(parents=True)
        (tmp_path / project / "mkdocs.yml").write_text(config)
        (docs / "page.md").write_text(source)
        run(str(docs), "-o", str(tmp_path / project / "site"))
        page = (tmp_path / project / "site" / "page.html").read_text()
        assert ('class="outline-callout outline-callout-note"' in page) == (project in ("listed", "mapped", "flow")), project
    # The project folder itself may be given too: its site is its docs_dir's (docs/sites.md).
    run(str(tmp_path / "listed"), "-o", str(tmp_path / "whole"))
    assert 'outline-callout-note"' in (tmp_path / "whole" / "page.html").read_text()


SPANS = ["pymdownx.mark", "pymdownx.caret", "pymdownx.tilde"]
SPAN_CASES = [
    "Text ==marked== and ^^inserted^^ and ~~deleted~~.",
    "H~2~O, CH~3~CH~2~OH, A^T^A, 2^10^ and e^-x^.",
    "Spaces: a ~b c~ and ^a b^ stay text, ==a b== does not.",
    "Escaped: H~2\\ 3~O and a^b\\ c^.",
    "Nested: ==*emphasis* inside==, ^^**strong**^^b, x==y==z.",
    "Code stays code: `==x==` and `H~2~O`.",
    "Across lines: ==one\ntwo== and ^^three\nfour^^.",
    "Unpaired: ==open and ^caret and ~tilde.",
    "Mixed: ==mark ^^ins^^ more== and ~~del ^sup^~~.",
    "- ==This was marked (highlight)==\n- ^^This was inserted (underline)^^\n- ~~This was deleted (strikethrough)~~",
    "Single equals = stay, a == b too.",
]


@pytest.mark.parametrize("source", SPAN_CASES)
def test_mark_caret_and_tilde_are_what_pymdownx_makes_of_them(source):
    assert_as_python_markdown(source, SPANS)


def test_outside_mkdocs_dialect_tildes_are_github_strikethrough():
    page = run("-", "--fragment", input="H~2~O ==x== ^^y^^\n").stdout
    assert "H<del>2</del>O ==x== ^^y^^" in page


DEFINITION_CASES = [
    "Apple\n:   Pomaceous fruit\n\nOrange\n:   Citrus fruit\n",
    "Apple\n\n:   Pomaceous fruit\n\n    More para.\n\nOrange\n:   Citrus\n:   Second def\n",
    "Term 1\nTerm 2\n:   Def with `code` and *em*\n    continued lazily\n",
    "`term`\n:   - a list\n    - in def\n",
    "> Quoted\n> :   definition\n",
    "Text: not a definition, nor\n\n: this, after no paragraph? It is.\n",
    "```\nTerm\n:   in code\n```\n",
]


@pytest.mark.parametrize("source", DEFINITION_CASES)
def test_definition_lists_are_what_python_markdown_makes_of_them(source):
    assert_as_python_markdown(source, ["def_list", "fenced_code"])


def test_definitions_hold_blocks_as_mkdocs_material_writes_them():
    # mkdocs-material's docs/reference/lists.md and admonitions.md (MIT): a loose definition
    # with paragraphs, and one holding an admonition.
    source = (
        "`Lorem ipsum dolor sit amet`\n\n:   Sed sagittis eleifend rutrum. Donec vitae suscipit est.\n"
        "    Nullam tempus tellus non sem sollicitudin.\n\n    Second paragraph.\n\n"
        "`type:note`\n\n:   !!! note\n\n        Inside an admonition.\n\n"
        # (setup/setting-up-site-analytics.md: terms and definitions that start with HTML, a
        # footnote between.)
        "<!-- md:option analytics.feedback.ratings.name -->\n\n:   <!-- md:default none --> <!-- md:flag required -->\n"
        "    The value of this property is shown on user interaction.\n\n"
        "<!-- md:option analytics.feedback.ratings.data -->\n\n:   <!-- md:default `none` --> Sent as a data value\n"
        "    with the custom event[^3].\n\n  [^3]:\n    Note that the data value must be an integer.\n"
    )
    assert ours(source) == Shape(markdown.markdown(source, extensions=["def_list", "admonition", "footnotes"])).events
    page = run("-", "--from", "mkdocs", "--fragment", input=source).stdout
    assert page.count("<dt>") == 4 and page.count("<dd>") == 4 and ":   " not in page


KEY_CASES = [
    "Press ++ctrl+alt+del++ to restart.",
    "++cmd+shift+\"My Key\"++ and ++'Other'++.",
    "Aliases: ++esc++, ++bksp++, ++pgup++, ++win+r++, ++num-plus++.",
    "Not keys: ++unknownkey+a++, ++ctrl++alt++, a++b, `++ctrl+c++`, C++ and ++.",
    "Two: ++ctrl+c++ then ++ctrl+v++.",
]


@pytest.mark.parametrize("source", KEY_CASES)
def test_keys_are_what_pymdownx_makes_of_them(source):
    assert_as_python_markdown(source, ["pymdownx.keys"], lambda html: html.replace("&quot;", '"'))


def test_every_key_of_pymdownx_s_map_and_its_aliases_is_known():
    # The generated table (scripts/make-key-names) against the installed pymdown-extensions.
    from pymdownx import keymap_db

    words = sorted(set(keymap_db.keymap) | set(keymap_db.aliases))
    source = " ".join(f"++{word}++" for word in words)
    # (cmark writes `"` in text as `&quot;`, Python-Markdown as it is.)
    mine = run("-", "--from", "mkdocs", "--fragment", input=source + "\n").stdout.strip().replace("&quot;", '"')
    assert mine == markdown.markdown(source, extensions=["pymdownx.keys"]).strip()
    assert mine.count('<span class="keys">') == len(words)


ABBREVIATION_CASES = [
    "The HTML specification is kept by the W3C, not by HTMLX.\n\n*[HTML]: Hyper Text Markup Language\n*[W3C]:  World Wide Web Consortium\n",
    "Used before it is defined: HTML.\n\n*[HTML]: Hyper Text Markup Language\n\nAnd after: HTML5 is not HTML.\n",
    "In code `HTML`, a [HTML link](x.html), **HTML**, and HTML_X, _HTML_.\n\n*[HTML]: Hyper & \"Text\"\n",
    "| col | HTML |\n|---|---|\n| W3C | x |\n\n*[HTML]: Hyper Text\n*[W3C]: Consortium\n",
    "Text then\n*[CSS]: Cascading\nmore text with CSS.\n",
    "The longest first: HTML page and HTML.\n\n*[HTML]: one\n*[HTML page]: two\n",
    "Taken back: HTML.\n\n*[HTML]: Hyper\n*[HTML]: \"\"\n",
]


@pytest.mark.parametrize("source", ABBREVIATION_CASES)
def test_abbreviations_are_what_python_markdown_makes_of_them(source):
    assert_as_python_markdown(source, ["abbr", "tables"], lambda html: html.replace("&quot;", '"'))


SYMBOL_CASES = [
    "Brand(tm) (c) 2024 (r), +/- 3, a =/= b, c/o me, not c/of.",
    "Arrows: a --> b <-- c <--> d, but ---> and <--- stay.",
    "Fractions: 1/4 cup, 2/3 and 7/8, but 11/4, 1/42 and 1/7 stay.",
    "Ordinals: 1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 101st 111th 0th, not 1th, x1st, 1stx, 01st.",
    "In code: `(c) 1/2 -->` and **bold (c) 1st**.",
]


@pytest.mark.parametrize("source", SYMBOL_CASES)
def test_smart_symbols_are_what_pymdownx_makes_of_them(source):
    assert_as_python_markdown(source, ["pymdownx.smartsymbols"], html.unescape)


def test_a_mkdocs_yml_that_is_not_yaml_is_a_located_warning_and_the_site_is_built(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (tmp_path / "mkdocs.yml").write_text("markdown_extensions:\n  - toc\n bad: [\n")
    (docs / "page.md").write_text("# Page\n\n/// note\nText.\n///\n")
    result = run(str(docs), "-o", str(tmp_path / "site"))
    # PyYAML (libyaml's message and place): "did not find expected key" at line 3, column 2.
    assert re.search(r"mkdocs\.yml:3:2: warning: YAML: while parsing a block mapping: did not find expected key", result.stderr)
    page = (tmp_path / "site" / "page.html").read_text()
    assert "outline-callout-note" not in page and "Text." in page
