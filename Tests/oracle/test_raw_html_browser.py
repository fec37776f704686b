"""Raw HTML in a real browser (docs/formats.md, Raw HTML): what GitHub keeps shows (a README's
centred logo, its dark-mode picture, keys), and hostile HTML in raw blocks, inline tags,
attributes, titles and code stays inert: no handler, script or URL of it runs, opened from
file:// with every interaction a reader has (load, click, open every section)."""
import pytest
from selenium.webdriver.common.by import By

from conftest import run
from test_browser import browser  # noqa: F401 (the shared fixture)

# Every vector sets window.pwned if it runs.
HOSTILE = """\
# Hostile <img src=x onerror="window.pwned=1">

<img src=x onerror="window.pwned=2"><svg onload="window.pwned=3"><script>window.pwned=4</script>

Inline <b onmouseover="window.pwned=5">bold</b> and <a href="javascript:window.pwned=6">a link</a>,
<a href="jav&#x61;script:window.pwned=7">another</a> and <a href=" java&Tab;script:window.pwned=8">one more</a>.

<details open ontoggle="window.pwned=9"><summary>Toggle</summary>

text <iframe src="javascript:window.pwned=10"></iframe> <object data="javascript:window.pwned=11"></object>

</details>

<style>body { display: none }</style>
<div style="position:fixed;top:0;left:0;width:100%;height:100%" onclick="window.pwned=12">overlay</div>
</div></details></body>

## Section <a href="#" onclick="window.pwned=13">x</a>

```html
<script>window.pwned=14</script>
```

<form action="javascript:window.pwned=15"><button>Send</button></form>
<math><mi xlink:href="javascript:window.pwned=16">m</mi></math>
<a href="data:text/html,<script>parent.pwned=17</script>">data</a>
<img srcset="javascript:window.pwned=18 1x" src="ok.png">
"""

README = """\
<p align="center">
  <img src="logo.png" alt="Logo" width="120">
</p>

<picture>
  <source media="(prefers-color-scheme: dark)" srcset="dark.png">
  <img src="light.png" alt="Mode">
</picture>

# Project

Press <kbd>Ctrl</kbd>+<kbd>C</kbd>. H<sub>2</sub>O.
"""

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("raw")
    (folder / "hostile.md").write_text(HOSTILE)
    (folder / "README.md").write_text(README)
    for name in ["logo.png", "dark.png", "light.png", "ok.png"]:
        (folder / name).write_bytes(PNG)
    run(folder / "hostile.md", "-o", folder / "hostile.html")
    run(folder / "README.md", "-o", folder / "readme.html")
    return folder


def test_hostile_raw_html_stays_inert(browser, pages):  # noqa: F811
    browser.get((pages / "hostile.html").as_uri())
    # Every section and block open, every link and element of the body clicked.
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    for element in browser.find_elements(By.CSS_SELECTOR, "main a, main b, main div, main summary, main button"):
        if element.is_displayed() and element.get_attribute("href") not in (None, ""):
            continue  # (a kept link leaves the page: its URL is checked below)
        try:
            element.click()
        except Exception:
            pass
    assert browser.execute_script("return window.pwned") is None
    hrefs = browser.execute_script("return [...document.querySelectorAll('a[href], img, source, iframe, object, form')]"
                                   ".map(e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('srcset')"
                                   " || e.getAttribute('data') || e.getAttribute('action') || '')")
    assert not [h for h in hrefs if "script" in h.lower() or h.lower().startswith("data:")]
    # Nothing of it hides the page, and nothing it closed closed the page's own elements.
    assert browser.find_element(By.TAG_NAME, "body").is_displayed()
    assert browser.execute_script("return document.querySelectorAll('script:not([src])').length") == \
        browser.execute_script("return document.querySelectorAll('script').length")
    code = browser.execute_script("return document.querySelector('pre code').textContent")
    assert "<script>window.pwned=14</script>" in code  # code stays code


def test_what_github_keeps_shows(browser, pages):  # noqa: F811
    browser.get((pages / "readme.html").as_uri())
    logo = browser.find_element(By.CSS_SELECTOR, "p[align=center] img[alt=Logo]")
    assert logo.size["width"] == 120 and browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", logo) == 1
    assert browser.find_element(By.CSS_SELECTOR, "picture source[media]").get_attribute("srcset") == "dark.png"
    assert [k.text for k in browser.find_elements(By.TAG_NAME, "kbd")] == ["Ctrl", "C"]
    assert browser.title == "Project"
