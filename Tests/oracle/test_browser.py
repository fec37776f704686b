"""The HTML pages in a real browser: headless Chromium driven by Selenium (docs/formats.md)."""
import base64
import json
import pathlib
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import EXAMPLES, ROOT, preorder, run, to_json

DOCS = ROOT / "docs"


def make_driver(javascript=True):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1000,1200", "--hide-scrollbars", "--allow-file-access-from-files"]:
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@pytest.fixture(scope="module")
def browser():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Pages written by outline-render into a temporary folder, by name."""
    folder = tmp_path_factory.mktemp("pages")
    (folder / "links.md").write_text(
        "# Top\nJump to [the deep section](#deep) or [the leaf](#leaf).\n\n"
        "# Closed {.collapsed}\ntext\n## Middle {.collapsed}\ntext\n### Deep\ndeep text\n#### Leaf\n"
    )
    made = {
        "products": (EXAMPLES / "products.md", []),
        "products-plist": (EXAMPLES / "plist/products.plist", []),
        "people": (EXAMPLES / "people.md", []),
        "people-accordion": (EXAMPLES / "people.md", ["--accordion"]),
        "links": (folder / "links.md", []),
    }
    urls = {}
    for name, (source, arguments) in made.items():
        output = folder / f"{name}.html"
        run(source, "-o", output, *arguments)
        urls[name] = output.as_uri()
    return urls


def state(driver):
    return driver.execute_script("return Object.fromEntries([...document.querySelectorAll('details')].map(d => [d.id, d.open]))")


def visible(driver, element_id):
    return driver.execute_script("return document.getElementById(arguments[0]).checkVisibility()", element_id)


def click_summary(driver, element_id):
    driver.find_element(By.CSS_SELECTOR, f"#{element_id} > summary").click()


@pytest.mark.quick
@pytest.mark.parametrize("name,source", [("products", "products.md"), ("products-plist", "plist/products.plist"), ("people", "people.md")])
def test_initial_state_matches_the_source(browser, pages, name, source):
    browser.get(pages[name])
    expected = {n["id"]: not n["collapsed"] for _, n in preorder(to_json(EXAMPLES / source)["sections"]) if n["body"] or n["children"]}
    assert state(browser) == expected


def test_content_of_a_collapsed_section_is_not_visible(browser, pages):
    browser.get(pages["products"])
    assert visible(browser, "macbook")
    assert not visible(browser, "ipad-pro")
    assert not browser.find_element(By.ID, "ipad-pro").is_displayed()


def test_clicking_a_summary_toggles_it(browser, pages):
    browser.get(pages["products"])
    click_summary(browser, "ipad")
    assert state(browser)["ipad"] and visible(browser, "ipad-pro")
    click_summary(browser, "ipad")
    assert not state(browser)["ipad"] and not visible(browser, "ipad-pro")


def test_the_keyboard_reaches_the_controls_and_toggles_summaries(browser, pages):
    browser.get(pages["products"])
    keys = ActionChains(browser)
    keys.send_keys(Keys.TAB).perform()
    assert browser.switch_to.active_element.get_attribute("id") == "outline-render:filter"  # the filter first
    keys.send_keys(Keys.TAB).perform()
    assert browser.switch_to.active_element.text == "Expand all"
    keys.send_keys(Keys.TAB).perform()
    assert browser.switch_to.active_element.text == "Collapse all"
    keys.send_keys(Keys.TAB).perform()
    focused = browser.switch_to.active_element
    assert focused.tag_name == "summary" and focused.find_element(By.XPATH, "..").get_attribute("id") == "mac"
    assert focused.value_of_css_property("outline-style") == "solid"  # a visible focus ring
    keys.send_keys(Keys.ENTER).perform()
    assert not state(browser)["mac"]
    keys.send_keys(Keys.SPACE).perform()
    assert state(browser)["mac"]


def test_expand_all_and_collapse_all(browser, pages):
    browser.get(pages["products"])
    browser.find_element(By.XPATH, "//button[text()='Expand all']").click()
    assert all(state(browser).values())
    assert visible(browser, "ipad-pro")
    browser.find_element(By.XPATH, "//button[text()='Collapse all']").click()
    assert not any(state(browser).values())
    assert not visible(browser, "macbook")


def test_printing_shows_everything_and_restores_the_screen(browser, pages, tmp_path):
    browser.get(pages["products"])
    click_summary(browser, "macbook")  # the user closed one, so restoring is not just "reload"
    before = state(browser)
    browser.execute_script("window.dispatchEvent(new Event('beforeprint'))")
    assert all(state(browser).values())
    browser.execute_script("window.dispatchEvent(new Event('afterprint'))")
    assert state(browser) == before

    # A real print: the PDF holds the closed sections' text, and the screen comes back.
    pdf = tmp_path / "page.pdf"
    pdf.write_bytes(base64.b64decode(browser.print_page()))
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "The most powerful iPad, with a ProMotion display." in text
    assert "Apple's ultraportable laptop" in text
    assert "Expand all" not in text
    assert state(browser) == before

    # Print CSS alone (no script) shows closed content too.
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert visible(browser, "ipad-pro")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_a_deep_link_opens_collapsed_ancestors(browser, pages):
    browser.get(pages["products"] + "#ipad-air")
    assert state(browser)["ipad"]
    assert visible(browser, "ipad-air")
    browser.get(pages["links"])
    assert state(browser)["closed"] is False and state(browser)["middle"] is False
    browser.find_element(By.LINK_TEXT, "the leaf").click()
    assert state(browser)["closed"] and state(browser)["middle"]
    assert visible(browser, "leaf")
    assert browser.execute_script("const r = document.getElementById('leaf').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight")


def test_a_link_to_another_page_opens_the_closed_sections_around_its_target(browser, tmp_path):
    """Examples/docs as a site: index.md links to guide/configure.md#fast, inside the
    closed "Advanced" section of the configure page."""
    run(EXAMPLES / "docs", "-o", tmp_path / "site", "--index", check=False)
    browser.get((tmp_path / "site" / "index.html").as_uri())
    link = browser.find_element(By.PARTIAL_LINK_TEXT, "flag")
    assert link.get_attribute("href").endswith("guide/configure.html#fast")
    link.click()
    assert browser.current_url.endswith("guide/configure.html#fast")
    assert state(browser)["advanced"]
    assert visible(browser, "fast")
    assert browser.execute_script("const r = document.getElementById('fast').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight")
    # And back to the index through the page's own link.
    browser.find_element(By.CSS_SELECTOR, ".outline-index a").click()
    assert browser.current_url.endswith("site/index.html")


def test_the_accordion_closes_siblings(browser, pages):
    browser.get(pages["people-accordion"])
    assert not any(state(browser).values())
    click_summary(browser, "ada-lovelace")
    assert state(browser)["ada-lovelace"]
    click_summary(browser, "grace-hopper")
    assert state(browser)["grace-hopper"] and not state(browser)["ada-lovelace"]
    browser.find_element(By.XPATH, "//button[text()='Expand all']").click()
    assert all(state(browser).values())
    browser.find_element(By.XPATH, "//button[text()='Collapse all']").click()
    click_summary(browser, "ada-lovelace")
    click_summary(browser, "alan-turing")
    assert state(browser) == {"ada-lovelace": False, "grace-hopper": False, "alan-turing": True}


def test_every_summary_has_a_visible_permalink_to_its_own_id(browser, pages):
    browser.get(pages["products"])
    summaries = browser.find_elements(By.CSS_SELECTOR, "details:not([id^=ipad-]) > summary")
    for summary in summaries:
        link = summary.find_element(By.CLASS_NAME, "outline-permalink")
        identifier = summary.find_element(By.XPATH, "..").get_attribute("id")
        assert link.get_attribute("href").endswith("#" + identifier)
        browser.execute_script("arguments[0].focus()", link)
        assert link.value_of_css_property("opacity") == "1"


def test_without_javascript_every_summary_shows_and_toggles(pages):
    driver = make_driver(javascript=False)
    try:
        driver.get(pages["products"])
        assert not driver.find_element(By.CLASS_NAME, "outline-controls").is_displayed()
        summaries = driver.find_elements(By.CSS_SELECTOR, "summary")
        assert len(summaries) == 12 and all(s.is_displayed() for s in summaries[:6])
        ipad = driver.find_element(By.ID, "ipad")
        assert ipad.get_attribute("open") is None
        driver.find_element(By.CSS_SELECTOR, "#ipad > summary").click()
        assert ipad.get_attribute("open") is not None
        assert driver.find_element(By.ID, "ipad-pro").is_displayed()
    finally:
        driver.quit()


def accessible_headings(driver):
    """(name, level) of every heading in the accessibility tree, in tree order."""
    nodes = {n["nodeId"]: n for n in driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]}
    root = next(n for n in nodes.values() if not n.get("parentId"))
    headings, stack = [], [root["nodeId"]]
    while stack:
        node = nodes[stack.pop()]
        if node.get("role", {}).get("value") == "heading" and not node.get("ignored"):
            level = next(p["value"]["value"] for p in node.get("properties", []) if p["name"] == "level")
            headings.append((node["name"]["value"], level))
        stack.extend(reversed(node.get("childIds", [])))
    return headings


def test_screen_readers_get_a_heading_outline(browser, pages):
    browser.get(pages["products"])
    outline = to_json(EXAMPLES / "products.md")
    expected = [("Apple Products", 1)]

    def visit(nodes, depth):
        for node in nodes:
            expected.append((node["title"], depth + 1))
            if not node["collapsed"]:
                visit(node["children"], depth + 1)
    visit(outline["sections"], 1)
    assert accessible_headings(browser) == expected
    browser.find_element(By.XPATH, "//button[text()='Expand all']").click()
    assert len(accessible_headings(browser)) == 1 + len(list(preorder(outline["sections"])))


def contrast(a, b):
    def luminance(rgb):
        def channel(c):
            c = c / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(c) for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_contrast_and_language(browser, pages, scheme):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        browser.get(pages["products"])
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
        colors = browser.execute_script("""
            const rgb = s => s.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
            const css = (sel, prop) => rgb(getComputedStyle(document.querySelector(sel))[prop]);
            return {bg: css('body', 'backgroundColor'), text: css('body', 'color'),
                    link: css('.outline-permalink', 'color'), button: css('.outline-controls button', 'color'),
                    focus: css(':root', 'color')};
        """)
        dark_background = sum(colors["bg"]) < 3 * 128
        assert dark_background == (scheme == "dark")
        for name in ("text", "link", "button"):
            assert contrast(colors[name], colors["bg"]) >= 4.5, (name, colors)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


@pytest.mark.parametrize("example", ["products", "people"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_for_the_readme(browser, pages, example, scheme):
    """docs/EXAMPLE-SCHEME.png, shown in the README (regenerated by every run). Reduced
    motion, so that the arrow of a section just opened is not caught turning."""
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        browser.set_window_size(900, 820)
        browser.get(pages[example])
        if example == "people":
            click_summary(browser, "grace-hopper")
        DOCS.mkdir(exist_ok=True)
        path = DOCS / f"{example}-{scheme}.png"
        assert browser.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
    finally:
        browser.set_window_size(1000, 1200)
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
