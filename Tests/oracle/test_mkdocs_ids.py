"""The ids mkdocs gives headings (Python-Markdown's toc extension, its default slugify, `_1`
suffixes) are in our pages beside our own GitHub-style ids, on the same sections, so that
links written for an mkdocs site find their sections. Python-Markdown is the oracle."""
import random
import re
import subprocess

import markdown
import pytest

from conftest import TOOL, run

EXTENSIONS = ["toc", "attr_list", "admonition"]

# Heading texts that mkdocs and GitHub slug differently, and some they slug alike.
WORDS = ["Templates", "Usage", "API", "v1.0", "Foo & Bar", "A / B", "Über uns", "Crème brûlée",
         "naïve café", "Ǆungla", "ﬁle", "x_1", "x", "Q&A", "--flag", "C++", "日本語", "Ωmega",
         "`code` span", "*emphasis* here", "[a link](x.md) text", "a&nbsp;b", "1.2.3 - notes",
         "What's new?", "  spaced  out  ", "_private", "Version_2", "Α/Β", "Đorđe", "Ørsted"]


def mkdocs_ids(text):
    """The ids of the headings mkdocs makes of `text`, in document order."""
    html = markdown.markdown(text, extensions=EXTENSIONS)
    return re.findall(r'<h[1-6][^>]* id="([^"]*)"', html)


# A heading of ours: its id, and the id mkdocs gives it when that is another.
_HEADING = re.compile(
    r'<(?:details|h[1-6])(?: [^>]*)? id="([^"]*)"[^>]*>'
    r'(?:<summary><span class="outline-title[^"]*">)?(?:<span id="([^"]*)"></span>)?')


def our_ids(text):
    """For each heading of our page of `text`, in document order: its own id, and the
    mkdocs id it carries (or None)."""
    html = run("-", "--from", "markdown", "--fragment", input=text).stdout
    return [(m.group(1), m.group(2)) for m in _HEADING.finditer(html)]


def check(text):
    """Each heading answers to the id mkdocs gives it, unless that is another heading's own
    id (a page's own ids come first); no id is twice in the page. Returns how many headings
    gave way so."""
    theirs = mkdocs_ids(text)
    ours = our_ids(text)
    assert len(ours) == len(theirs), (text, ours, theirs)
    own = [id for id, _ in ours]
    every = own + [alias for _, alias in ours if alias]
    assert len(every) == len(set(every)), (text, every)
    gave_way = 0
    for number, ((id, alias), expected) in enumerate(zip(ours, theirs)):
        if expected in (id, alias):
            continue
        assert expected in own and alias is None, (text, number, id, alias, expected)
        gave_way += 1
    return gave_way


def test_the_usual_differences():
    check("# Handlers\n\n## Templates\n\n## Custom\n\n### Templates\n\nsee [t](#templates_1)\n\n"
          "### Cross-references to other projects / inventories\n\n## Foo & Bar\n")


def test_headings_in_blocks_and_stated_ids():
    check("# Top\n\n!!! note\n\n    ## Inside & out\n\n    text\n\n> ## Quoted / heading\n\n"
          "- ## In a list\n\n## Stated {#inside-out}\n\n## Inside & out\n\n## Top\n")


def test_titles_repeated_take_the_next_free_suffix():
    check("".join(f"## {title}\n\ntext\n\n" for title in ["x", "x", "x", "Version_2", "Version_2", "Version_2"]))


def test_an_id_of_our_own_comes_first():
    # mkdocs gives the second "x" `x_1`, which here is the third heading's own id.
    assert check("".join(f"## {title}\n\ntext\n\n" for title in ["x", "x", "x_1", "x_2", "x", "x_1"])) > 0


def test_an_empty_slug():
    check("# 日本語\n\n## !!!\n\n## 日本語\n")


@pytest.mark.parametrize("seed", range(40))
def test_random_documents(seed):
    chooser = random.Random(seed)
    lines = []
    for _ in range(chooser.randrange(3, 25)):
        level = chooser.randrange(1, 5)
        title = " ".join(chooser.choice(WORDS) for _ in range(chooser.randrange(1, 3))).strip()
        kind = chooser.random()
        if kind < 0.1:
            lines.append(f"> {'#' * level} {title}\n")
        elif kind < 0.2:
            lines.append(f"!!! note\n\n    {'#' * level} {title}\n\n    text\n")
        else:
            lines.append(f"{'#' * level} {title}\n\ntext\n")
    check("\n".join(lines))


def make_site(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\n## Setup\n\nfirst\n\n## More {.collapsed}\n\n### Setup\n\n"
                               "the second setup\n\n### Q&A / more\n\nanswers\n")
    (docs / "b.md").write_text("# B\n\n[second setup](a.md#setup_1) and [answers](a.md#qa-more), "
                               "[the GitHub way](a.md#setup-1), [nowhere](a.md#setup_2)\n")
    return subprocess.run([TOOL, docs, "-o", tmp_path / "site", "--no-cache"], capture_output=True, text=True)


def test_a_site_link_written_for_mkdocs_lands_on_its_section(tmp_path):
    result = make_site(tmp_path)
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "no section 'setup_2'" in warnings[0], result.stderr
    page = (tmp_path / "site/a.html").read_text()
    assert re.search(r'<details id="setup-1"[^>]*><summary><span class="outline-title[^"]*"><span id="setup_1"></span>Setup', page)
    assert re.search(r'<span id="qa-more"></span>Q&amp;A / more', page)
    ids = re.findall(r' id="([^"]*)"', page)
    assert len(ids) == len(set(ids)), "no id twice"


@pytest.mark.parametrize("javascript", [True, False])
def test_following_one_opens_the_closed_section_it_names(tmp_path, javascript):
    from selenium.webdriver.common.by import By
    from test_browser import make_driver
    assert make_site(tmp_path).returncode == 0
    driver = make_driver(javascript=javascript)
    try:
        driver.get((tmp_path / "site/a.html").as_uri())
        assert not driver.find_element(By.ID, "setup-1").is_displayed(), "closed at first"
        driver.get((tmp_path / "site/b.html").as_uri())
        driver.find_element(By.LINK_TEXT, "second setup").click()
        assert driver.current_url.endswith("a.html#setup_1")
        assert driver.find_element(By.ID, "more").get_attribute("open") == "true"
        assert driver.find_element(By.ID, "setup-1").is_displayed()
    finally:
        driver.quit()


def test_the_table_of_characters_is_what_unicodedata_says():
    import sys
    from conftest import ROOT
    result = subprocess.run([sys.executable, ROOT / "scripts/mkdocs-slug-table", "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_character_of_the_table():
    # One heading per character that keeps something in mkdocs' slug, and every 97th other.
    import unicodedata
    def keeps(c):
        return re.sub(r"[^\w\s-]", "", unicodedata.normalize("NFKD", chr(c)).encode("ascii", "ignore").decode()) != ""
    chosen = [c for c in range(0xA0, 0x20000) if (keeps(c) or c % 97 == 0) and chr(c).isprintable()
              and (not chr(c).isspace() or c in (0xA0, 0x2002, 0x2003))]
    assert len(chosen) > 2000
    text = "".join(f"## a{chr(c)}b {chr(c)}\n\n" for c in chosen)
    # (A few give way: the Kelvin sign's heading has, as its own id, `akb-k`, which is
    # mkdocs' id of `aķb ķ`.)
    assert check(text) < 5
