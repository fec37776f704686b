"""mdBook's own guide (Tests/real/mdbook-guide, its book.toml and src/ as they are) builds as
mdBook lays it out: every chapter of its SUMMARY.md, read by cmark as Markdown and by mdBook's
rules as a summary (prefix chapters, parts, numbered chapters and their nesting, a draft, a
separator, suffix chapters), is in our navigation in that place with that name; every page
is titled `Chapter - Book`; every link between pages lands; nothing else is warned about."""
import html
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import NS, ROOT, TOOL
from test_mdbook_summary import our_navigation

GUIDE = ROOT / "Tests" / "real" / "mdbook-guide"
BOOK = "mdBook Documentation"


@pytest.fixture(scope="module")
def guide(tmp_path_factory):
    site = tmp_path_factory.mktemp("guide") / "site"
    result = subprocess.run([TOOL, GUIDE, "-o", site, "--no-cache"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return site, result.stderr


def summary_navigation():
    """SUMMARY.md as cmark reads it, laid out by mdBook's rules, in our navigation's terms:
    a chapter by its name, one with sub-chapters as [name, name, sub-chapters], a draft as
    ("draft", name), a part as [title, None, its numbered chapters]."""
    xml = subprocess.run(["cmark", "-t", "xml"], input=(GUIDE / "src" / "SUMMARY.md").read_text(encoding="utf-8"),
                         capture_output=True, text=True, check=True).stdout
    document = ET.fromstring(xml)

    def text(element):
        return "".join(e.text or "" for e in element.iter() if e.tag in (NS + "text", NS + "code"))

    def chapters(list_element):
        found = []
        for item in list_element.findall(NS + "item"):
            link = item.find(f"{NS}paragraph/{NS}link")
            nested = item.find(NS + "list")
            name, location = text(link), link.get("destination")
            children = chapters(nested) if nested is not None else []
            if not location and not children:
                found.append(("draft", name))
            else:
                found.append([name, name if location else None, children] if children else name)
        return found

    top, part = [], None
    for block in document:
        if block.tag == NS + "heading" and block is not document[0]:
            part = [text(block), None, []]
            top.append(part)
        elif block.tag == NS + "list":
            (part[2] if part else top).extend(chapters(block))
        elif block.tag == NS + "paragraph":
            # A prefix or suffix chapter: a link alone, never in a part.
            top += [text(link) for link in block.findall(NS + "link")]
    return top


def summary_files():
    source = (GUIDE / "src" / "SUMMARY.md").read_text(encoding="utf-8")
    return {m.group(2): m.group(1) for m in re.finditer(r"\[([^\]]+)\]\(([^)]+\.md)\)", source)}


def test_the_navigation_is_the_guides_summary(guide):
    site, _ = guide
    expected = summary_navigation()
    # (The guide's summary has every kind of entry: checked, so that a change of it is seen.)
    assert [e[0] for e in expected if isinstance(e, list)] == ["User guide", "Reference guide"]
    assert expected[0] == "Introduction" and expected[-1] == "Contributors"
    assert our_navigation(site) == expected


def test_every_chapter_is_titled_as_mdbook_titles_it(guide):
    site, _ = guide
    files = summary_files()
    assert len(files) == 31
    for source, name in files.items():
        page = site / re.sub(r"README\.md$", "index.md", source).replace(".md", ".html")
        title = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"), re.S).group(1)
        assert html.unescape(title) == f"{name} - {BOOK}", source


def test_only_the_includes_of_files_outside_the_book_are_warned_about(guide):
    _, stderr = guide
    warnings = [line for line in stderr.splitlines() if "warning" in line]
    assert len(warnings) == 2, stderr
    for line, warning in zip((42, 69), warnings):
        assert warning.startswith(f"{GUIDE}/src/for_developers/preprocessors.md:{line}:1: warning: the included file ")
        assert "is not found" in warning


def test_every_link_between_pages_lands(guide):
    site, _ = guide
    checked = 0
    for page in site.rglob("*.html"):
        if "outline-site" in page.parts:
            continue
        text = page.read_text(encoding="utf-8")
        ids = set(re.findall(r'\sid="([^"]+)"', text))
        for href in re.findall(r'<a [^>]*href="([^"#:]*\.html)?(?:#([^"]*))?"', text):
            target, fragment = href
            if not target and not fragment:
                continue
            landing = (page.parent / html.unescape(target)).resolve() if target else page
            assert landing.exists(), (page, target)
            if fragment and target:
                assert f'id="{fragment}"' in landing.read_text(encoding="utf-8"), (page, target, fragment)
            elif fragment:
                assert html.unescape(fragment) in ids, (page, fragment)
            checked += 1
    assert checked > 100


def test_the_books_settings_are_used(guide):
    site, _ = guide
    page = (site / "guide" / "creating.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in page
    # `smart-punctuation = true`: prose gets curly quotes, code keeps straight ones.
    assert "\u2019" in page or "\u201c" in page
    assert "https://github.com/rust-lang/mdBook/edit/master/guide/src/guide/creating.md" in page


def test_the_guides_redirect_is_written_as_mdbook_writes_it(guide):
    site, _ = guide
    # `[output.html.redirect] "/format/config.html" = "configuration/index.html"`: from the
    # old page's folder, as mdBook resolves it.
    page = (site / "format" / "config.html").read_text(encoding="utf-8")
    assert '<meta http-equiv="refresh" content="0; url=configuration/index.html">' in page
    assert (site / "format" / "configuration" / "index.html").exists()


def test_redirects_that_cannot_be_written_are_said_where_they_are(tmp_path):
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text(
        '[book]\ntitle = "B"\n[output.html.redirect]\n"/old.html" = "new.html#x"\n"/gone/a.html" = "../nowhere.html"\n'
        '"/new.html" = "a.html"\n"/../../escape.html" = "new.html"\n"/ext.html" = "https://example.org/"\n"/bad.html" = 3\n')
    (book / "src" / "SUMMARY.md").write_text("- [New](new.md)\n")
    (book / "src" / "new.md").write_text("# New\n\n## X\n")
    result = subprocess.run([TOOL, book, "-o", tmp_path / "site"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for line, message in ((5, "'../nowhere.html' leads to no page of the site from '/gone/a.html'"),
                          (6, "'/new.html' is a page of the site; it is kept, not redirected"),
                          (7, "'/../../escape.html' is not a page's path in the site")):
        assert f"book.toml:{line}:1: warning: output.html.redirect: {message}" in result.stderr
    assert "book.toml:9:1: warning: output.html.redirect '/bad.html' is not a string; it is not used" in result.stderr
    site = tmp_path / "site"
    assert 'url=new.html#x"' in (site / "old.html").read_text()
    assert 'url=https://example.org/"' in (site / "ext.html").read_text()
    assert (site / "gone" / "a.html").exists()  # written all the same, as mdBook writes it
    assert "<h1" in (site / "new.html").read_text() and not (tmp_path / "escape.html").exists()
