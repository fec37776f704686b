"""Front matter as YAML reads it: our reader (libyaml) against PyYAML, an independent
implementation, on real files and on written ones; and what is not front matter."""
import json
import random

import pytest
import yaml

from conftest import ROOT, run

REAL = sorted(p for p in (ROOT / "Tests/real").rglob("*.md") if p.read_text(encoding="utf-8", errors="replace").startswith("---\n"))

# Front matter as real tools write it: Jekyll, Hugo, mkdocs-material's blog, Obsidian, pandoc.
WRITTEN = [
    'title: "Hello: world"\ndate: 2024-01-02 10:00:00 +0100\ncategories: [blog, news]\n',
    "title: Post # a comment\ndraft: true\nweight: 10\ntags:\n- a\n- 'b c'\n",
    "date:\n  created: 2023-12-31\n  updated: 2024-01-01\nauthors:\n  - squidfunk\nslug: my-post\n",
    "aliases:\n  - First name\n  - \"Second, with comma\"\ntags: [project/x, \"#idea\"]\ncssclasses: wide\n",
    "title: |\n  Line one\n  Line two\nabstract: >\n  Folded\n  text\n\n  New paragraph\n",
    "title: 'It''s'\nescaped: \"tab\\tnew\\nline \\u00e9 \\x41 \\\\ \\\"\"\nempty:\nnull-word: ~\n",
    "hide:\n  - navigation\n  - toc\nsearch:\n  exclude: true\nicon: material/emoticon-happy\n",
    "base: &b\n  x: 1\nother: *b\nplain: multi\n  line\n  plain\n",
    "{}\n",
    "title: 中文标题\n標籤: 値\nemoji: 🚀\n",
]


def ours(markdown_path):
    outline = json.loads(run(markdown_path, "--to", "json").stdout)
    return outline.get("title"), outline.get("attributes", {})


def check_against_pyyaml(block, title, attributes):
    expected = yaml.load(block, Loader=yaml.BaseLoader) or {}
    assert isinstance(expected, dict)
    expected.pop("collapse-depth", None)
    expected.pop("outline-render", None)
    want_title = expected.pop("title", None)
    if isinstance(want_title, str):
        # (A title is one line, its white space collapsed, as every title is; `~` is none.)
        assert title == (" ".join(want_title.split()) or None if want_title != "~" else None)
    assert set(attributes) == set(expected)
    for key, value in expected.items():
        if isinstance(value, str):
            assert attributes[key] == value, key
        else:
            # A nested value is kept as YAML on one line, which reads as the same value.
            assert "\n" not in attributes[key]
            assert yaml.load(attributes[key], Loader=yaml.BaseLoader) == value, key


@pytest.mark.parametrize("block", WRITTEN, ids=range(len(WRITTEN)))
def test_front_matter_reads_as_pyyaml_reads_it(tmp_path, block):
    path = tmp_path / "page.md"
    path.write_text("---\n" + block + "---\n\n# Heading\n\nText.\n", encoding="utf-8")
    title, attributes = ours(path)
    check_against_pyyaml(block, title, attributes)


@pytest.mark.parametrize("path", REAL, ids=lambda p: str(p.relative_to(ROOT / "Tests/real")))
def test_real_front_matter_reads_as_pyyaml_reads_it(path):
    text = path.read_text(encoding="utf-8")
    block = text[4:].split("\n---\n", 1)[0] + "\n"
    title, attributes = ours(path)
    check_against_pyyaml(block, title, attributes)


HOSTILE = ["\x01", "\x1b", "\x7f", "\x85", "\x9f", "\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff", "\t", "\r", "\n",
           '"', "'", "\\", ": ", " #", "#", "- ", "? ", "&a", "*a", "!tag", "|", ">", "%", "@", "`", "{", "}", "[", "]",
           ",", " ", "\u0338", "é", "中", "🚀", "~", "null", "yes", "1.0", "---", "...", "a"]


def test_written_front_matter_reads_back_in_pyyaml_and_in_ours(tmp_path):
    """Keys and values of every awkward kind go out as YAML that PyYAML and our reader read
    as they were: nothing is left out."""
    rng = random.Random(7)
    attributes = {}
    for index in range(60):
        key = "".join(rng.choice(HOSTILE) for _ in range(rng.randint(1, 4)))
        value = "".join(rng.choice(HOSTILE) for _ in range(rng.randint(0, 6)))
        if key not in ("title", "collapse-depth", "outline-render"):
            attributes[key] = value
    attributes["plain-key"] = "plain value"
    source = tmp_path / "in.json"
    source.write_text(json.dumps({"version": 1, "title": "T", "attributes": attributes, "sections": []}), encoding="utf-8")
    written = run(source, "--to", "markdown")
    assert written.stderr == ""
    text = written.stdout
    assert text.startswith("---\n")
    block = text[4:].split("\n---\n", 1)[0]
    assert "plain-key: " in block  # a plain key stays plain
    read = yaml.load(block, Loader=yaml.BaseLoader)
    assert read.pop("title") == "T"
    assert read == attributes
    back = tmp_path / "back.md"
    back.write_bytes(text.encode("utf-8"))
    assert ours(back) == ("T", attributes)


@pytest.mark.parametrize(
    "block, line, column",
    [
        ("title: a: b\n", 2, 9),  # pandoc refuses it as well
        ("title: x\n  bad: indent\n", 3, 6),
        ('title: "unclosed\n', 3, 1),
    ],
)
def test_a_mapping_yaml_cannot_read_is_markdown_with_a_located_warning(tmp_path, block, line, column):
    path = tmp_path / "page.md"
    path.write_text("---\n" + block + "---\n\n# Heading\n", encoding="utf-8")
    result = run(path, "--to", "json")
    assert result.returncode == 0
    assert f"page.md:{line}:{column}: warning: the front matter is not read: YAML: " in result.stderr
    outline = json.loads(result.stdout)
    assert "attributes" not in outline and "title" not in outline
    # The block is Markdown, as cmark reads it: a rule, then what follows.
    assert outline["body"].startswith("---")


def test_a_block_that_only_looks_like_markdown_has_no_warning(tmp_path):
    path = tmp_path / "page.md"
    path.write_text("---\n*emphasis* and [a link](x)\n---\n\nText.\n", encoding="utf-8")
    result = run(path, "--to", "json")
    assert result.returncode == 0 and result.stderr == ""
    assert json.loads(result.stdout)["sections"][0]["title"] == "emphasis and a link"


def test_a_bad_collapse_depth_is_an_error_at_its_value_in_both_markdown_readers(tmp_path):
    for name, rest in (("page.md", "# H\n"), ("outline.md", "- a\n\t- b\n")):
        path = tmp_path / name
        path.write_text("---\ncollapse-depth:   deep\n---\n" + rest, encoding="utf-8")
        result = run(path, "--to", "json", check=False)
        assert result.returncode != 0 and result.stdout == ""
        assert f"{name}:2:19: error: collapse-depth must be a whole number" in result.stderr


def test_obsidian_aliases_and_tags_from_front_matter_name_and_tag_the_note(tmp_path):
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / "Note.md").write_text("---\naliases: [\"Other, name\"]\ntags:\n  - '#idea'\n  - plan\n---\n# Note\n\nText.\n", encoding="utf-8")
    (vault / "Index.md").write_text("# Index\n\nSee [[Other, name]].\n", encoding="utf-8")
    site = tmp_path / "site"
    result = run(vault, "-o", site)
    assert result.returncode == 0, result.stderr
    index = (site / "Index.html").read_text(encoding="utf-8")
    assert 'href="Note.html"' in index
    for tag in ("idea", "plan"):
        assert 'href="../Note.html"' in (site / "tags" / f"{tag}.html").read_text(encoding="utf-8")


def test_an_escaped_nul_is_refused_as_in_every_other_format(tmp_path):
    # (YAML's `\0`, `\x00` and `\u0000` make a character no outline's text holds.)
    for escape in ("\\0", "\\x00", "\\u0000"):
        path = tmp_path / "page.md"
        path.write_text(f'---\nauthor: Ada\ntitle: "a{escape}b"\n---\n# H\n', encoding="utf-8")
        result = run(path, "-o", tmp_path / "page.html", check=False)
        assert result.returncode != 0 and not (tmp_path / "page.html").exists()
        assert "page.md:3:8: error: a NUL character (\\0) is not allowed in an outline's text" in result.stderr
