"""mkdocs-material's code annotations (docs/formats.md, "Code blocks"): the oracle is
mkdocs-material itself, its page built by `mkdocs build` and its script run in headless
Chromium from file://. For every code block, the markers it shows (their numbers, in
order) and its text with each marker in its place are ours too."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from test_browser import browser  # noqa: F401 (the shared fixture)
from test_docs_site import tool

# Comments of several languages, as mkdocs-material's own docs write them (the first
# blocks), markers outside comments, numbers the list has no item for, and blocks that
# are no annotation's: no ordered list right after them.
PAGE = """\
# Annotations

``` yaml
theme:
  features:
    - content.code.annotate # (1)!
  palette: x # see (2)
  url: f(3) # (9)
```

1.  A code annotation, with `code` and __formatted text__.
2.  Second, *too*.

``` html
{% include ".icons/fontawesome/brands/youtube.svg" %} <!-- (1)! -->
<p>(1)</p>
```

1.  HTML note.

``` js
document$.subscribe(function() { // (1)
  console.log(page, data) // (2)!
  /* event tracking here */ // (3)!
  window.location.hash.substr(1)
})
```

1.  One.
2.  Two.
3.  Three.

``` c
#include <stdio.h> // (1)!
int x = f(2); /* (2)! */ int y;
```

1. Include.
2. Block comment.

``` sh
pip install mkdocs-material # (1)! (2)
echo "(1)"
```

1. One
2. Two

``` py title="x.py"
print(f(1))  # (1) and (2)
```

1. Both.
2. Both again.

``` css
:root { --md-primary: #fff; } /* (1) */
```

- An unordered list: no annotations.

``` sql
select 1; -- (1)!
```

1. SQL.

``` toml
x = 1 # (1)!
```

A paragraph of text alone between (mkdocs-material passes over it).

1. After the paragraph.

``` toml
y = 2 # (1)!
```

A paragraph with `code` between.

1. Not this block's.

``` yaml
no: list # (1)!
```
"""

# Without the feature, only a block of class `.annotate` is annotated.
BY_CLASS = """\
# By class

``` { .yaml .annotate }
a: 1 # (1)!
```

1. Annotated by its class.

``` yaml
b: 2 # (1)!
```

1. Not annotated: no feature, no class.
"""

CONFIG = """\
site_name: Annotations
theme:
  name: material
{features}markdown_extensions:
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
plugins: []
"""

FEATURE = "  features:\n    - content.code.annotate\n"

# Each code block: the numbers of its markers (MARKER, each numbered NUMBER), and its text
# with each marker as `@N`.
READ = """
return [...document.querySelectorAll('pre > code')].map(code => {
  const copy = code.cloneNode(true);
  const numbers = [];
  copy.querySelectorAll(MARKER).forEach(m => { const n = NUMBER; numbers.push(n); m.replaceWith('@' + n); });
  return [numbers, copy.textContent.trimEnd()];
});
"""


def read(browser, marker, number):  # noqa: F811
    return browser.execute_script(READ.replace("MARKER", repr(marker)).replace("NUMBER", number))


def mkdocs_blocks(browser, page, expected):  # noqa: F811
    """mkdocs-material's blocks, once its script shows as many markers as `expected` holds
    (it mounts them after the page loads; a different count shows as a difference)."""
    browser.get(page.as_uri())
    count = sum(len(numbers) for numbers, _ in expected)
    try:
        WebDriverWait(browser, 20).until(lambda b: b.execute_script("return document.querySelectorAll('.md-annotation').length") >= count)
    except Exception:
        pass
    return read(browser, ".md-annotation", "m.querySelector('[data-md-annotation-id]').dataset.mdAnnotationId")


def our_blocks(browser, page):  # noqa: F811
    browser.get(page.as_uri())
    return read(browser, ".outline-annotation", "m.textContent")


def build_both(tmp_path, page, features):
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "index.md").write_text(page)
    (project / "mkdocs.yml").write_text(CONFIG.format(features=features))
    mkdocs = Path(sys.executable).parent / "mkdocs"
    subprocess.run([mkdocs, "build", "-q", "--no-directory-urls", "-d", str(tmp_path / "mkdocs-site")], cwd=project, check=True,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    result = tool(tmp_path, project, "-o", "site")
    assert result.returncode == 0, result.stderr
    return tmp_path / "mkdocs-site" / "index.html", tmp_path / "site" / "index.html"


@pytest.mark.parametrize("page, features", [(PAGE, FEATURE), (BY_CLASS, "")], ids=["feature", "class"])
def test_code_annotations_are_the_markers_mkdocs_material_shows(browser, tmp_path, page, features):  # noqa: F811
    theirs, ours = build_both(tmp_path, page, features)
    mine = our_blocks(browser, ours)
    assert mine == mkdocs_blocks(browser, theirs, mine)
    # (Not a trivial oracle: blocks with markers and blocks without.)
    assert any(numbers for numbers, _ in mine) and any(not numbers for numbers, _ in mine)


def test_an_annotations_list_stays_under_its_block_and_copying_leaves_the_markers_out(browser, tmp_path):  # noqa: F811
    _, ours = build_both(tmp_path, PAGE, FEATURE)
    browser.get(ours.as_uri())
    first = browser.execute_script(
        "const pre = document.querySelector('pre.outline-annotated');"
        "const list = pre.closest('.outline-code').nextElementSibling;"
        "return [list.tagName, getComputedStyle(list.children[0], '::marker').content,"
        " getComputedStyle(pre.querySelector('.outline-annotation')).display]")
    assert first == ["OL", '"(" counter(list-item) ") "', "inline-block"]
    copied = browser.execute_script(
        "window.copied = null; navigator.clipboard && (navigator.clipboard.writeText = t => { window.copied = t; return Promise.resolve(); });"
        "document.execCommand = () => { window.copied = document.querySelector('textarea').value; return true; };"
        "document.querySelector('.outline-code .outline-copy').click(); return window.copied")
    assert copied == "theme:\n  features:\n    - content.code.annotate \n  palette: x # see \n  url: f(3) # (9)\n"
