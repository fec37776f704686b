"""mkdocs-material's annotations (docs/formats.md, "Code blocks" and "Attribute lists"): the
oracle is mkdocs-material itself, its page built by `mkdocs build` and its script run in
headless Chromium from file://. For every code block and every paragraph of class
`annotate`, the markers it shows (their numbers, in order) and its text with each marker
in its place are ours too."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from test_browser import browser  # noqa: F401 (the shared fixture)
from conftest import run
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

# Without the feature, only a block of class `.annotate` is annotated; a paragraph of that
# class is too, in its text.
BY_CLASS = """\
# By class

Lorem ipsum dolor sit amet, (1) consectetur [adipiscing (2)](x.md) elit (3).
{ .annotate }

1.  :man_raising_hand: I'm an annotation! I can contain `code`, __formatted
    text__, images, ... basically anything that can be written in Markdown.
2.  In a link.

1.  The same list's third item (a list goes on whatever its numbers).

Not annotated (1): no class.

1.  Nothing.

- An item made loose by its nested list (1)
  { .annotate }

    1. Its paragraph's note.

Text alone between (1).
{ .annotate }

Plain words.

1.  Found past the paragraph of text alone.

1.  Loose item (1) with a note (2)
    { .annotate }

    1.  Nested note (1).
        { .annotate }

        1. Inner.

2.  Second item.

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
  - pymdownx.emoji
  - pymdownx.highlight
  - pymdownx.superfences
plugins: []
"""

FEATURE = "  features:\n    - content.code.annotate\n"

# Each code block: the numbers of its markers (MARKER, each numbered NUMBER), and its text
# with each marker as `@N`.
READ = """
return [...document.querySelectorAll('pre > code, p.annotate')].map(code => {
  const copy = code.cloneNode(true);
  const numbers = [];
  // (Not a marker inside another's tooltip: mkdocs-material moves a note, markers and all, there.)
  copy.querySelectorAll(MARKER).forEach(m => {
    if (m.parentElement.closest(MARKER)) return;
    const n = NUMBER; numbers.push(n); m.replaceWith('@' + n);
  });
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


def test_text_annotations_keep_their_markers_as_text_where_there_is_no_html():
    source = "Lorem (1) ipsum (2).\n{ .annotate }\n\n1. One.\n2. Two.\n\n- A tight item (1)\n  { .annotate }\n  1. Under it.\n"
    page = run("-", "--from", "mkdocs", "--fragment", input=source).stdout
    assert '<p class="annotate">Lorem <span class="outline-annotation">1</span> ipsum <span class="outline-annotation">2</span>.</p>' in page
    # A tight item is the element its list is given to, and no list follows an item (as
    # mkdocs-material's script looks for the list): its markers stay text.
    assert '<li class="annotate">A tight item (1)' in page
    assert run("-", "--from", "mkdocs", "-t", "text", input=source).stdout.startswith("Lorem (1) ipsum (2).\n")
