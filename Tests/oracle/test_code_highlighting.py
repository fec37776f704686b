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


LINES = """\
# Lines

```python linenums="1" hl_lines="2 4-5"
a = 1
b = "two"

c = a < 3
d = 4
```

```{ .rust title="main.rs" linenums="10" }
fn main() {}
```

```rust
# fn hidden() {}
#[derive(Debug)]
## shown with one hash
fn main() {
    # let secret = 1;
    println!("hi");
}
```
"""


def line_layout(browser, url):  # noqa: F811
    """Each block once Prism has run: its text, each line's number (what its `::before` shows),
    mark, whether it shows, whether it holds tokens, and its height, and the block's counter
    (from which the numbers count)."""
    browser.get(url)
    WebDriverWait(browser, 30).until(lambda b: b.execute_script(
        "return !!window.Prism && document.querySelectorAll('code .token').length > 0"))
    return browser.execute_script(
        "return [...document.querySelectorAll('main pre > code')].map(c => [c.textContent,"
        " [...c.querySelectorAll('.outline-line')].map(l => [getComputedStyle(l, '::before').content,"
        " l.classList.contains('outline-line-marked'), l.offsetHeight > 0, !!l.querySelector('.token'),"
        " l.offsetHeight]), getComputedStyle(c.parentNode).counterReset])")


def test_numbered_marked_and_hidden_lines_keep_their_highlighting(browser, tmp_path):  # noqa: F811
    (tmp_path / "lines.md").write_text(LINES)
    run(tmp_path / "lines.md", "--from", "mdbook", "-o", tmp_path / "lines.html")
    python, rust_title, rust = line_layout(browser, (tmp_path / "lines.html").as_uri())
    # Numbered from 1 and from 10, as pymdownx numbers them; lines 2, 4 and 5 marked; every
    # line one line high (an empty one too), each with its tokens kept.
    assert {line[0] for line in python[1] + rust_title[1]} == {"counter(outline-line)"}
    assert python[2] == "outline-line 0" and rust_title[2] == "outline-line 9" and rust[2] == "none"
    assert [line[1] for line in python[1]] == [False, True, False, True, True]
    heights = {line[4] for line in python[1] + rust[1] if line[2]}
    assert len(heights) == 1 and heights.pop() > 0
    assert python[0] == 'a = 1\nb = "two"\n\nc = a < 3\nd = 4\n'
    assert all(line[3] for number, line in enumerate(python[1]) if number != 2)
    assert (tmp_path / "lines.html").read_text().count('<div class="outline-code-title">main.rs</div>') == 1
    # mdBook's boring lines are hidden, without their `# `; `##` shows one `#`; `#[` is code.
    assert [line[2] for line in rust[1]] == [False, True, True, True, False, True, True]
    assert rust[0] == "fn hidden() {}\n#[derive(Debug)]\n# shown with one hash\nfn main() {\n    let secret = 1;\n    println!(\"hi\");\n}\n"
    # Their button shows them, and the copy button copies what is shown.
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    toggle = browser.find_elements(By.CSS_SELECTOR, ".outline-code .outline-copy + .outline-copy")
    assert len(toggle) == 1 and toggle[0].text == "Show hidden"
    ActionChains(browser).move_to_element(toggle[0]).click(toggle[0]).perform()
    assert browser.execute_script("return [...document.querySelectorAll('.outline-line-hidden')].every(l => l.offsetHeight > 0)")
    # Without mdBook (a plain page), the same block shows every line as written.
    run(tmp_path / "lines.md", "-o", tmp_path / "plain.html")
    assert "# fn hidden() {}" in (tmp_path / "plain.html").read_text()


def test_an_mdbook_project_hides_its_boring_lines(tmp_path):
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "src" / "SUMMARY.md").write_text("# Summary\n\n- [Hello](hello.md)\n")
    (book / "src" / "hello.md").write_text("# Hello\n\n```rust,editable\n# fn hidden() {}\nfn main() {}\n```\n")
    run(book / "src", "-o", tmp_path / "without")
    (book / "book.toml").write_text('[book]\ntitle = "A book"\nsrc = "src"\n')
    run(book / "src", "-o", tmp_path / "with")
    assert "outline-line-hidden" not in (tmp_path / "without" / "hello.html").read_text()
    page = (tmp_path / "with" / "hello.html").read_text()
    assert '<span class="outline-line outline-line-hidden">fn hidden() {}\n</span>' in page
