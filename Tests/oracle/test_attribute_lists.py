"""mkdocs' attribute lists on links and images (docs/formats.md): `[Install](install.md){ .md-button }`,
`![Logo](logo.png){ width="200" }` and mkdocs-autorefs' anchors `[](){#name}`, against
Python-Markdown's own attr_list (the extension mkdocs runs), attribute by attribute; the
attributes that would run script or point elsewhere are dropped; the link check sees the ids."""
import html.parser

import markdown
import pytest

from conftest import TOOL, run
from test_hostile_markdown import measure
from test_docs_site import tool


class Elements(html.parser.HTMLParser):
    """The links and images of an HTML text, each as (tag, attributes), in order."""

    def __init__(self, text):
        super().__init__()
        self.found = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag in ("a", "img") and not dict(attrs).get("class", "").startswith("outline-"):
            self.found.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


CASES = [
    "[Install](install.md){ .md-button .md-button--primary }",
    "[Install](install.md){: .md-button #go }",
    "![Logo](logo.png){ width=\"200\" loading=lazy }",
    "![Logo](logo.png \"The logo\"){ align=right .shadow }",
    "A [link](https://example.org \"Title & more\"){ #there data-kind='a \"quoted\" value' } in text.",
    "[*emphasis* and `code`](page.md){ .wide }",
    "Two: [a](a.md){.one} and [b](b.md){.two}.",
    "[](){#command-setup}",
    "[](){#command-3.x}",
]


@pytest.mark.parametrize("source", CASES)
def test_links_and_images_get_the_attributes_python_markdown_gives(source):
    ours = Elements(run("-", "--from", "markdown", "--fragment", input=source + "\n").stdout).found
    theirs = Elements(markdown.markdown(source, extensions=["attr_list"])).found
    assert [tag for tag, _ in ours] == [tag for tag, _ in theirs]
    for (tag, got), (_, expected) in zip(ours, theirs):
        if tag == "a" and expected.get("href") == "" and "id" in expected:
            expected.pop("href")  # (an anchor, as mkdocs-autorefs makes it: no link to nowhere)
        assert got == expected, source
    # The list itself is no longer text.
    assert "{" not in run("-", "--from", "markdown", "--fragment", input=source + "\n").stdout


def test_what_is_not_an_attribute_list_stays_text():
    page = run("-", "--fragment", input="[x](y){not an attr list} and {.alone} and `[a](b){.c}`\n").stdout
    assert "<a href=\"y\">x</a>{not an attr list}" in page
    assert "{.alone}" in page and "<code>[a](b){.c}</code>" in page


def test_attributes_that_run_script_or_point_elsewhere_are_dropped():
    source = "[z](w){ #zid onclick=\"alert(1)\" OnMouseOver=x href=\"evil.html\" style=\"color: red\" data-x=1 }\n"
    (tag, attributes), = Elements(run("-", "--fragment", input=source).stdout).found
    assert attributes == {"href": "w", "id": "zid", "data-x": "1"}
    # Values are escaped: a quote cannot close the attribute.
    page = run("-", "--fragment", input="[q](r){ title='a\" onclick=\"x' }\n").stdout
    assert Elements(page).found == [("a", {"href": "r", "title": "a\" onclick=\"x"})]
    assert "onclick=\"x\"" not in page


def test_the_link_check_knows_the_ids_of_attribute_lists(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/commands.md").write_text(
        "# Commands\n\n| Command | Use |\n|---|---|\n| [`setup`](#command-setup) | Set up. |\n\n"
        "[](){#command-setup}\n\n## `setup`\n\nText.\n")
    (tmp_path / "docs/setup.md").write_text("# Setup\n\nSee [setup](commands.md#command-setup), [missing](commands.md#nope).\n")
    result = tool(tmp_path, "docs", "-o", "site")
    assert "command-setup" not in result.stderr
    assert "no section 'nope' in docs/commands.md" in result.stderr
    assert '<a id="command-setup"></a>' in (tmp_path / "site/commands.html").read_text()


@pytest.mark.parametrize("line", [b"[a](b){", b"[a](b){.c} ", b"<br />{.x} ", b"x</a>{.c}"])
def test_many_braces_in_one_paragraph_stay_linear(line):
    # 300,000 candidates in one block: each brace is looked at once (a quadratic scan
    # would need hours; the bound is the CPU limit, 20 s, not a timing).
    status, _, _, stderr = measure([TOOL, "-", "--unsafe", "--fragment"], line * 300_000 + b"\n")
    assert status == 0, stderr


def test_an_attribute_the_element_has_already_is_not_written_twice():
    page = run("-", "--fragment", input='![i](j "t"){ alt="other" title=u .c }\n').stdout
    (tag, attributes), = Elements(page).found
    assert attributes == {"src": "j", "alt": "i", "title": "t", "class": "c"}
    assert page.count("alt=") == 1 and page.count("title=") == 1


class Blocks(html.parser.HTMLParser):
    """The paragraphs and list items of an HTML text, each as (tag, attributes, its own text)."""

    def __init__(self, text):
        super().__init__()
        self.found = []
        self.open = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag in ("p", "li"):
            self.found.append([tag, dict(attrs), ""])
            self.open.append(self.found[-1])

    def handle_endtag(self, tag):
        if tag in ("p", "li") and self.open:
            self.open.pop()

    def handle_data(self, data):
        if self.open:
            self.open[-1][2] += data


BLOCK_CASES = [
    "Lorem ipsum dolor sit amet, (1) consectetur adipiscing elit.\n{ .annotate }",
    "Two lines\nof text.\n{: #here .wide data-kind='a \"quoted\" value' }",
    "A [link](page.md){ .inline } and then\n{ .block }",
    "- a tight item\n  { .x }\n- another",
    "- a tight item with its own list\n    { .x }\n    - nested",
    "1.  a loose item\n    {.y}\n\n    its second paragraph",
    "Text with `code`\n   {   .spaced   }   ",
    "> quoted\n> { .q }",
    # Not lists of a block: alone on the paragraph's one line, or not last.
    "{ .alone }",
    "Text\n{ .x }\nmore text",
]


@pytest.mark.parametrize("source", BLOCK_CASES)
def test_a_blocks_last_line_list_gives_the_attributes_python_markdown_gives(source):
    ours = Blocks(run("-", "--from", "markdown", "--fragment", input=source + "\n").stdout).found
    theirs = Blocks(markdown.markdown(source, extensions=["attr_list"])).found
    # (Python-Markdown wraps a tight item's text in a paragraph when the list has a loose one;
    # cmark and GitHub do not: items are compared by their text.)
    assert [(tag, attributes, text.strip()) for tag, attributes, text in ours] == \
        [(tag, attributes, text.strip()) for tag, attributes, text in theirs]


def test_a_blocks_list_drops_what_runs_script_and_is_text_in_code():
    page = run("-", "--fragment", input="Text\n{ .c onclick=\"x()\" style=\"color: red\" }\n\n    code\n    { .d }\n").stdout
    assert Blocks(page).found[0][:2] == ["p", {"class": "c"}] and "onclick" not in page and "style" not in page
    assert "{ .d }" in page
