"""axe-core (bundled by PyPI's axe-selenium-python) in a real browser finds no violation on
our pages, in light and dark: a page, pages with blocks, GitHub's task lists and a table of
contents, and the pages and index of a docs site."""
import pytest
from axe_selenium_python import Axe

from conftest import EXAMPLES, run
from test_browser import browser, make_driver  # (browser: the shared fixture)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("a11y")
    urls = {}
    for name, source, arguments in [
        ("products", EXAMPLES / "products.md", []),
        ("mkdocs", EXAMPLES / "mkdocs" / "index.md", []),
        ("github-toc", EXAMPLES / "github" / "README.md", ["--toc"]),
    ]:
        run(source, "-o", folder / f"{name}.html", *arguments)
        urls[name] = (folder / f"{name}.html").as_uri()
    run(EXAMPLES / "docs", "-o", folder / "site", "--index", check=False)
    urls["site-index"] = (folder / "site" / "index.html").as_uri()
    urls["site-page"] = (folder / "site" / "guide" / "install.html").as_uri()
    return urls


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", ["products", "mkdocs", "github-toc", "site-index", "site-page"])
def test_axe_finds_no_violation(browser, pages, name, scheme):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        browser.get(pages[name])
        axe = Axe(browser)
        axe.inject()
        violations = axe.run()["violations"]
        assert not violations, [(v["id"], v["impact"], v["nodes"][0]["html"][:200]) for v in violations]
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_in_a_site_page_with_its_navigation_and_search_open(browser, pages, scheme):
    """Wide, so that the outline of the site's pages stands open beside the page, with the
    results of a search listed."""
    import time
    from selenium.webdriver.common.by import By
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        browser.set_window_size(1400, 900)
        browser.get(pages["site-page"])
        browser.find_element(By.ID, "outline-render:search").send_keys("install")
        deadline = time.time() + 5
        while time.time() < deadline and not browser.find_elements(By.CSS_SELECTOR, "#outline-render\\:results a"):
            time.sleep(0.05)
        assert browser.find_element(By.CSS_SELECTOR, ".outline-site-tree a[aria-current=page]").is_displayed()
        axe = Axe(browser)
        axe.inject()
        violations = axe.run()["violations"]
        assert not violations, [(v["id"], v["impact"], v["nodes"][0]["html"][:200]) for v in violations]
    finally:
        browser.set_window_size(1000, 1200)
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_axe_does_catch_a_violation(browser, tmp_path):
    """The check above could not pass by accident: an image without text fails it."""
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html lang="en"><title>x</title><main><img src="x.png"></main></html>')
    browser.get(page.as_uri())
    axe = Axe(browser)
    axe.inject()
    assert any(v["id"] == "image-alt" for v in axe.run()["violations"])
