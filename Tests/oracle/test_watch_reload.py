"""With `--watch`, an open page reloads itself after a rebuild that changed it, from a
`file://` URL (docs/sites.md, "Watch mode"), in headless Chromium; a page the rebuild did
not change stays as it is, and a normal build writes pages without the poller."""
import os
import re
import subprocess

from selenium.webdriver.support.ui import WebDriverWait

from conftest import TOOL
from test_browser import browser  # noqa: F401 (the shared fixture)
from test_tooling import Watch, wait_for


def test_an_open_page_reloads_after_a_rebuild_that_changed_it(tmp_path, browser):  # noqa: F811
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nfirst text\n")
    (docs / "b.md").write_text("# B\n\nother page\n")
    site = tmp_path / "site"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    watch = Watch(tmp_path, "docs", "-o", "site", env=env)
    try:
        wait_for(lambda: (site / "outline-site" / "reload.js").exists() and (site / "b.html").exists())
        browser.get((site / "a.html").as_uri())
        WebDriverWait(browser, 30).until(lambda b: b.execute_script("return typeof window.outlineReload") == "function")
        browser.execute_script("window.stillThere = true")
        # A rebuild that changes another page only: this one stays (no reload).
        stamp = (site / "outline-site" / "reload.js").read_text()
        (docs / "b.md").write_text("# B\n\nother page, edited\n")
        wait_for(lambda: (site / "outline-site" / "reload.js").read_text() != stamp)
        stamp = (site / "outline-site" / "reload.js").read_text()
        assert '"b.html"' in stamp and '"a.html"' not in stamp
        # (Its next poll, a second later, has seen the new stamp, and kept the page.)
        build = re.search(r'outlineReload\("([^"]+)"', stamp).group(1)
        WebDriverWait(browser, 30).until(
            lambda b: b.execute_script("return document.documentElement.getAttribute('data-outline-build')") == build)
        assert browser.execute_script("return window.stillThere") is True
        # A rebuild that changes this page reloads it.
        (docs / "a.md").write_text("# A\n\nsecond text\n")
        WebDriverWait(browser, 30).until(lambda b: "second text" in b.find_element("tag name", "main").text)
        assert browser.execute_script("return window.stillThere") is None
    finally:
        watch.stop()
    # A build without --watch writes pages without the poller, and no reload.js.
    result = subprocess.run([TOOL, "docs", "-o", "site"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "reload.js" not in (site / "a.html").read_text()
    assert not (site / "outline-site" / "reload.js").exists()
