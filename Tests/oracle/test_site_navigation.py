"""A docs site people can find their way in (docs/sites.md): the navigation on every page (in
the browser with and without script), previous / next in reading order, the order rules
(index first, SUMMARY.md, front matter order:, title), the site search, --site-url, reruns,
and output that grows linearly with the pages."""
import html
import html.parser
import json
import pathlib
import re
import time
import urllib.parse
import xml.etree.ElementTree as ET

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from test_browser import make_driver
from test_docs_site import tool

TREE = {
    "docs/index.md": "# Welcome\n\nThe home page.\n",
    "docs/zeta.md": "---\norder: 1\n---\n# Zeta first\n\nOrdered first by `order: 1`.\n",
    "docs/alpha.md": "# Alpha\n\nAlpha's text.\n\n## Setup {.collapsed}\n\n### Deep inside {.collapsed}\n\nThe word quetzalcoatl is in a closed section.\n",
    "docs/beta.md": "---\norder: two\n---\n# Beta & \"quotes\" <i>too</i>\n\nBeta's text with Crème brûlée.\n",
    "docs/guide/README.md": "# The guide\n\nThe guide's index.\n",
    "docs/guide/first.md": "# First steps\n\n<details><summary>More</summary>\n\nA xylophone hides in this block.\n\n</details>\n",
    "docs/guide/second.md": "# Second steps\n\nSecond.\n",
    "docs/book/SUMMARY.md": (
        "# Summary\n\n[Intro](intro.md)\n\n- [Chapter B, by the summary](b.md)\n- [Chapter A](a.md)\n"
        "    - [Missing](nope.md)\n- [Outside](../../outside.md)\n- [Twice](b.md)\n- [Draft]()\n"
    ),
    "docs/book/intro.md": "# Introduction\n\nIntro.\n",
    "docs/book/a.md": "# A chapter\n\nA.\n",
    "docs/book/b.md": "# B chapter\n\nB.\n",
    "outside.md": "# Outside\n",
}
# Reading order: each folder's index first, then order:, SUMMARY.md, then by title.
ORDER = ["index.html", "zeta.html", "alpha.html", "beta.html", "book/intro.html", "book/b.html", "book/a.html",
         "guide/index.html", "guide/first.html", "guide/second.html"]


def make(root, tree=TREE):
    for name, content in tree.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


class Links(html.parser.HTMLParser):
    """The pager's links and the page's canonical link."""

    def __init__(self, text):
        super().__init__()
        self.pager, self.canonical, self.inside = {}, None, False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "nav" and attrs.get("class") == "outline-pager":
            self.inside = True
        if tag == "a" and self.inside:
            self.pager[attrs["rel"]] = attrs["href"]
        if tag == "link" and attrs.get("rel") == "canonical":
            self.canonical = attrs["href"]

    def handle_endtag(self, tag):
        if tag == "nav":
            self.inside = False


def script_value(path, name):
    """The JSON value a shared script passes to its function."""
    text = path.read_text()
    assert text.startswith(name + "(") and text.rstrip().endswith(");"), text[:80]
    return json.loads(text[len(name) + 1:text.rstrip().rindex(")")])


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("navigation")
    make(root)
    result = tool(root, "docs", "-o", "site", "--site-url", "https://example.org/docs")
    assert result.returncode == 0, result.stderr
    return root, result


def test_reading_order_and_warnings(site):
    root, result = site
    data = script_value(root / "site/outline-site/nav.js", "outlineSiteNavigation")
    pages = [page[0] for page in data["pages"]]

    def reading(folder):
        order = [pages[folder[1]]] if folder[1] >= 0 else []
        for entry in folder[2:]:
            order += [pages[entry]] if isinstance(entry, int) else reading(entry)
        return order

    assert reading(data["tree"]) == ORDER
    titles = {page[0]: page[1] for page in data["pages"]}
    assert titles["book/b.html"] == "Chapter B, by the summary" and titles["book/a.html"] == "Chapter A"
    assert titles["beta.html"] == 'Beta & "quotes" too'
    assert "book/SUMMARY.html" not in pages
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert "docs/beta.md:2:8: warning: order must be a number" in "\n".join(warnings)
    assert "docs/book/SUMMARY.md:7:7: warning: SUMMARY.md names 'nope.md', which is not a page of the site" in warnings
    assert "docs/book/SUMMARY.md:8:3: warning: SUMMARY.md names '../../outside.md', which is outside the site" in warnings
    assert "docs/book/SUMMARY.md:9:3: warning: SUMMARY.md names 'b.md' a second time; its first place is kept" in warnings
    assert not (root / "outside.html").exists() and not (root / "site/outside.html").exists()


def test_a_folder_without_an_index_is_titled_as_mkdocs_titles_it(tmp_path):
    # mkdocs' own function (mkdocs.utils.dirname_to_title) is the oracle, in the navigation
    # and in the generated --index page.
    from mkdocs.utils import dirname_to_title
    names = ["how-to", "API_v2", "release_notes", "Été-x", "v1.0", "MixedCase-name"]
    make(tmp_path, {f"docs/{name}/page.md": f"# A page in {name}\n" for name in names})
    result = tool(tmp_path, "docs", "-o", "site", "--index")
    assert result.returncode == 0, result.stderr
    data = script_value(tmp_path / "site/outline-site/nav.js", "outlineSiteNavigation")
    titles = sorted(entry[0] for entry in data["tree"][2:] if isinstance(entry, list))
    assert titles == sorted(dirname_to_title(name) for name in names)
    assert "How to" in titles and "API v2" in titles  # (the oracle is not the identity)
    index = (tmp_path / "site/index.html").read_text()
    for name in names:
        assert f">{html.escape(dirname_to_title(name))}</" in index, name


def test_a_page_without_a_title_is_titled_by_its_name_as_mkdocs_titles_it(tmp_path):
    # mkdocs' Page.title turns a file name into a title by the same rule as its
    # dirname_to_title (the oracle): in the navigation, the page's <title> and the --index page.
    from mkdocs.utils import dirname_to_title
    names = ["getting-started", "pageTitle", "release_notes", "faq"]
    make(tmp_path, {f"docs/{name}.md": "Text, and no heading.\n" for name in names})
    result = tool(tmp_path, "docs", "-o", "site", "--index")
    assert result.returncode == 0, result.stderr
    data = script_value(tmp_path / "site/outline-site/nav.js", "outlineSiteNavigation")
    titles = {page[0]: page[1] for page in data["pages"]}
    assert titles == {f"{name}.html": dirname_to_title(name) for name in names}
    assert titles["getting-started.html"] == "Getting started"  # (the oracle is not the identity)
    index = (tmp_path / "site/index.html").read_text()
    for name in names:
        assert f"<title>{dirname_to_title(name)}</title>" in (tmp_path / f"site/{name}.html").read_text()
        assert f">{dirname_to_title(name)}</a>" in index, name


def test_previous_and_next_follow_the_reading_order(site):
    root, _ = site
    for place, page in enumerate(ORDER):
        links = Links((root / "site" / page).read_text())
        folder = (root / "site" / page).parent
        expected = {}
        if place > 0:
            expected["prev"] = ORDER[place - 1]
        if place + 1 < len(ORDER):
            expected["next"] = ORDER[place + 1]
        got = {rel: str((folder / urllib.parse.unquote(href)).resolve().relative_to((root / "site").resolve()))
               for rel, href in links.pager.items()}
        assert got == expected, page
        assert links.canonical == "https://example.org/docs/" + page


def test_sitemap_and_site_url(site, tmp_path):
    root, _ = site
    tree = ET.parse(root / "site/sitemap.xml")
    namespace = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    urls = [loc.text for loc in tree.iter(namespace + "loc")]
    assert urls == ["https://example.org/docs/" + page for page in ORDER]
    # Without --site-url: no canonical link, no sitemap.
    make(tmp_path)
    assert tool(tmp_path, "docs", "-o", "plain").returncode == 0
    assert not (tmp_path / "plain/sitemap.xml").exists()
    assert 'rel="canonical"' not in (tmp_path / "plain/alpha.html").read_text()
    bad = tool(tmp_path, "docs", "-o", "bad", "--site-url", "example.org")
    assert bad.returncode == 2 and "--site-url" in bad.stderr and not (tmp_path / "bad").exists()


def test_search_index_holds_every_section_with_escaped_data(site):
    root, _ = site
    pages = script_value(root / "site/outline-site/search.js", "outlineSiteSearch")
    texts = {(s[0], s[1]): s[2] for _, sections, _ in pages for s in sections}
    assert "quetzalcoatl" in texts[("deep-inside", "Deep inside")]
    assert any("xylophone" in text for text in texts.values())
    assert ("beta--quotes-too", 'Beta & "quotes" too') in texts


def test_a_rerun_writes_nothing_and_a_new_title_rewrites_the_neighbours(tmp_path):
    make(tmp_path)
    assert tool(tmp_path, "docs", "-o", "site").returncode == 0
    again = tool(tmp_path, "docs", "-o", "site")
    assert "11 unchanged" in again.stderr and "0 written" in again.stderr, again.stderr
    (tmp_path / "docs/alpha.md").write_text("# Aardvark\n\nRenamed.\n")
    changed = tool(tmp_path, "docs", "-o", "site")
    assert changed.returncode == 0
    # The page itself and its neighbours (whose pager names it) are written again.
    assert "Aardvark" in (tmp_path / "site/zeta.html").read_text()
    assert "Aardvark" in (tmp_path / "site/beta.html").read_text()
    assert "Aardvark" in (tmp_path / "site/outline-site/nav.js").read_text()
    written = re.search(r"(\d+) written", changed.stderr)
    assert written and int(written.group(1)) < 11, changed.stderr
    # The search index has the new text, and the other pages' from the index written before.
    index = (tmp_path / "site/outline-site/search.js").read_text()
    assert "Renamed." in index and "xylophone" in index and "quetzalcoatl" not in index
    # An index changed by hand is rebuilt whole, the unchanged pages read again.
    (tmp_path / "site/outline-site/search.js").write_text("outlineSiteSearch([]);\n")
    (tmp_path / "docs/beta.md").write_text("# Beta\n\nNew beta.\n")
    assert tool(tmp_path, "docs", "-o", "site").returncode == 0
    index = (tmp_path / "site/outline-site/search.js").read_text()
    assert "New beta." in index and "xylophone" in index and "Renamed." in index


@pytest.fixture(scope="module")
def browser():
    driver = make_driver()
    driver.set_window_size(1400, 900)
    yield driver
    driver.quit()


def test_the_navigation_reaches_every_page_and_marks_the_current_one(site, browser):
    root, _ = site
    for page in ORDER:
        browser.get((root / "site" / page).as_uri())
        tree = browser.find_element(By.CSS_SELECTOR, ".outline-site-tree")
        links = [a.get_attribute("href") for a in tree.find_elements(By.TAG_NAME, "a")]
        assert sorted(links) == sorted((root / "site" / p).as_uri() for p in ORDER)
        current = tree.find_elements(By.CSS_SELECTOR, "a[aria-current=page]")
        assert [a.get_attribute("href") for a in current] == [(root / "site" / page).as_uri()]
        assert current[0].is_displayed(), "the current page's branch is open"


def test_search_finds_a_closed_section_on_another_page_and_opens_it(site, browser):
    root, _ = site
    browser.get((root / "site/guide/second.html").as_uri())
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    field = browser.switch_to.active_element
    assert field.get_attribute("id") == "outline-render:search"
    field.send_keys("QUETZALCOATL")
    results = browser.find_element(By.ID, "outline-render:results")
    deadline = time.time() + 5
    while time.time() < deadline and "Deep inside" not in results.text:
        time.sleep(0.05)
    assert "Alpha › Deep inside" in results.text
    assert results.find_element(By.TAG_NAME, "mark").text.lower() == "quetzalcoatl"
    field.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    deadline = time.time() + 5
    while time.time() < deadline and not browser.current_url.endswith("alpha.html#deep-inside"):
        time.sleep(0.05)
    assert browser.current_url.endswith("alpha.html#deep-inside")
    assert browser.find_element(By.ID, "deep-inside").get_attribute("open") == "true"
    assert browser.find_element(By.ID, "setup").get_attribute("open") == "true"
    # Accents and case aside; text inside a closed block.
    field = browser.find_element(By.ID, "outline-render:search")
    results = browser.find_element(By.ID, "outline-render:results")
    field.send_keys("creme BRULEE")
    deadline = time.time() + 5
    while time.time() < deadline and "Beta" not in results.text:
        time.sleep(0.05)
    assert "Crème brûlée" in results.text
    field.clear()
    field.send_keys("xylophone")
    deadline = time.time() + 5
    while time.time() < deadline and "First steps" not in results.text:
        time.sleep(0.05)
    assert "First steps" in results.text


def test_without_script_the_navigation_is_a_frame_and_nothing_dead_shows(site):
    root, _ = site
    driver = make_driver(javascript=False)
    try:
        driver.set_window_size(1400, 900)
        driver.get((root / "site/book/a.html").as_uri())
        assert not driver.find_element(By.CLASS_NAME, "outline-site-search").is_displayed()
        assert not driver.find_element(By.CLASS_NAME, "outline-controls").is_displayed()
        pager = driver.find_element(By.CLASS_NAME, "outline-pager")
        assert "B chapter" in pager.text or "Chapter B" in pager.text
        driver.find_element(By.CSS_SELECTOR, ".outline-site-menu summary").click()
        frame = driver.find_element(By.CLASS_NAME, "outline-site-frame")
        assert frame.is_displayed()
        driver.switch_to.frame(frame)
        links = [a.get_attribute("href") for a in driver.find_elements(By.TAG_NAME, "a")]
        assert sorted(links) == sorted((root / "site" / p).as_uri() for p in ORDER)
        driver.find_element(By.LINK_TEXT, "Zeta first").click()
        driver.switch_to.default_content()
        assert driver.current_url.endswith("/site/zeta.html")
    finally:
        driver.quit()


def generated(root, count):
    """`count` small pages in folders of 100, each with three sections."""
    for number in range(count):
        path = root / f"part{number // 100:03}" / f"page{number:05}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Page {number}\n\nAbout topic {number}.\n\n## Usage\n\nUse it.\n\n## Notes\n\nNone.\n")


def total_bytes(folder):
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_output_bytes_grow_linearly_with_the_pages(tmp_path):
    sizes = {}
    for count in (1000, 10000):
        generated(tmp_path / f"tree{count}", count)
        result = tool(tmp_path, f"tree{count}", "-o", f"site{count}", "-q", "--no-cache")
        assert result.returncode == 0, result.stderr
        sizes[count] = total_bytes(tmp_path / f"site{count}")
        # No page holds the whole navigation: a page's size does not depend on the site's.
        page = tmp_path / f"site{count}/part000/page00000.html"
        sizes[f"page{count}"] = page.stat().st_size
    assert sizes[10000] <= 11 * sizes[1000], sizes
    assert abs(sizes["page10000"] - sizes["page1000"]) < 200, sizes


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_for_the_readme(browser, tmp_path, scheme):
    """docs/site-SCHEME.png, shown in the README, made by every run from Examples/docs: wide
    and light with a search typed; narrow and dark with the pages' outline open."""
    from conftest import EXAMPLES, ROOT
    result = tool(tmp_path, EXAMPLES / "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        if scheme == "light":
            browser.set_window_size(1300, 800)
            browser.get((tmp_path / "site/guide/install.html").as_uri())
            field = browser.find_element(By.ID, "outline-render:search")
            field.send_keys("install")
            deadline = time.time() + 5
            while time.time() < deadline and not browser.find_elements(By.CSS_SELECTOR, "#outline-render\\:results a"):
                time.sleep(0.05)
        else:
            browser.set_window_size(500, 900)
            browser.get((tmp_path / "site/guide/install.html").as_uri())
            browser.find_element(By.CSS_SELECTOR, ".outline-site-menu summary").click()
        path = ROOT / "docs" / f"site-{scheme}.png"
        assert browser.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
    finally:
        browser.set_window_size(1400, 900)
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_titles_show_their_markdown_in_navigation_pager_and_search(tmp_path, browser):
    # A title's code spans are code wherever the site shows it, never backticks; its link
    # and anchor are not nested in the navigation's link.
    make(tmp_path, {
        "docs/index.md": "# Home\n\nSee [cfg](cfg.md).\n",
        "docs/cfg.md": "# The `cfg` option\n\ntext\n\n## `abort` & [unwind](index.md) ZEBRA\n\nmore\n",
        "docs/plain.md": "# Plain *emphasis*\n\nplain\n",
    })
    result = tool(tmp_path, "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    pages = {p[0]: p[1:] for p in script_value(site / "outline-site/nav.js", "outlineSiteNavigation")["pages"]}
    assert pages["cfg.html"] == ["The cfg option", "The <code>cfg</code> option"]
    assert pages["plain.html"] == ["Plain emphasis", "Plain <em>emphasis</em>"]
    assert pages["index.html"] == ["Home"]
    assert "<span class=\"outline-pager-label\">Next</span> The <code>cfg</code> option</a>" in (site / "plain.html").read_text()
    assert '<a href="../cfg.html">The <code>cfg</code> option</a>' in (site / "outline-site/nav.html").read_text()
    sections = {s[0]: s[1:] for page in script_value(site / "outline-site/search.js", "outlineSiteSearch") for s in page[1]}
    assert sections["abort--unwind-zebra"][0] == "abort & unwind ZEBRA"
    assert sections["abort--unwind-zebra"][2] == "<code>abort</code> &amp; unwind ZEBRA"
    # In the browser: the navigation's link holds code, and so does the search's result.
    browser.get((site / "index.html").as_uri())
    WebDriverWait(browser, 10).until(lambda b: b.execute_script(
        "return !!document.querySelector('.outline-site-tree a[href$=\"cfg.html\"] code')"))
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    browser.switch_to.active_element.send_keys("zebra")
    WebDriverWait(browser, 10).until(lambda b: b.execute_script(
        "return document.querySelectorAll('#outline-render\\\\:results .outline-search-place code').length === 2"))
    place = browser.find_element(By.CSS_SELECTOR, "#outline-render\\:results .outline-search-place").text
    assert place == "The cfg option › abort & unwind ZEBRA"


def test_a_404_page_in_the_sites_look_for_any_address(tmp_path):
    make(tmp_path)
    result = tool(tmp_path, "docs", "-o", "site", "--site-url", "https://example.org/docs")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site" / "404.html").read_text()
    assert "<title>Page not found</title>" in page and "There is no page at this address." in page
    # Served for /docs/a/b/missing, its links start from the site's address, not its place.
    assert 'data-outline-root="https://example.org/docs/"' in page
    assert '@import url("https://example.org/docs/outline-site/outline.css");' in page
    assert "outline-pager" not in page and "404.html" not in (tmp_path / "site" / "sitemap.xml").read_text()
    # Without --site-url, from file:// as from the top of a server, the navigation is drawn.
    assert tool(tmp_path, "docs", "-o", "local").returncode == 0
    driver = make_driver()
    try:
        driver.get((tmp_path / "local" / "404.html").as_uri())
        links = WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".outline-site-tree a"))
        assert any(link.get_attribute("href").endswith("/local/zeta.html") for link in links)
    finally:
        driver.quit()
    # A tree with a 404 page of its own keeps it.
    make(tmp_path, {"docs/404.md": "# Our own 404\n"})
    assert tool(tmp_path, "docs", "-o", "local").returncode == 0
    assert "Our own 404" in (tmp_path / "local" / "404.html").read_text()
