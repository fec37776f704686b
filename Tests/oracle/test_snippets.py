"""pymdownx snippets in an mkdocs project (docs/formats.md, "Snippets").

The oracle is pymdown-extensions itself: its `SnippetPreprocessor.run` expands each page
with the same options, and the page it gives, built without snippets, must equal ours
built with them, body for body (`--to json` keeps every body's Markdown as written).
Then what differs on purpose: nothing outside the project is read, a missing snippet is
a located warning (an error with `check_paths`), messages inside a snippet name the
snippet's own file, and editing a snippet rebuilds the pages that include it."""
import json
import os

import pytest

from conftest import ROOT
from test_docs_site import tool

MATERIAL = ROOT / "Tests" / "real" / "mkdocs-material"

SNIPPETS = {
    "a.md": "line 1\nline 2\n  indented 3\nline 4\n--8<-- [start:sec]\nin section\n"
            "  --8<-- [start:inner]\n  inner line\n  --8<-- [end:inner]\nafter inner\n"
            "--8<-- [end:sec]\ntail ;--8<-- [start:esc]\nlast\n",
    "nested.md": "before\n--8<-- \"a.md:1:2\"\nafter\n",
    "loop.md": "loop start\n--8<-- \"loop.md\"\nloop end\n",
    "crlf.md": "one\r\ntwo\r\n\r\nthree\rfour\r\n",
    "glossary.md": "[ref]: https://example.org/ref\n*[HTML]: Hyper Text\n",
    "deep/inside.md": "    four spaces\n\tone tab\n--8<-- [start:d]\n        deeper\n      less\n--8<-- [end:d]\n",
}

PAGES = {
    "inline.md": "# Inline\n\nText\n\n--8<-- \"a.md\"\n\nEnd with [ref].\n",
    "ranges.md": "# Ranges\n\n--8<-- \"a.md:2:3\"\n\n--8<-- \"a.md:-2:\"\n\n--8<-- \"a.md:1:1,3:4\"\n\n"
                 "--8<-- \"a.md::2\"\n\n--8<-- \"a.md:3\"\n\n--8<-- \"a.md:-3:-2\"\n\n--8<-- \"a.md:0:1\"\n\n"
                 "--8<-- \"a.md:9:99\"\n",
    "sections.md": "# Sections\n\n--8<-- \"a.md:sec\"\n\n--8<-- \"a.md:inner\"\n\n--8<-- \"a.md:esc\"\n\n"
                   "--8<-- \"deep/inside.md:d\"\n",
    "block.md": "# Block\n\n--8<--\na.md:1:1\n\nnested.md\n;commented.md\n  --8<-- \"a.md\"\n--8<--\n\nAfter.\n",
    "escaped.md": "# Escaped\n\n;--8<-- \"a.md\"\n\n;;--8<-- \"a.md:1:1\"\n\n;--8<--\n\n"
                  "text ;--8<-- [start:x]\n",
    "indented.md": "# Indented\n\n- item\n\n    --8<-- \"a.md:1:3\"\n\n-\tsecond\n\n\t--8<-- \"nested.md\"\n",
    "recursion.md": "# Recursion\n\n--8<-- \"loop.md\"\n\n--8<-- \"recursion.md\"\n",
    "crlf.md": "# CRLF\r\n\r\n--8<-- \"crlf.md\"\r\n\r\n--8<-- \"a.md:1:2\"\r\nend\r\n",
    "markers.md": "# Markers\n\nkept\n--8<-- [start:x]\nin x\n--8<-- [end:x]\n--8<-- [START:y]\n"
                  "  ;--8<-- [end:x] escaped\n",
    "quotes.md": "# Quotes\n\n--8<-- 'a.md:1:1'\n\n--8<-- \"a.md:1:1\" trailing\n\n--8<--  \"a.md:2:2\"   \n\n"
                 "---8<--- \"a.md:4:4\"\n\n--8<-- \"\"\n\n--8<-- \"deep/inside.md\"\n",
    "missing.md": "# Missing\n\n--8<-- \"nope.md\"\n\n--8<-- \"a.md:nosection\"\n\nkept\n",
}


def project(tmp_path, options, pages=PAGES, extra=""):
    """An mkdocs project with `SNIPPETS` under `snips/` and `pages` in `docs/`."""
    root = tmp_path / "proj"
    for name, text in SNIPPETS.items():
        path = root / "snips" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    (root / "docs").mkdir(parents=True)
    for name, text in pages.items():
        (root / "docs" / name).write_bytes(text.encode())
    (root / "mkdocs.yml").write_text(
        "site_name: Snippets\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.snippets:\n"
        + "".join(f"      {key}: {json.dumps(value)}\n" for key, value in options.items()) + extra)
    return root


def pymdownx_expanded(root, text, options):
    """The page `text` as pymdownx's own preprocessor expands it, run where mkdocs runs
    (the project's folder)."""
    import markdown
    here = os.getcwd()
    os.chdir(root)
    try:
        md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options})
        return "\n".join(md.preprocessors["snippet"].run(text.split("\n")))
    finally:
        os.chdir(here)


def bodies(root, out):
    result = tool(root, "proj/docs", "--to", "json", "-o", out)
    return result, {p.name: json.loads(p.read_text()) for p in (root / out).rglob("*.json")}


def expanded_tree(tmp_path, options, pages=PAGES):
    """What pymdownx makes of every page, as a project without snippets."""
    root = project(tmp_path, options, pages)
    oracle = tmp_path / "oracle"
    (oracle / "docs").mkdir(parents=True)
    (oracle / "mkdocs.yml").write_text("site_name: Snippets\nmarkdown_extensions:\n  - attr_list\n")
    for name, text in pages.items():
        (oracle / "docs" / name).write_bytes(pymdownx_expanded(root, text, options).encode())
    return root, oracle


@pytest.mark.parametrize("options", [
    {"base_path": [".", "snips"], "auto_append": ["snips/glossary.md"]},
    {"base_path": "snips", "dedent_subsections": True},
])
def test_pages_expand_as_pymdownx_expands_them(tmp_path, options):
    root, oracle = expanded_tree(tmp_path, options)
    ours, built = bodies(tmp_path, "ours")
    assert ours.returncode == 0, ours.stderr
    theirs = tool(oracle, "docs", "--to", "json", "-o", tmp_path / "theirs")
    assert theirs.returncode == 0, theirs.stderr
    expected = {p.name: json.loads(p.read_text()) for p in (tmp_path / "theirs").rglob("*.json")}
    assert sorted(built) == sorted(expected) == sorted(n.replace(".md", ".json") for n in PAGES)
    for name in expected:
        assert built[name] == expected[name], name
    # (The pages hold what they name: a real check that expansion happened.)
    assert "line 2" in json.dumps(built["inline.json"])
    if "auto_append" in options:
        assert "https://example.org/ref" in json.dumps(built["inline.json"])


def test_random_pages_expand_as_pymdownx_expands_them(tmp_path):
    """Pages made at random (fixed seed) of the pieces of snippet notation."""
    import random
    pieces = ["--8<--", "-8<-", "---8<---", " ", "\t", ";", '"a.md"', "'a.md:1:2'", '"a.md:sec"', '"nested.md"',
              "[start:sec]", "[end:sec]", "[START:x]", "x", '\\"', '"', ":", ",", "-1", "\r", "a.md:2:3", "a.md", "8<"]
    rng = random.Random(20261205)
    pages = {}
    for number in range(150):
        def line():
            if rng.random() < 0.4:
                return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 5)))
            # (Shaped like notation, with a piece changed now and then.)
            parts = [rng.choice(["", " ", "  ", "\t", "    "]), rng.choice(["", "", "", ";"]), rng.choice(pieces[:3])]
            parts += [rng.choice(["", " ", " ", "\t "]), rng.choice(pieces[4:])] + [rng.choice(["", "", "\r", " "])]
            return "".join(parts)
        lines = [line() for _ in range(rng.randint(1, 8))]
        pages[f"r{number}.md"] = f"# Page {number}\n\n" + "\n".join(lines) + "\n"
    options = {"base_path": "snips"}
    root, oracle = expanded_tree(tmp_path, options, pages)
    ours, built = bodies(tmp_path, "ours")
    theirs = tool(oracle, "docs", "--to", "json", "-o", tmp_path / "theirs")
    expected = {p.name: json.loads(p.read_text()) for p in (tmp_path / "theirs").rglob("*.json")}
    assert len(expected) == 150
    changed = sum(pymdownx_expanded(root, text, options) != text for text in pages.values())
    assert changed >= 30, changed  # (enough of them hold a snippet or a marker)
    for name in expected:
        assert built[name] == expected[name], (name, pages[name.replace(".json", ".md")])


def test_what_is_left_out_is_said_where_it_is_written(tmp_path):
    root = project(tmp_path, {"base_path": "snips"}, {"missing.md": PAGES["missing.md"], "recursion.md": PAGES["recursion.md"]})
    result = tool(tmp_path, "proj", "-o", "site")
    assert result.returncode == 0, result.stderr
    assert "proj/docs/missing.md:3:9: warning: the snippet 'nope.md' is not found in base_path (proj/snips); it is left out" \
        in result.stderr
    assert "proj/snips/loop.md:2:9: warning: the snippet 'proj/snips/loop.md' is already being included here" in result.stderr
    page = (tmp_path / "site" / "missing.html").read_text()
    assert "kept" in page and "nope.md" not in page


def test_check_paths_makes_a_missing_snippet_an_error_of_its_page(tmp_path):
    pages = {"missing.md": PAGES["missing.md"], "inline.md": PAGES["inline.md"]}
    project(tmp_path, {"base_path": "snips", "check_paths": True}, pages)
    # (pymdownx stops the build; here the page fails and the rest is built.)
    import markdown
    from pymdownx.snippets import SnippetMissingError
    with pytest.raises(SnippetMissingError):
        here = os.getcwd()
        os.chdir(tmp_path / "proj")
        try:
            markdown.Markdown(extensions=["pymdownx.snippets"],
                              extension_configs={"pymdownx.snippets": {"base_path": "snips", "check_paths": True}}
                              ).convert(PAGES["missing.md"])
        finally:
            os.chdir(here)
    result = tool(tmp_path, "proj", "-o", "site")
    assert result.returncode == 1
    assert "proj/docs/missing.md:3:9: error: the snippet 'nope.md' is not found in base_path (proj/snips) (check_paths)" \
        in result.stderr
    assert not (tmp_path / "site" / "missing.html").exists()
    assert (tmp_path / "site" / "inline.html").exists()


def test_nothing_outside_the_project_is_read(tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text("TOP SECRET\n")
    pages = {"out.md": "# Out\n\n--8<-- \"../secret.md\"\n\n--8<-- \"link.md\"\n\n--8<-- \"" + str(secret) + "\"\n"}
    root = project(tmp_path, {"base_path": ".", "restrict_base_path": False}, pages)
    (root / "link.md").symlink_to(secret)
    # (pymdownx reads all three.)
    assert pymdownx_expanded(root, pages["out.md"], {"base_path": ".", "restrict_base_path": False}).count("TOP SECRET") == 3
    result = tool(tmp_path, "proj", "-o", "site")
    assert result.returncode == 0, result.stderr
    assert "proj/docs/out.md:3:9: warning: the snippet '../secret.md' is outside the project's folder" in result.stderr
    assert "proj/docs/out.md:5:9: warning: the snippet 'link.md' is outside the project's folder" in result.stderr
    assert "TOP SECRET" not in "".join(p.read_text(errors="replace") for p in (tmp_path / "site").rglob("*") if p.is_file())


def test_a_link_inside_a_snippet_is_reported_in_the_snippet(tmp_path):
    pages = {"page.md": "# Page\n\nFirst line\n\n--8<-- \"broken.md\"\n"}
    root = project(tmp_path, {"base_path": "snips"}, pages)
    (root / "snips" / "broken.md").write_text("ok\n\nsee [there](nowhere.md)\n")
    result = tool(tmp_path, "proj", "-o", "site")
    assert "proj/snips/broken.md:3:5: warning: no file" in result.stderr, result.stderr


def test_editing_a_snippet_rebuilds_the_pages_that_include_it(tmp_path):
    pages = {"uses.md": "# Uses\n\n--8<-- \"glossary.md\"\n\n[ref]\n", "other.md": "# Other\n\nplain\n"}
    root = project(tmp_path, {"base_path": "snips"}, pages)
    old = os.stat(root / "snips" / "glossary.md")
    os.utime(root / "snips" / "glossary.md", (old.st_atime - 10, old.st_mtime - 10))
    for path in (root / "docs").iterdir():
        os.utime(path, (old.st_atime - 10, old.st_mtime - 10))
    first = tool(tmp_path, "proj", "-o", "site")
    assert first.returncode == 0 and "2 written" in first.stderr, first.stderr
    again = tool(tmp_path, "proj", "-o", "site")
    assert "0 written, 2 unchanged" in again.stderr, again.stderr
    (root / "snips" / "glossary.md").write_text("[ref]: https://example.org/changed\n")
    changed = tool(tmp_path, "proj", "-o", "site")
    assert "1 written" in changed.stderr, changed.stderr
    assert "https://example.org/changed" in (tmp_path / "site" / "uses.html").read_text()


def test_mkdocs_material_gets_its_auto_appended_links():
    """mkdocs-material's docs define `[x][mkdocs.*]` links only in the snippet that
    `auto_append` adds to every page (`includes/mkdocs.md`)."""
    import re
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as out:
        result = subprocess.run([os.environ.get("OUTLINE_RENDER", str(ROOT / ".build/debug/outline-render")),
                                 str(MATERIAL), "-o", out, "--no-cache"], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        definitions = dict(re.findall(r"^\s*\[([^\]]+)\]: (\S+)", (MATERIAL / "includes" / "mkdocs.md").read_text(), re.M))
        checked = 0
        for page in (MATERIAL / "docs").rglob("*.md"):
            text = page.read_text()
            own = set(re.findall(r"^\s*\[([^\]]+)\]:", text, re.M))
            # (Not in admonition titles, which are not read as Markdown yet, nor names
            # the page defines itself.)
            for name in set(re.findall(r"^(?![!?=]).*\]\[(mkdocs[.\w]*)\]", text, re.M)) - own:
                html_file = os.path.join(out, str(page.relative_to(MATERIAL / "docs"))[:-3] + ".html")
                assert f'href="{definitions[name]}"' in open(html_file).read(), (page, name)
                checked += 1
        assert checked >= 20


def test_watch_sees_the_project_file_and_its_snippets(tmp_path):
    from test_tooling import Watch, wait_for
    pages = {"index.md": "# Home\n\n--8<-- \"glossary.md\"\n\n[ref]\n"}
    root = project(tmp_path, {"base_path": "snips"}, pages)
    site = root / "site"
    watch = Watch(root, ".", "-o", "site", env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        wait_for(lambda: (site / "index.html").exists() and "example.org/ref" in (site / "index.html").read_text())
        (root / "snips" / "glossary.md").write_text("[ref]: https://example.org/edited\n")
        wait_for(lambda: "example.org/edited" in (site / "index.html").read_text())
        (root / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text().replace("site_name: Snippets", "site_name: Renamed"))
        wait_for(lambda: "<title>Renamed<" in (site / "index.html").read_text())
    finally:
        watch.stop()
