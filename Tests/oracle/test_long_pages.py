"""Reading long pages (docs/formats.md) in headless Chromium: the table of contents (--toc), the
filter field, find in closed sections, on a generated 300-section page and on a real API
reference (Tests/real/node-fs.md, 274 sections)."""
import json
import statistics
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, preorder, run, to_json
from test_browser import browser, make_driver, state, visible  # (browser: the shared fixture)
from test_validator import CHECKER, IGNORED, checkable

REAL = ROOT / "Tests" / "real" / "node-fs.md"
WORD = "zebrafish"  # in exactly the sections below, and nowhere else
WITH_WORD = {"section-7", "section-42", "section-42-3", "section-150-1", "section-299"}


def generated_markdown():
    """300 sections in three levels, some closed; WORD in a few of them (one with an accent
    and capitals, to be matched case- and accent-insensitively)."""
    lines = []
    for top in range(300):
        closed = " {.collapsed}" if top % 3 == 0 else ""
        lines.append(f"# Section {top}{closed}\n")
        text = f"Text of section {top}."
        if f"section-{top}" in WITH_WORD:
            text += " ZÉbrafish appears here." if top == 7 else f" A {WORD} swims by."
        lines.append(text + "\n")
        if top % 50 == 42 or top == 150:
            for sub in range(1, 4):
                lines.append(f"## Section {top}.{sub} {{#section-{top}-{sub}{' .collapsed' if sub == 3 else ''}}}\n")
                word = f" The {WORD} is here too." if f"section-{top}-{sub}" in WITH_WORD else ""
                lines.append(f"Sub text {top}.{sub}.{word}\n")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("long")
    source = folder / "generated.md"
    source.write_text(generated_markdown())
    urls = {}
    for name, path in [("generated", source), ("real", REAL)]:
        run(path, "--toc", "-o", folder / f"{name}.html")
        urls[name] = (folder / f"{name}.html").as_uri()
    urls["folder"] = folder
    return urls


def toc_entries(driver):
    """(depth, href) of every TOC link, in order."""
    return driver.execute_script("""
        return [...document.querySelectorAll('.outline-toc a')].map(a => {
            let depth = 0;
            for (let n = a; n && !n.classList.contains('outline-toc'); n = n.parentElement) if (n.tagName === 'UL') depth++;
            return [depth, a.getAttribute('href')];
        });""")


def box(driver, selector):
    return driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]", selector)


@pytest.mark.parametrize("name", ["generated", "real"])
def test_the_toc_lists_every_section_in_order_and_nesting(browser, pages, name):
    browser.get(pages[name])
    source = pages["folder"] / f"{name}.md" if name == "generated" else REAL
    expected = [[depth, "#" + node["id"]] for depth, node in preorder(to_json(source)["sections"])]
    assert toc_entries(browser) == expected
    assert len(expected) >= 274


def test_the_toc_is_beside_the_outline_and_sticky_when_wide_and_before_it_when_narrow(browser, pages):
    browser.set_window_size(1400, 1000)
    browser.get(pages["real"])
    toc, outline = box(browser, ".outline-toc"), box(browser, "main.outline")
    assert toc[2] <= outline[0]  # beside: the TOC ends left of where the outline starts
    browser.execute_script("window.scrollTo(0, 5000)")
    assert abs(box(browser, ".outline-toc")[1]) < 2  # sticky at the top while scrolled
    browser.set_window_size(600, 1000)
    browser.get(pages["real"])
    toc, outline = box(browser, ".outline-toc"), box(browser, "main.outline")
    assert toc[3] <= outline[1]  # before: the TOC ends above where the outline starts
    browser.set_window_size(1000, 1200)


def test_a_toc_entry_opens_the_closed_sections_around_its_target(browser, pages):
    browser.set_window_size(1400, 1000)
    browser.get(pages["generated"])
    assert not state(browser)["section-42"] and not state(browser)["section-42-3"]
    # The TOC's groups start open whatever the outline's state: the entry is there to click.
    entry = browser.find_element(By.CSS_SELECTOR, ".outline-toc a[href='#section-42-3']")
    assert entry.is_displayed()
    entry.click()
    assert state(browser)["section-42"]
    assert visible(browser, "section-42-3")
    assert browser.execute_script("const r = document.getElementById('section-42-3').getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight")
    browser.set_window_size(1000, 1200)


def filter_for(browser, text):
    field = browser.find_element(By.ID, "outline-render:filter")
    field.clear()
    field.send_keys(text)
    browser.execute_script("return new Promise(r => setTimeout(r, 200))")  # past the debounce
    return field


def test_the_filter_opens_exactly_the_matching_sections_and_escape_restores(browser, pages):
    browser.get(pages["generated"])
    before = state(browser)
    filter_for(browser, "zebraf")
    marked = set(browser.execute_script(
        "return [...new Set([...document.querySelectorAll('mark')].map(m => m.closest('details').id))]"))
    assert marked == WITH_WORD
    ancestors = {"section-42", "section-150"}
    opened = {k for k, v in state(browser).items() if v and k}  # (the TOC's groups have no id)
    assert opened == WITH_WORD | ancestors
    assert browser.find_element(By.CLASS_NAME, "outline-filter-count").text == "5 sections"
    # Two words: both must be in the section.
    filter_for(browser, "zebrafish swims 299")
    assert {k for k, v in state(browser).items() if v and k} == {"section-299"}
    field = browser.find_element(By.ID, "outline-render:filter")
    field.send_keys(Keys.ESCAPE)
    assert state(browser) == before
    assert not browser.find_elements(By.TAG_NAME, "mark")
    assert field.get_attribute("value") == ""


def test_slash_focuses_the_field_and_it_has_a_label(browser, pages):
    browser.get(pages["generated"])
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    assert browser.switch_to.active_element.get_attribute("id") == "outline-render:filter"
    assert browser.find_element(By.CSS_SELECTOR, "label[for='outline-render:filter']").text == "Filter"
    # "/" typed in the field is text, not a shortcut.
    browser.switch_to.active_element.send_keys("a/b")
    assert browser.find_element(By.ID, "outline-render:filter").get_attribute("value") == "a/b"


@pytest.mark.parametrize("name,word", [("generated", "zebra"), ("real", "fd")])
def test_the_filter_reports_its_time_per_keystroke(browser, pages, name, word):
    """The time the filter takes per keystroke (after the debounce), reported, never
    asserted (machines differ): what is checked is that every keystroke was filtered."""
    browser.get(pages[name])
    times = []
    for length in range(1, len(word) + 1):
        field = filter_for(browser, word[:length])
        times.append(float(field.get_attribute("data-filter-ms")))
    print(f"\n{name}: filter per keystroke {', '.join(f'{t:.1f}' for t in times)} ms (median {statistics.median(times):.1f})")
    assert len(times) == len(word) and all(t >= 0 for t in times)


def test_without_javascript_there_is_no_field_and_the_toc_still_works(pages):
    driver = make_driver(javascript=False)
    try:
        driver.get(pages["generated"])
        assert not driver.find_element(By.ID, "outline-render:filter").is_displayed()
        # The TOC is there and its entries are links; following one (as a click does)
        # opens the closed sections around the target without any script.
        entry = driver.find_element(By.CSS_SELECTOR, ".outline-toc a[href='#section-150']")
        assert entry.is_displayed()
        driver.get(pages["generated"] + "#section-150-3")
        assert driver.find_element(By.ID, "section-150").get_attribute("open") is not None
    finally:
        driver.quit()


def test_find_in_page_reaches_text_in_closed_sections(browser, pages):
    """Chromium's own find (here through a text fragment, which uses the same search and
    reveal) opens the closed section that holds the text."""
    browser.get(pages["generated"])
    assert not state(browser)["section-3"]
    browser.get(pages["generated"] + "#:~:text=Text%20of%20section%203.")
    browser.execute_script("return new Promise(r => setTimeout(r, 300))")
    assert state(browser)["section-3"]


def test_print_hides_the_toc_and_the_field_and_shows_every_section(browser, pages):
    browser.get(pages["generated"])
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not browser.find_element(By.CLASS_NAME, "outline-toc").is_displayed()
        assert not browser.find_element(By.CLASS_NAME, "outline-controls").is_displayed()
        assert browser.execute_script("return document.querySelector('#section-3 > p').checkVisibility()")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_toc_entries_show_titles_as_their_sections_do(browser, pages):
    """An entry's title is its section's, markup and all (`fs.readFile()` as code), with a
    link's text in place of the link (an entry is a link itself)."""
    browser.get(pages["real"])
    pairs = browser.execute_script("""
        return [...document.querySelectorAll('.outline-toc a')].map(a => {
            const title = document.getElementById(a.getAttribute('href').slice(1)).querySelector('.outline-title');
            return [a.textContent, a.querySelectorAll('code').length, a.querySelectorAll('a').length,
                    title.textContent, title.querySelectorAll('code').length];
        });""")
    assert sum(1 for pair in pairs if pair[1] > 0) > 100, "the reference's titles are mostly code"
    for entry, codes, links, title, title_codes in pairs:
        assert (entry, codes, links) == (title, title_codes, 0)


def test_front_matter_turns_the_toc_on_and_fragments_carry_it_apart(tmp_path):
    page = run("-t", "html", input="---\ntoc: true\n---\n# A\ntext\n## B\n").stdout
    assert '<nav class="outline-toc"' in page
    assert '<nav class="outline-toc"' not in run("-t", "html", input="# A\ntext\n").stdout
    fragment = run("--fragment", "--toc", input="# A\ntext\n").stdout
    assert fragment.startswith('<nav class="outline-toc" aria-label="Table of contents">')
    assert fragment.index("</nav>") < fragment.index('<details id="a"')


def test_pages_with_a_toc_are_valid(pages, tmp_path):
    files = checkable([str(pages["folder"] / "generated.html"), str(pages["folder"] / "real.html")], tmp_path)
    result = subprocess.run([CHECKER, "--format", "gnu", "--also-check-css", "--ignore-re", *IGNORED, "--", *files],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_a_long_page_for_the_readme(browser, pages, scheme):
    """docs/long-page-SCHEME.png: the real reference with its TOC beside it and the filter
    applied (regenerated by every run); marked text stays readable (4.5:1)."""
    from test_browser import DOCS, contrast
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        browser.set_window_size(1400, 900)
        browser.get(pages["real"])
        filter_for(browser, "symlink")
        colors = browser.execute_script("""
            const m = getComputedStyle(document.querySelector('mark'));
            const rgb = s => s.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
            return {fg: rgb(m.color), bg: rgb(m.backgroundColor)};""")
        assert contrast(colors["fg"], colors["bg"]) >= 4.5, colors
        browser.execute_script("document.querySelectorAll('mark')[1].scrollIntoView({block: 'center'})")
        path = DOCS / f"long-page-{scheme}.png"
        assert browser.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
    finally:
        browser.set_window_size(1000, 1200)
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
