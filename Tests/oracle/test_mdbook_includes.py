"""mdBook's includes in an mdBook project (docs/formats.md, "mdBook's includes").

The oracle is mdBook itself: its own test book for includes (Tests/real/mdbook-includes,
from mdBook's test suite, MPL-2.0) with the pages mdBook renders from it, as its tests
expect them (`expected/`). Every code block and paragraph of those pages must hold the
same text in ours. Then what differs on purpose: nothing outside the book is read, and
what cannot be included is a located warning, the include left as written (mdBook logs
an error and leaves it too)."""
import html
import html.parser
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, TOOL

BOOK = ROOT / "Tests" / "real" / "mdbook-includes"


class Blocks(html.parser.HTMLParser):
    """The text of every `<pre>` and `<p>` of a page's content, in order; hidden Rust lines
    count as text (mdBook shows them on demand, as we do)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.blocks, self.open, self.skip = [], None, 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("button", "nav", "header", "footer", "script", "style") or "outline-copy" in (attrs.get("class") or ""):
            self.skip += 1
        elif tag in ("pre", "p") and self.open is None and not self.skip:
            self.open = [tag, ""]

    def handle_endtag(self, tag):
        if tag in ("button", "nav", "header", "footer", "script", "style") and self.skip:
            self.skip -= 1
        elif self.open and tag == self.open[0]:
            self.blocks.append((self.open[0], self.open[1].strip("\n")))
            self.open = None

    def handle_data(self, data):
        if self.open and not self.skip:
            self.open[1] += data


def built(tmp_path):
    out = tmp_path / "site"
    result = subprocess.run([TOOL, BOOK, "-o", out, "--no-cache"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out, result.stderr


def content(page):
    """The blocks of a page's content (ours: inside `<main>`; mdBook's test pages are
    content alone)."""
    text = page.read_text()
    main = re.search(r"<main.*?</main>", text, re.S)
    return [b for b in Blocks(main.group(0) if main else text).blocks if b[1].strip()]


def unwrapped(code):
    """A Rust block without the `fn main` mdBook's HTML adds around one that has none (its
    playground's rendering, hidden lines: no part of includes)."""
    wrapper = "#![allow(unused)]\nfn main() {\n"
    return code[len(wrapper):-2] if code.startswith(wrapper) and code.endswith("\n}") else code


@pytest.mark.parametrize("expected, ours", [
    ("includes.html", "includes.html"),
    ("relative-includes.html", "relative/includes.html"),
    ("anchors.html", "anchors.html"),
    ("recursive.html", "recursive.html"),
    ("playground.html", "playground.html"),
    ("rustdoc.html", "rustdoc.html"),
    ("multiline.html", "multiline.html"),
    ("multiline-issues.html", "multiline/issues.html"),
])
def test_pages_hold_what_mdbook_includes(tmp_path, expected, ours):
    out, _ = built(tmp_path)
    # (Paragraphs as they are: smart punctuation, mdBook 0.5's default, is ours too.)
    theirs = [unwrapped(b[1]) if b[0] == "pre" else b[1] for b in content(BOOK / "expected" / expected)]
    mine = [b[1] for b in content(out / ours)]
    assert mine == theirs
    assert theirs  # (the page holds blocks: the comparison compared something)


def test_nesting_stops_at_mdbooks_depth_with_a_located_warning(tmp_path):
    out, stderr = built(tmp_path)
    assert "mdbook-includes/src/recursive.md:2:1: warning: includes are nested more than 10 deep here" in stderr
    text = (out / "recursive.html").read_text()
    assert text.count("Around the world, around the world") == 11


def test_what_cannot_be_included_is_left_as_written_and_said(tmp_path):
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text('[book]\ntitle = "t"\n')
    (tmp_path / "secret.rs").write_text("TOP SECRET\n")
    (book / "src" / "link.rs").symlink_to(tmp_path / "secret.rs")
    (book / "src" / "page.md").write_text(
        "# Page\n\n```rust\n{{#include missing.rs}}\n```\n\nsee {{#include ../../secret.rs}} and {{#include link.rs}}\n\n"
        "\\{{#include kept.rs}}\n")
    result = subprocess.run([TOOL, "book", "-o", "site", "--no-cache"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "book/src/page.md:4:1: warning: the included file 'book/src/missing.rs' is not found; the include is left as written" \
        in result.stderr
    assert "book/src/page.md:7:5: warning: the included file '../../secret.rs' is outside the book's folder" in result.stderr
    assert "book/src/page.md:7:38: warning: the included file 'link.rs' is outside the book's folder" in result.stderr
    page = (tmp_path / "site" / "page.html").read_text()
    assert "TOP SECRET" not in page
    assert "{{#include missing.rs}}" in html.unescape(page)
    assert "{{#include kept.rs}}" in html.unescape(page)


def test_editing_an_included_file_rebuilds_its_pages(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(BOOK, book)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for path in book.rglob("*"):
        os.utime(path, (path.stat().st_atime - 10, path.stat().st_mtime - 10))

    def run():
        return subprocess.run([TOOL, book, "-o", tmp_path / "site"], capture_output=True, text=True, env=env).stderr

    run()
    assert "0 written" in run()
    (book / "src" / "sample.md").write_text("## Sample\n\nThis is an edited include.\n")
    again = run()
    # (sample.md itself, and the two pages that include it.)
    assert "3 written" in again, again
    assert "edited include" in (tmp_path / "site" / "relative" / "includes.html").read_text()
