"""Blocks in bodies (docs/formats.md) in a real browser: GitHub's README shapes (tables, task
lists, alerts, <details>) and mkdocs-material's (admonitions, ??? blocks, content tabs), as
their authors see them on GitHub and in mkdocs: open or closed as written, exclusive tabs,
printed open, opened by the filter, find-in-page and deep links, styled in light and dark."""
import base64
import subprocess

import pytest
from selenium.webdriver.common.by import By

from conftest import EXAMPLES, run
from test_browser import DOCS, browser, make_driver  # (browser: the shared fixture)

GITHUB = EXAMPLES / "github" / "README.md"
MKDOCS = EXAMPLES / "mkdocs" / "index.md"


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("blocks")
    urls = {}
    for name, source in [("github", GITHUB), ("mkdocs", MKDOCS)]:
        output = folder / f"{name}.html"
        run(source, "-o", output)
        urls[name] = output.as_uri()
    return urls


def blocks(driver):
    """Each block of the page (not the sections) by its summary's text: open or not."""
    return driver.execute_script("""
        return Object.fromEntries([...document.querySelectorAll('details:not([id])')]
            .map(d => [d.querySelector(':scope > summary').textContent.trim(), d.open]))""")


def click(driver, title):
    for summary in driver.find_elements(By.CSS_SELECTOR, "details:not([id]) > summary"):
        if summary.text.strip() == title:
            summary.click()
            return
    raise AssertionError(f"no block titled {title}")


def shown(driver, text):
    """Whether the innermost element holding `text` is rendered (not inside a closed block);
    highlighted code holds its text in several tokens."""
    return driver.execute_script("""
        for (const element of [...document.body.querySelectorAll("*")].reverse()) {
            if (element.textContent.includes(arguments[0])) return element.checkVisibility();
        }
        return null;""", text)


def test_blocks_start_as_written(browser, pages):
    browser.get(pages["mkdocs"])
    assert blocks(browser) == {
        "macOS": True, "Linux": False, "Windows": False,
        "Why another tool?": False, "Nested block": False, "Open by default": True,
    }
    browser.get(pages["github"])
    assert blocks(browser) == {"Build from source": False, "Troubleshooting": True}
    assert not shown(browser, "You need a C compiler")
    assert shown(browser, "check your")


def test_callouts_show_their_type_by_shape_and_title(browser, pages):
    browser.get(pages["mkdocs"])
    titles = browser.execute_script(
        "return [...document.querySelectorAll('.outline-callout-title')].map(t => t.textContent)")
    assert titles == ["Note", "Before you upgrade"]
    icons = browser.execute_script("""
        return [...document.querySelectorAll('.outline-callout-icon')].map(i =>
            getComputedStyle(i, '::before').content)""")
    # The note's icon, the warning's, the question's and the example's: each its own glyph.
    assert len(icons) == 5 and len({icons[0], icons[1], icons[2], icons[4]}) == 4
    browser.get(pages["github"])
    assert browser.execute_script(
        "return [...document.querySelectorAll('.outline-callout-title')].map(t => t.textContent)") == ["Tip", "Warning"]


def test_a_tab_opened_closes_the_others(browser, pages):
    browser.get(pages["mkdocs"])
    click(browser, "Linux")
    state = blocks(browser)
    assert (state["macOS"], state["Linux"], state["Windows"]) == (False, True, False)
    assert shown(browser, "apt install widget") and not shown(browser, "brew install widget")


def test_tabs_are_a_tab_bar_with_the_open_tabs_content_under_it(browser, pages):
    browser.get(pages["mkdocs"])
    titles = browser.find_elements(By.CSS_SELECTOR, ".outline-tab > summary")
    boxes = [t.rect for t in titles]
    # The titles side by side on one row, as mkdocs-material's tab bar.
    assert len({round(b["y"]) for b in boxes}) == 1
    assert all(a["x"] + a["width"] <= b["x"] + 1 for a, b in zip(boxes, boxes[1:]))  # (1 px: sub-pixel widths)
    code = browser.find_element(By.CSS_SELECTOR, ".outline-tab[open] pre")
    assert "brew install widget" in code.text and code.rect["y"] >= boxes[0]["y"] + boxes[0]["height"]
    click(browser, "Windows")
    assert shown(browser, "winget install widget") and not shown(browser, "brew install widget")
    assert len({round(t.rect["y"]) for t in titles}) == 1  # (the bar stays where it was)


def test_expand_all_opens_every_block_and_collapse_all_closes_them(browser, pages):
    browser.get(pages["mkdocs"])
    browser.find_element(By.CSS_SELECTOR, "button[data-outline-action='expand']").click()
    assert all(blocks(browser).values())
    browser.find_element(By.CSS_SELECTOR, "button[data-outline-action='collapse']").click()
    assert not any(blocks(browser).values())


def test_printing_shows_every_block(browser, pages, tmp_path):
    browser.get(pages["mkdocs"])
    before = blocks(browser)
    pdf = tmp_path / "page.pdf"
    pdf.write_bytes(base64.b64decode(browser.print_page()))
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for hidden in ("apt install widget", "Blocks nest: this one", "Because collapsible documents"):
        assert hidden in text
    assert blocks(browser) == before


def test_the_filter_opens_a_closed_block_that_matches(browser, pages):
    browser.get(pages["mkdocs"])
    field = browser.find_element(By.ID, "outline-render:filter")
    field.send_keys("nest")
    browser.execute_script("return new Promise(r => setTimeout(r, 250))")
    state = blocks(browser)
    assert state["Nested block"] and state["Why another tool?"]
    assert browser.execute_script("return document.querySelector('mark').closest('details').textContent").count("Blocks nest")


def test_find_in_page_and_a_deep_link_open_closed_blocks(browser, pages):
    browser.get(pages["mkdocs"] + "#:~:text=Blocks%20nest")
    browser.execute_script("return new Promise(r => setTimeout(r, 300))")
    assert blocks(browser)["Nested block"]
    # A heading inside a closed <details> has an id; a link to it opens the block.
    browser.get(pages["github"])
    browser.get(pages["github"] + "#requirements")
    browser.execute_script("return new Promise(r => setTimeout(r, 200))")
    assert blocks(browser)["Build from source"]
    assert shown(browser, "You need a C compiler")


def test_github_readme_shapes(browser, pages):
    browser.get(pages["github"])
    assert len(browser.find_elements(By.CSS_SELECTOR, "table th")) == 3
    assert browser.find_element(By.CSS_SELECTOR, "table td:last-child").value_of_css_property("text-align").endswith("right")
    boxes = browser.find_elements(By.CSS_SELECTOR, "li > input[type=checkbox][disabled]")
    assert [box.is_selected() for box in boxes] == [True, True, False]
    assert browser.find_element(By.TAG_NAME, "del").text == "old"
    assert browser.find_element(By.CSS_SELECTOR, "a[href='http://www.example.com']").text == "www.example.com"


def test_without_javascript_blocks_still_open_and_close(pages):
    driver = make_driver(javascript=False)
    try:
        driver.get(pages["mkdocs"])
        click(driver, "Why another tool?")
        assert blocks(driver)["Why another tool?"]
        click(driver, "Windows")
        state = blocks(driver)
        assert (state["macOS"], state["Windows"]) == (False, True)
    finally:
        driver.quit()


@pytest.mark.parametrize("example", ["github", "mkdocs"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_for_the_readme(browser, pages, example, scheme):
    """docs/EXAMPLE-SCHEME.png (github: Examples/github/README.md, mkdocs:
    Examples/mkdocs/index.md), shown in the README, made by every run."""
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        browser.set_window_size(900, 1100)
        browser.get(pages[example])
        if example == "mkdocs":
            click(browser, "Why another tool?")
        path = DOCS / f"{example}-{scheme}.png"
        assert browser.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
    finally:
        browser.set_window_size(1000, 1200)
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
