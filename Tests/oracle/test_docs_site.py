"""A folder converted to HTML is a site that works (docs/sites.md): links between pages, assets,
the link check, navigation, and nothing extra in the output. Every href and src of every
page is resolved here with an HTML parser (not by string search)."""
import html.parser
import os
import pathlib
import shutil
import subprocess
import urllib.parse

import pytest

from conftest import EXAMPLES, TOOL, run

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PNG = (EXAMPLES / "docs" / "images" / "logo.png").read_bytes()

TREE = {
    "docs/index.md": """# Home

See the [guide](sub/guide.md#install), the [deep part](sub/deep/page.md#closed-leaf) and the
[API](api.xml#errors). Missing: a [page](nope.md) and an [anchor](sub/guide.md#instal).
`[in code](sub/guide.md)` stays text. ![logo](img/logo.png) and [the manual](files/manual.pdf?v=2#page=3).
Here: [home](#home), and [nowhere](#nowhere). Out: [secret](../secret.txt).
External: [site](https://example.org/a.md) and [mail](mailto:a@example.org).
By output name: [the guide](sub/guide.html#install) and [a typo](sub/guide.html#instal).
""",
    "docs/sub/guide.md": """# Guide

## Install {.collapsed}

Back [home](../index.md) and [to the API](../api.xml).

### Details

![logo again](../img/logo.png)
""",
    "docs/sub/deep/page.md": """# Page

## Closed {.collapsed}

### Closed leaf

Up: [guide](../guide.md#details) and [index](../../index.md#home).
""",
    "docs/api.xml": '<outline title="API"><section title="Errors"><detail>See the [guide](sub/guide.md#details).</detail>'
                    '<item title="E1">Code E1.</item></section></outline>',
    "docs/img/logo.png": PNG,
    "docs/files/manual.pdf": PDF,
    "docs/files/unlinked.pdf": PDF,
    "docs/notes.txt": "not linked, not an input",
    "secret.txt": "outside the input folder",
}

EXPECTED_OUTPUTS = ["404.html", "api.html", "files/manual.pdf", "img/logo.png", "index.html", "outline-site/nav.html", "outline-site/nav.js",
                    "outline-site/outline.css", "outline-site/outline.js", "outline-site/search.js", "sub/deep/page.html",
                    "sub/guide.html"]
EXPECTED_WARNINGS = [
    "docs/index.md:4:35: warning: no file 'nope.md' (linked from here)",
    "docs/index.md:4:58: warning: no section 'instal' in docs/sub/guide.md",
    "docs/index.md:6:26: warning: no section 'nowhere' in this page",
    "docs/index.md:6:52: warning: '../secret.txt' is outside docs; it is neither linked to nor copied",
    "docs/index.md:8:57: warning: no section 'instal' in docs/sub/guide.md",
]
# Links the warnings are about: left as written, and so not expected to resolve.
BROKEN = {"nope.md", "sub/guide.html#instal", "#nowhere", "../secret.txt"}
# (A link to another page's output, `sub/guide.html`, is right as written: it is checked, not rewritten.)


def make_tree(root):
    for name, content in TREE.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


def tool(root, *args):
    return subprocess.run([TOOL, *map(str, args)], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "XDG_CACHE_HOME": str(root / "cache")})


class Page(html.parser.HTMLParser):
    """The ids of a page and the href/src of its links, images and stylesheets."""

    def __init__(self, text):
        super().__init__()
        self.ids, self.links = set(), []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name) is not None and tag in ("a", "img", "link", "script", "source"):
                self.links.append(attrs[name])


def outputs(site):
    return sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())


@pytest.fixture()
def built(tmp_path):
    make_tree(tmp_path)
    result = tool(tmp_path, "docs", "-o", "site", "--index")
    return tmp_path, result


@pytest.mark.quick
def test_every_link_and_image_resolves_and_every_anchor_exists(built):
    root, result = built
    assert result.returncode == 0, result.stderr
    site = root / "site"
    pages = {p: Page(p.read_text()) for p in site.rglob("*.html")}
    checked = 0
    for page, parsed in pages.items():
        for link in parsed.links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or link in BROKEN:
                continue
            target = (page.parent / urllib.parse.unquote(parts.path)).resolve() if parts.path else page
            assert target.is_file(), f"{page.relative_to(site)}: {link} points at nothing"
            assert site.resolve() in target.parents, f"{link} leaves the site"
            if parts.fragment and target.suffix == ".html":
                assert parts.fragment in pages[target].ids, f"{page.relative_to(site)}: {link}: no such id"
            checked += 1
    assert checked >= 15
    index = pages[site / "index.html"]
    # Rewritten to outputs, query and fragment kept; external and broken ones as written.
    assert {"sub/guide.html#install", "sub/deep/page.html#closed-leaf", "api.html#errors", "img/logo.png",
            "files/manual.pdf?v=2#page=3", "#home", "https://example.org/a.md", "mailto:a@example.org"} <= set(index.links)
    assert "sub/guide.md" not in (site / "index.html").read_text().replace("<code>[in code](sub/guide.md)</code>", "")
    assert "<code>[in code](sub/guide.md)</code>" in (site / "index.html").read_text()


def test_assets_are_copied_byte_for_byte_and_nothing_else_is(built):
    root, _ = built
    site = root / "site"
    assert outputs(site) == EXPECTED_OUTPUTS
    assert (site / "img/logo.png").read_bytes() == PNG
    assert (site / "files/manual.pdf").read_bytes() == PDF
    for page in site.rglob("*"):
        if page.is_file():
            assert str(root) not in page.read_bytes().decode("utf-8", "replace"), f"{page} holds an absolute path"


def test_broken_links_are_warnings_at_the_link_and_strict_fails(built):
    root, result = built
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert warnings == EXPECTED_WARNINGS
    strict = tool(root, "docs", "-o", "site", "--index", "--strict")
    assert strict.returncode == 1
    assert [l for l in strict.stderr.splitlines() if ": error: " in l] == [w.replace(": warning: ", ": error: ") for w in EXPECTED_WARNINGS]
    github = tool(root, "docs", "-o", "site", "--index", "--error-format", "github")
    assert "::warning file=docs/index.md,line=4,col=58::no section 'instal' in docs/sub/guide.md" in github.stderr
    check = tool(root, "docs", "-o", "site", "--index", "--check", "--strict")
    assert check.returncode == 1 and "no section 'instal'" in check.stderr


def test_a_rerun_writes_nothing_and_a_changed_image_is_copied_again(built):
    root, _ = built
    site = root / "site"
    before = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    again = tool(root, "docs", "-o", "site", "--index")
    assert "0 written" in again.stderr and "0 assets copied" in again.stderr
    assert {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()} == before
    # The warnings of pages skipped as unchanged are said again.
    assert [l for l in again.stderr.splitlines() if ": warning: " in l] == EXPECTED_WARNINGS
    (root / "docs/img/logo.png").write_bytes(PNG + b"\0")
    assert tool(root, "docs", "-o", "site", "--index", "--check").returncode == 1
    third = tool(root, "docs", "-o", "site", "--index")
    assert "1 asset copied" in third.stderr
    assert (site / "img/logo.png").read_bytes() == PNG + b"\0"
    # The record is in the cache folder, not in the site.
    assert outputs(site) == EXPECTED_OUTPUTS
    assert list((root / "cache" / "outline-render").glob("*.record"))


def test_the_index_is_an_outline_of_the_site_and_every_page_links_back(tmp_path):
    make_tree(tmp_path)
    (tmp_path / "docs/index.md").unlink()
    result = tool(tmp_path, "docs", "-o", "site", "--index")
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    index = (site / "index.html").read_text()
    assert '<details id="sub"' in index and '<details id="deep"' in index
    assert '<a href="sub/guide.html">Guide</a>' in index and '<a href="sub/deep/page.html">Page</a>' in index
    for page, back in [("api.html", "index.html"), ("sub/guide.html", "../index.html"), ("sub/deep/page.html", "../../index.html")]:
        assert f'<a href="{back}">↑ Index</a>' in (site / page).read_text()
    # A tree with its own index.md: that page is the index, and the pages link to it.
    make_tree(tmp_path)
    result = tool(tmp_path, "docs", "-o", "site2", "--index")
    assert "made by the tree itself" in tool(tmp_path, "docs", "-o", "site2", "--index", "-v").stderr
    assert '<a href="../index.html">↑ Index</a>' in (tmp_path / "site2/sub/guide.html").read_text()
    assert '↑ Index' not in (tmp_path / "site2/index.html").read_text()


def test_a_single_file_run_leaves_links_alone(tmp_path):
    make_tree(tmp_path)
    html = run(tmp_path / "docs/index.md").stdout
    assert 'href="sub/guide.md#install"' in html


def test_cache_options(tmp_path):
    make_tree(tmp_path)
    assert tool(tmp_path, "docs", "-o", "site", "--cache-dir", "mycache").returncode == 0
    assert len(list((tmp_path / "mycache").glob("*.record"))) == 1
    assert "0 written" in tool(tmp_path, "docs", "-o", "site", "--cache-dir", "mycache").stderr
    shutil.rmtree(tmp_path / "mycache")
    again = tool(tmp_path, "docs", "-o", "site", "--no-cache", "-v")
    assert "0 written" in again.stderr and not (tmp_path / "mycache").exists()
    assert not (tmp_path / "cache").exists()
    # A record an earlier version left in the output folder is removed.
    (tmp_path / "site/.outline-render-cache").write_text("old")
    tool(tmp_path, "docs", "-o", "site")
    assert not (tmp_path / "site/.outline-render-cache").exists()


def test_raw_html_anchors_count_where_raw_html_keeps_them(tmp_path):
    """`<a id>` and `<a name>` are kept as GitHub keeps them (and all raw HTML with --unsafe);
    an `id` on an element GitHub drops (`<font id>`) is no anchor without --unsafe."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text(
        '# A\n\n<a id="raw"></a>Here. <a title="t" name="old"></a> <font id="gone">x</font>\n\n'
        'See [here](#raw), [old](#old) and [gone](#gone).\n')
    safe = tool(tmp_path, "docs", "-o", "site")
    assert "no section 'gone' in this page" in safe.stderr
    assert "'raw'" not in safe.stderr and "'old'" not in safe.stderr
    assert 'id="raw"' in (tmp_path / "site" / "a.html").read_text()
    unsafe = tool(tmp_path, "docs", "-o", "site2", "--unsafe")
    assert "warning" not in unsafe.stderr and 'id="raw"' in (tmp_path / "site2" / "a.html").read_text()
