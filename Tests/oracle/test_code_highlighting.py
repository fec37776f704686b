"""Code blocks highlighted by Prism (docs/formats.md, "Code blocks"), in headless Chromium from
file://: a single page holds the Prism files of its own languages, a site's pages load them
from outline-site/prism/; the code's text is what cmark-gfm makes of it; info strings are
read as mdBook and pymdownx read them (Python-Markdown with pymdownx.superfences is the
oracle for the attribute-list form); every code block gets a copy button."""
import html
import re
from pathlib import Path

import markdown
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import CMARK_GFM, cmark, run
from test_browser import browser  # noqa: F401 (the shared fixture)

PAGE = """\
# Code

## Python

```python
def f(x):
    return x + 1  # one more
```

## In a list

- C++, which needs C and clike first:

  ```cpp
  int main() { return 0; }
  ```

```sh
echo "hi" | grep h
```

```html
<!-- a comment --><script>window.ran = 1</script>
```

```nosuchlanguage
stays plain
```

```
no language
```

```mermaid
graph TD; A-->B
```
"""

INFO_STRINGS = """\
# Info strings

```rust,editable
fn main() { println!("hi"); }
```

```{ .python title="x.py" }
import os
```

```{.js}
let x = 1;
```

```{ title="none.txt" }
no class
```

```mjs
import fs from "node:fs";
```

```console
$ ls -la
```
"""


def code_texts(page_html):
    """The text of each code block of some HTML, as a browser reads it."""
    return [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<pre[^>]*><code[^>]*>(.*?)</code></pre>", page_html, re.S)]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("code")
    (folder / "code.md").write_text(PAGE)
    (folder / "info.md").write_text(INFO_STRINGS)
    (folder / "plain.md").write_text("# Plain\n\nNo code here, only `inline` code.\n")
    for name in ["code", "info", "plain"]:
        run(folder / f"{name}.md", "-o", folder / f"{name}.html")
    source = folder / "src"
    (source / "guide").mkdir(parents=True)
    (source / "guide" / "code.md").write_text(PAGE)
    (source / "index.md").write_text("# Home\n\nNo code.\n")
    run("--no-cache", source, "-o", folder / "site")
    return folder


def highlighted(browser, url):  # noqa: F811
    """The page's code blocks once Prism has run: (language class, text, token classes)."""
    browser.get(url)
    WebDriverWait(browser, 30).until(lambda b: b.execute_script(
        "return !!window.Prism && document.querySelectorAll('code .token').length > 0"))
    return browser.execute_script(
        "return [...document.querySelectorAll('main pre > code')].map(c => [c.className, c.textContent,"
        " [...new Set([...c.querySelectorAll('.token')].map(t => t.className))]])")


def check_page(blocks):
    by_class = {cls: (text, tokens) for cls, text, tokens in blocks}
    # The code's text is cmark-gfm's: highlighting only adds spans.
    assert [text for _, text, _ in blocks] == code_texts(cmark(PAGE, CMARK_GFM))
    assert "token keyword" in by_class["language-python"][1] and "token comment" in by_class["language-python"][1]
    assert "token keyword" in by_class["language-cpp"][1]
    assert "token function" in by_class["language-sh"][1]  # (`sh` is Prism's bash)
    assert "token comment" in by_class["language-html"][1] and "token tag" in by_class["language-html"][1]
    assert by_class["language-nosuchlanguage"][1] == [] and by_class[""][1] == []


def test_a_single_page_highlights_its_languages_and_nothing_runs(browser, made):  # noqa: F811
    check_page(highlighted(browser, (made / "code.html").as_uri()))
    assert browser.execute_script("return window.ran") is None
    # The mermaid block is left to mermaid: no copy button, no tokens.
    assert browser.execute_script("return document.querySelector('pre.mermaid .token, pre.mermaid + .outline-copy')") is None
    page = (made / "code.html").read_text()
    assert "Prism.languages.python" in page and "Prism.languages.cpp" in page and "Prism.languages.clike" in page
    assert "Prism.languages.rust" not in page and "Prism.languages.java=" not in page  # only its own languages


def test_a_page_without_code_blocks_holds_no_prism(made):
    assert "Prism.manual" not in (made / "plain.html").read_text() and "Prism.languages" not in (made / "plain.html").read_text()


def test_a_site_page_loads_its_languages_from_the_site(browser, made):  # noqa: F811
    site = made / "site"
    check_page(highlighted(browser, (site / "guide" / "code.html").as_uri()))
    assert browser.execute_script("return window.ran") is None
    page = (site / "guide" / "code.html").read_text()
    loaded = re.search(r'outline-site/prism/" \+ file;.*?\}\)\(\[(.*?)\]\)', page).group(1)
    names = re.findall(r'"([^"]+)"', loaded)
    assert names[0] == "prism-core.min.js" and "prism-python.min.js" in names and "prism-java.min.js" not in names
    # Each file a page loads comes after those it requires.
    assert names.index("prism-clike.min.js") < names.index("prism-c.min.js") < names.index("prism-cpp.min.js")
    # The site holds the Prism files its pages use, and Prism's licence: nothing else.
    assert sorted(p.name for p in (site / "outline-site" / "prism").iterdir()) == sorted(names + ["COPYRIGHT"])
    assert "outline-site/prism" not in (site / "index.html").read_text()


def test_info_strings_name_the_language_their_tools_read(browser, made):  # noqa: F811
    blocks = highlighted(browser, (made / "info.html").as_uri())
    classes = [cls for cls, _, _ in blocks]
    assert classes[0] == "language-rust"  # mdBook: attributes after a comma
    assert "token macro" in blocks[0][2] or "token keyword" in blocks[0][2]
    # Attribute lists as pymdownx superfences reads them.
    fences = re.findall(r"```(\{[^\n]*\})\n", INFO_STRINGS)
    for fence, cls in zip(fences, classes[1:]):
        oracle = markdown.markdown(f"```{fence}\nx\n```\n", extensions=["pymdownx.superfences", "pymdownx.highlight"],
                                   extension_configs={"pymdownx.highlight": {"use_pygments": False}})
        expected = re.search(r'<code(?: class="([^"]*)")?>', oracle).group(1) or ""
        assert cls == expected, fence
    assert [text for _, text, _ in blocks] == code_texts(cmark(INFO_STRINGS, CMARK_GFM))
    # Names GitHub reads for languages Prism calls otherwise: Node's docs, mdBook's consoles.
    assert classes[4:] == ["language-mjs", "language-console"]
    assert "token keyword" in blocks[4][2] and "token command" in blocks[5][2]


def test_every_code_block_has_a_copy_button(browser, made):  # noqa: F811
    browser.get((made / "code.html").as_uri())
    buttons = browser.find_elements(By.CSS_SELECTOR, "main .outline-code > .outline-copy")
    assert len(buttons) == len(code_texts(cmark(PAGE, CMARK_GFM))) - 1  # all but mermaid's
    assert all(b.get_attribute("type") == "button" and b.get_attribute("aria-label") for b in buttons)
    # A reader's click (hovering shows the button): the code, as written, is on the clipboard.
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    frame = browser.find_element(By.CSS_SELECTOR, "main .outline-code")
    ActionChains(browser).move_to_element(frame).click(buttons[0]).perform()
    WebDriverWait(browser, 10).until(lambda b: b.execute_script("return arguments[0].textContent", buttons[0]) == "Copied")
    browser.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    copied = browser.execute_async_script("navigator.clipboard.readText().then(arguments[0], e => arguments[0](String(e)))")
    assert copied == code_texts(cmark(PAGE, CMARK_GFM))[0]


def test_a_rebuild_copies_a_new_language_and_removes_one_no_page_uses(made, tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "index.md").write_text("# Home\n\n```python\nx = 1\n```\n")
    (source / "other.md").write_text("# Other\n\nText.\n")
    site = tmp_path / "site"
    prism = site / "outline-site" / "prism"
    cache = ["--cache-dir", str(tmp_path / "cache")]
    run(source, "-o", site, *cache)
    assert not (prism / "prism-java.min.js").exists()
    # Only the edited page is converted again; the index's languages come from the record.
    (source / "other.md").write_text("# Other\n\n```java\nclass A {}\n```\n")
    run(source, "-o", site, *cache)
    assert (prism / "prism-java.min.js").is_file() and (prism / "prism-python.min.js").is_file()
    (source / "other.md").write_text("# Other\n\nText again.\n")
    run(source, "-o", site, *cache)
    assert not (prism / "prism-java.min.js").exists() and (prism / "prism-python.min.js").is_file()


TITLED = ['py title="bubble_sort.py"', '{ .python title="x y.py" }', 'python title="a<b & c"', "py title='single'",
          'title="no lang"', 'python linenums="1" title="numbered.py"', 'python subtitle="not a title"']


@pytest.mark.parametrize("info", TITLED)
def test_a_code_blocks_title_is_what_pymdownx_shows(info, tmp_path):
    source = tmp_path / "t.md"
    source.write_text(f"# T\n\n```{info}\nx = 1\n```\n")
    ours = run(source, "--fragment", "--to", "html").stdout
    title = re.search(r'<div class="outline-code-title">(.*?)</div>', ours)
    oracle = markdown.markdown(source.read_text().split("\n", 2)[2], extensions=["pymdownx.superfences", "pymdownx.highlight"])
    expected = re.search(r'<span class="filename">(.*?)</span>', oracle)
    assert (title and title.group(1)) == (expected and expected.group(1))
    # The code is the code as cmark-gfm reads it, under its title.
    assert code_texts(ours) == code_texts(cmark(source.read_text(), CMARK_GFM))


def test_a_real_reference_has_every_code_block_highlighted(browser, tmp_path):  # noqa: F811
    """Node's fs reference (Tests/real): its 100 blocks of mjs, cjs, js, console and bash are
    highlighted, as Node's own site highlights them; its one text block stays plain."""
    source = Path(__file__).parents[1] / "real" / "node-fs.md"
    languages = re.findall(r"^```(\w+)$", source.read_text(), re.M)
    run(source, "-o", tmp_path / "fs.html")
    browser.get((tmp_path / "fs.html").as_uri())
    WebDriverWait(browser, 30).until(lambda b: b.execute_script("return !!window.Prism"))
    highlighted = browser.execute_script(
        "return [...document.querySelectorAll('main pre > code')].map(c => [c.className, !!c.querySelector('.token')])")
    assert [cls for cls, _ in highlighted] == [f"language-{name}" for name in languages]
    assert [name for (cls, tokens), name in zip(highlighted, languages) if not tokens] == ["text"]
