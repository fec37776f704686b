"""An mdBook project's SUMMARY.md lays out its site (docs/sites.md, "mdBook projects").

mdBook has no build here, so the oracle is its summary parser's own test suite
(mdbook-summary's `lib.rs`, commit 641d06a, MPL-2.0): each source below is one of its
tests, and the structure it expects (chapters, their nesting, parts, drafts, separators)
is transcribed as mdBook's test states it. Our site's navigation must have that
structure: a chapter with sub-chapters is a folder whose page is the chapter's (never a
second folder entry), a part a titled folder of the numbered chapters after it, a draft
an entry without a link, prefix and suffix chapters at the top."""
import json
import re
import subprocess

import pytest

from conftest import TOOL


def link(name, location, nested=()):
    """mdBook's `SummaryItem::Link` (location None: a draft)."""
    return ("link", name, location, list(nested))


def part(title):
    return ("part", title)


SEPARATOR = ("separator",)

# (source, mdBook's items as its test expects them; prefix, numbered and suffix in order.)
CASES = {
    "parse_some_prefix_items": ("[First](./first.md)\n[Second](./second.md)\n",
                                [link("First", "first.md"), link("Second", "second.md")]),
    "parse_prefix_items_with_a_separator": ("[First](./first.md)\n\n---\n\n[Second](./second.md)\n",
                                            [link("First", "first.md"), SEPARATOR, link("Second", "second.md")]),
    "parse_nested_numbered_chapters": ("- [First](./first.md)\n  - [Nested](./nested.md)\n- [Second](./second.md)",
                                       [link("First", "first.md", [link("Nested", "nested.md")]), link("Second", "second.md")]),
    "parse_numbered_chapters_separated_by_comment": ("- [First](./first.md)\n<!-- this is a comment -->\n- [Second](./second.md)",
                                                     [link("First", "first.md"), link("Second", "second.md")]),
    "parse_titled_parts": ("- [First](./first.md)\n- [Second](./second.md)\n# Title 2\n- [Third](./third.md)\n\t- [Fourth](./fourth.md)",
                           [link("First", "first.md"), link("Second", "second.md"), part("Title 2"),
                            link("Third", "third.md", [link("Fourth", "fourth.md")])]),
    "can_have_a_subheader_between_nested_items": ("- [First](./first.md)\n\n## Subheading\n\n- [Second](./second.md)\n",
                                                  [link("First", "first.md"), link("Second", "second.md")]),
    "an_empty_link_location_is_a_draft_chapter": ("- [Empty]()\n", [link("Empty", None)]),
    "keep_numbering_after_separator": ("- [First](./first.md)\n---\n- [Second](./second.md)\n---\n- [Third](./third.md)\n",
                                       [link("First", "first.md"), SEPARATOR, link("Second", "second.md"), SEPARATOR,
                                        link("Third", "third.md")]),
    "add_space_for_multi_line_chapter_names": ("- [Chapter\ntitle](./chapter.md)", [link("Chapter title", "chapter.md")]),
    "allow_space_in_link_destination": ("- [test1](./test%20link1.md)\n- [test2](<./test link2.md>)",
                                        [link("test1", "test link1.md"), link("test2", "test link2.md")]),
    # (mdBook's `parse_initial_title` and the whole of a summary with every piece.)
    "every_piece": ("# Summary\n\n[Intro](intro.md)\n\n---\n\n- [Hello](hello.md)\n    - [Comments](hello/comment.md)\n"
                    "- [Later]()\n\n# Reference\n\n- [Types](types.md)\n\n---\n\n[Thanks](thanks.md)\n",
                    [link("Intro", "intro.md"), SEPARATOR, link("Hello", "hello.md", [link("Comments", "hello/comment.md")]),
                     link("Later", None), part("Reference"), link("Types", "types.md"), SEPARATOR, link("Thanks", "thanks.md")]),
}


def expected_navigation(items):
    """mdBook's items as our navigation shows them: a chapter by its name, one with
    sub-chapters as [name, its page's name, sub-chapters], a part as [title, None,
    chapters], a draft as ("draft", name); separators draw nothing."""
    def chapter(item):
        _, name, location, nested = item
        if location is None and not nested:
            return ("draft", name)
        return [name, name if location else None, [chapter(n) for n in nested]] if nested else name
    top, current = [], None
    for item in items:
        if item[0] == "part":
            current = [item[1], None, []]
            top.append(current)
        elif item[0] == "link":
            # (Only list chapters, the numbered ones, belong to a part; the tests' links
            # after a part are all numbered but "Thanks", a suffix chapter.)
            (current[2] if current is not None and item[1] != "Thanks" else top).append(chapter(item))
    return top


def files_of(items):
    for item in items:
        if item[0] == "link":
            if item[2]:
                yield item[2]
            yield from files_of(item[3])


def our_navigation(site):
    data = json.loads(re.search(r"outlineSiteNavigation\((.*)\);", (site / "outline-site" / "nav.js").read_text(), re.S).group(1))
    pages = data["pages"]

    def node(entry):
        if isinstance(entry, int):
            return pages[entry][1]
        if isinstance(entry, dict):
            return ("draft", entry["title"]) if not entry["url"] else entry["title"]
        return [entry[0], pages[entry[1]][1] if entry[1] >= 0 else None, [node(e) for e in entry[2:]]]
    return [node(e) for e in data["tree"][2:]]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_navigation_is_the_summary_as_mdbook_parses_it(tmp_path, name):
    source, items = CASES[name]
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text('[book]\ntitle = "Book"\n')
    (book / "src" / "SUMMARY.md").write_text(source)
    for file in files_of(items):
        (book / "src" / file).parent.mkdir(parents=True, exist_ok=True)
        (book / "src" / file).write_text(f"# Page of {file}\n\ntext\n")
    (book / "src" / "not-in-summary.md").write_text("# Left out\n")
    result = subprocess.run([TOOL, "book", "-o", "site", "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    assert our_navigation(tmp_path / "site") == expected_navigation(items)
    # (Given the book's folder, the site is its `src`; a page left out of SUMMARY.md is
    # built, in no navigation, as mdBook leaves it unlisted.)
    assert (tmp_path / "site" / "not-in-summary.html").exists()


def test_what_summary_names_wrongly_is_said_where_it_is(tmp_path):
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text("[book]\n")
    (book / "src" / "SUMMARY.md").write_text("- [A](a.md)\n- Not a link\n- [Gone](gone.md)\n\n[Suffix](a.md)\n\n- [Late](a.md)\n")
    (book / "src" / "a.md").write_text("# A\n")
    result = subprocess.run([TOOL, "book", "-o", "site", "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "book/src/SUMMARY.md:2:3: warning: an item of SUMMARY.md's chapters does not start with a link" in result.stderr
    assert "book/src/SUMMARY.md:3:3: warning: SUMMARY.md names 'gone.md', which is not a page of the site" in result.stderr
    assert "book/src/SUMMARY.md:7:1: warning: mdBook's suffix chapters cannot be followed by a list or a part" in result.stderr
    assert our_navigation(tmp_path / "site") == ["A", "A"]


def test_book_toml_names_the_site_and_gives_its_links(tmp_path):
    book = tmp_path / "book"
    (book / "pages" / "guide").mkdir(parents=True)
    (book / "book.toml").write_text(
        '[book]\ntitle = "The Book"\nsrc = "pages"\nlanguage = "fr"\nauthors = ["A", "B"]\n\n[output.html]\n'
        'git-repository-url = "https://github.com/me/book"\nedit-url-template = "https://github.com/me/book/edit/main/{path}"\n'
        '\n[output.html.playground]\neditable = true\n')
    (book / "pages" / "SUMMARY.md").write_text("[Intro](README.md)\n\n- [Guide](guide/start.md)\n")
    (book / "pages" / "README.md").write_text("{{#title Welcome aboard}}\n# Welcome\n")
    (book / "pages" / "guide" / "start.md").write_text("# Getting started\n")
    result = subprocess.run([TOOL, "book", "-o", "site", "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    page = (tmp_path / "site" / "guide" / "start.html").read_text()
    # (mdBook titles a chapter's page by its SUMMARY.md name and the book's title.)
    assert "<title>Guide - The Book</title>" in page
    # (mdBook's `<html lang>` is `book.language`.)
    assert '<html lang="fr">' in page
    # (`{{#title …}}` is the page's whole <title>, and no text of it: mdBook's renderer.)
    intro = (tmp_path / "site" / "index.html").read_text()
    assert "<title>Welcome aboard</title>" in intro and "{{#title" not in intro
    # (mdBook titles the first chapter, the site's index, as any other: `Intro - The Book`.)
    (book / "pages" / "README.md").write_text("# Welcome\n")
    subprocess.run([TOOL, "book", "-o", "site", "--no-cache"], cwd=tmp_path, check=True, capture_output=True)
    assert "<title>Intro - The Book</title>" in (tmp_path / "site" / "index.html").read_text()
    assert 'href="https://github.com/me/book"' in page
    assert 'href="https://github.com/me/book/edit/main/pages/guide/start.md"' in page
    assert our_navigation(tmp_path / "site") == ["Intro", "Guide"]


@pytest.mark.parametrize("toml, message", [
    ('[book]\ntitle = 1\n', "book.toml:2:1: warning: book.title is not a string; it is not used"),
    ('[book]\ntitle = "x"\nsrc = "../elsewhere"\n', "book.toml:3:1: warning: book.src '../elsewhere' is not inside the book's folder"),
    ('[book\ntitle = "x"\n', "book.toml:1:6: warning: a table header is not closed with ]; the book is read with mdBook's defaults"),
    ('[book]\ntitle = "x"\ntitle = "y"\n', "book.toml:3:1: warning: the key title is defined a second time"),
    ('[book]\ncreated = 2024-01-01\n', "book.toml:2:11: warning: dates and times are not read here"),
])
def test_a_bad_book_toml_is_a_located_warning_and_the_book_is_built(tmp_path, toml, message):
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text(toml)
    (book / "src" / "SUMMARY.md").write_text("- [A](a.md)\n")
    (book / "src" / "a.md").write_text("# A\n")
    result = subprocess.run([TOOL, "book", "-o", "site", "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "book/" + message in result.stderr, result.stderr
    assert our_navigation(tmp_path / "site") == ["A"]


@pytest.mark.parametrize("setting", ["", "[output.html]\nsmart-punctuation = false\n"])
def test_smart_punctuation_as_mdbook_0_5_sets_it(tmp_path, setting):
    """mdBook 0.5 turns smart punctuation on by default (`output.html.smart-punctuation`):
    curly quotes, dashes and an ellipsis in text, never in code. cmark's own `--smart` is
    the oracle of the paragraph, and plain cmark with it turned off."""
    text = "\"Quoted\" -- 'single' --- it's... `\"code\" -- x`"
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text('[book]\ntitle = "B"\n' + setting)
    (book / "src" / "SUMMARY.md").write_text("- [A](a.md)\n")
    (book / "src" / "a.md").write_text(f"# A\n\n{text}\n")
    result = subprocess.run([TOOL, "book", "-o", "site", "--no-cache"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    options = [] if setting else ["--smart"]
    expected = subprocess.run(["cmark", *options], input=text, capture_output=True, text=True, check=True).stdout.strip()
    assert expected in (tmp_path / "site" / "a.html").read_text()
    assert ("“Quoted”" in expected) == (not setting)
