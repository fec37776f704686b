"""SPEC §6.3, docs/safety.md: a site holds the tree and nothing else, and a build writes only
inside its output folder. Each test builds a real tree on a real file system (tmpfs when the
machine has one) as a careless or hostile user would lay it out, and asserts what that user
cares about: no secret in any output, a victim folder byte-identical, exit codes, located
messages, nothing stale."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unicodedata

import pytest

from conftest import TOOL
from test_tooling import Watch, wait_for

SECRET = "SECRET-7f3a9c"


@pytest.fixture
def tree():
    """A fresh folder on tmpfs (/dev/shm) when there is one, else in the temporary folder;
    its own cache folder, so that runs see only their own records."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    folder = pathlib.Path(tempfile.mkdtemp(prefix="outline-safe-", dir=base))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def build(folder, *args, env=None):
    environment = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache"), **(env or {})}
    return subprocess.run([TOOL, *map(str, args)], cwd=folder, capture_output=True, text=True, env=environment)


def files(folder):
    """Every file below `folder` (relative path -> bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def snapshot(folder):
    """Every entry below `folder`, links as their targets, files as their bytes."""
    out = {}
    for p in sorted(folder.rglob("*")):
        key = str(p.relative_to(folder))
        out[key] = ("link", os.readlink(p)) if p.is_symlink() else ("file", p.read_bytes()) if p.is_file() else ("folder",)
    return out


def assert_no_secret(site):
    for name, data in files(site).items():
        assert SECRET.encode() not in data, f"{name} holds the secret"


# MARK: - 1. Nothing from outside the tree


def test_symbolic_links_out_of_the_tree_are_not_followed(tree):
    (tree / "outside").mkdir()
    (tree / "outside" / "secret.txt").write_text(f"password={SECRET}\n")
    (tree / "outside" / "passwd.md").write_text(f"# Users\n\nroot:{SECRET}\n")
    (tree / "outside" / "folder").mkdir()
    (tree / "outside" / "folder" / "page.md").write_text(f"# Outside page\n\n{SECRET}\n")
    docs = tree / "docs"
    (docs / "img").mkdir(parents=True)
    (docs / "img" / "real.png").write_bytes(b"\x89PNG inside")
    (docs / "index.md").write_text(
        "# Home\n\n[env](env.txt)\n\n[proc](proc.txt)\n\n![inside](alias.png)\n\n[ext](ext/page.md)\n")
    os.symlink("../outside/secret.txt", docs / "env.txt")
    os.symlink("/proc/self/environ", docs / "proc.txt")
    os.symlink("../outside/passwd.md", docs / "users.md")
    os.symlink("../outside/folder", docs / "ext")
    os.symlink("img/real.png", docs / "alias.png")  # inside the tree: kept working
    result = build(tree, "docs", "-o", "site", env={"CI_TOKEN": SECRET})
    assert result.returncode == 0, result.stderr
    site = tree / "site"
    assert_no_secret(site)
    assert not (site / "env.txt").exists() and not (site / "proc.txt").exists()
    assert not (site / "users.html").exists() and not (site / "ext").exists()
    assert (site / "alias.png").read_bytes() == b"\x89PNG inside"
    # Each is a warning at its own place: the links in the tree, the links to them in the page.
    assert "docs/users.md: warning: a symbolic link to" in result.stderr
    assert "docs/ext: warning: a symbolic link to" in result.stderr
    assert "docs/index.md:3:1: warning: 'env.txt' is outside docs" in result.stderr
    assert "docs/index.md:5:1: warning: 'proc.txt' is outside docs" in result.stderr
    # --strict makes them errors; nothing of the secret either way.
    strict = build(tree, "docs", "-o", "site2", "--strict", env={"CI_TOKEN": SECRET})
    assert strict.returncode == 1
    assert_no_secret(tree / "site2")


def test_special_files_are_never_read_as_assets(tree):
    docs = tree / "docs"
    docs.mkdir()
    os.mkfifo(docs / "pipe.txt")
    (docs / "index.md").write_text("# Home\n\n[pipe](pipe.txt)\n")
    result = build(tree, "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    assert not (tree / "site" / "pipe.txt").exists()


# MARK: - 2. Nothing outside the output


def test_a_link_in_the_output_folder_is_never_followed(tree):
    victim = tree / "victim"
    victim.mkdir()
    (victim / "authorized_keys").write_text("ssh-ed25519 AAAA owner\n")
    (victim / "page.html").write_text("mine\n")
    (victim / "x.html").write_text("mine too\n")
    docs = tree / "docs"
    (docs / "f").mkdir(parents=True)
    (docs / "f" / "page.md").write_text("# Page\n\n[keys](authorized_keys)\n")
    (docs / "f" / "authorized_keys").write_text("ssh-rsa attacker\n")
    (docs / "x.md").write_text("# X\n")
    site = tree / "site"
    site.mkdir()
    os.symlink("../victim", site / "f")
    before = snapshot(victim)
    result = build(tree, "docs", "-o", "site")
    assert result.returncode == 2
    assert "site/f" in result.stderr and "symbolic link" in result.stderr
    assert snapshot(victim) == before
    # A link at an output's own name is replaced by the page, never written through.
    os.unlink(site / "f")
    os.symlink("../victim/x.html", site / "x.html")
    result = build(tree, "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    assert snapshot(victim) == before
    assert not (site / "x.html").is_symlink() and b"<h1" in (site / "x.html").read_bytes()


# MARK: - 3. No silent overwrite


@pytest.mark.parametrize("name, link", [
    ("guide.html", "guide.html"),
    ("sitemap.xml", "sitemap.xml"),
    ("outline-site/nav.js", "outline-site/nav.js"),
    ("404.html", "404.html"),
])
def test_an_asset_over_a_page_or_a_file_the_site_makes_is_a_conflict(tree, name, link):
    docs = tree / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\ntext\n")
    (docs / "index.md").write_text(f"# Home\n\n[raw]({link})\n")
    raw = docs / name
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.write_text("<script>document.title='pwned'</script>\n")
    result = build(tree, "docs", "-o", "site", "--site-url", "https://example.org/")
    assert result.returncode == 2, result.stderr
    assert f"docs/{name}" in result.stderr, result.stderr
    assert not (tree / "site").exists(), "nothing is written"


# MARK: - 4. Nothing stale


def test_outputs_whose_source_is_gone_are_removed_and_nothing_else(tree):
    docs = tree / "docs"
    (docs / "old").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n\n[s](secret.md) ![i](old/pic.png)\n")
    (docs / "secret.md").write_text(f"# Secret\n\n{SECRET}\n")
    (docs / "old" / "pic.png").write_bytes(b"png")
    (docs / "old" / "gone.md").write_text("# Gone\n")
    assert build(tree, "docs", "-o", "site").returncode == 0
    site = tree / "site"
    (site / "CNAME").write_text("docs.example.org\n")  # the user's own file
    (site / "mine").mkdir()
    (site / "mine" / "page.html").write_text("hand-made\n")
    (docs / "secret.md").unlink()
    shutil.rmtree(docs / "old")
    (docs / "index.md").write_text("# Home\n\nnothing linked\n")
    check = build(tree, "docs", "-o", "site", "--check")
    assert check.returncode == 1
    for stale in ["site/secret.html", "site/old/gone.html", "site/old/pic.png"]:
        assert f"{stale}: error: stale" in check.stderr, check.stderr
    result = build(tree, "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    assert not (site / "secret.html").exists() and not (site / "old").exists()
    assert_no_secret(site)
    assert (site / "CNAME").read_text() == "docs.example.org\n"
    assert (site / "mine" / "page.html").read_text() == "hand-made\n"
    assert build(tree, "docs", "-o", "site", "--check").returncode == 0
    # A rerun after the change equals a clean build (but for the user's own files).
    clean = build(tree, "docs", "-o", "clean", "--no-cache")
    assert clean.returncode == 0
    mine = {"CNAME", "mine/page.html"}
    assert {k: v for k, v in files(site).items() if k not in mine} == files(tree / "clean")


def test_stale_pages_are_found_without_any_record(tree):
    """A fresh clone of a committed site, or `--no-cache`: the pages carry the tool's mark."""
    docs = tree / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n")
    (docs / "secret.md").write_text(f"# Secret\n\n{SECRET}\n")
    assert build(tree, "docs", "-o", "site", "--no-cache").returncode == 0
    (tree / "site" / "hand.html").write_text("<!DOCTYPE html><title>mine</title>\n")
    (docs / "secret.md").unlink()
    other_cache = {"XDG_CACHE_HOME": str(tree / "elsewhere")}
    check = build(tree, "docs", "-o", "site", "--check", env=other_cache)
    assert check.returncode == 1 and "site/secret.html: error: stale" in check.stderr, check.stderr
    result = build(tree, "docs", "-o", "site", "--no-cache")
    assert result.returncode == 0, result.stderr
    assert not (tree / "site" / "secret.html").exists()
    assert (tree / "site" / "hand.html").exists()
    assert_no_secret(tree / "site")
    assert not (tree / "cache").exists(), "--no-cache keeps nothing"


def test_pages_inside_the_input_folder_are_never_taken_for_stale(tree):
    docs = tree / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n")
    assert build(tree, "docs", "-o", "docs/_built").returncode == 0  # pages inside the input
    result = build(tree, "docs", "-o", ".", "--no-cache")
    assert result.returncode == 0, result.stderr
    assert (docs / "_built" / "a.html").exists() and (tree / "a.html").exists()


def test_check_compares_bytes_whatever_the_record_says(tree):
    docs = tree / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nsome text\n")
    assert build(tree, "docs", "-o", "site").returncode == 0
    page = tree / "site" / "a.html"
    info = page.stat()
    data = page.read_bytes()
    page.write_bytes(data.replace(b"some text", b"evil text"))
    os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert page.stat().st_size == info.st_size
    check = build(tree, "docs", "-o", "site", "--check")
    assert check.returncode == 1 and "site/a.html: error: stale" in check.stderr, check.stderr


# MARK: - 5. Watch that ends or recovers


def test_watching_what_is_not_there_ends_at_once(tree):
    for args in (["nothere", "-o", "site"], ["nothere.md", "-o", "out.html"]):
        result = subprocess.run([TOOL, *args, "--watch"], cwd=tree, capture_output=True, text=True, timeout=30)
        assert result.returncode == 1
        assert f"{args[0]}: error: cannot read" in result.stderr


def test_a_watched_folder_deleted_and_made_again_is_watched_again(tree):
    docs = tree / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# First\n")
    site = tree / "site"
    watch = Watch(tree, "docs", "-o", "site", env={**os.environ, "XDG_CACHE_HOME": str(tree / "cache")})
    try:
        wait_for(lambda: (site / "a.html").exists())
        shutil.rmtree(docs)
        docs.mkdir()
        (docs / "a.md").write_text("# Second\n")
        wait_for(lambda: "Second" in (site / "a.html").read_text())
        (docs / "a.md").write_text("# Third\n")
        wait_for(lambda: "Third" in (site / "a.html").read_text())
    finally:
        watch.stop()


# MARK: - 6. Every message located, the same on every run


def test_a_rerun_says_what_a_clean_run_says_when_an_asset_is_gone(tree):
    docs = tree / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\ntext\n\n[the paper](doc.pdf)\n")
    (docs / "doc.pdf").write_bytes(b"%PDF")
    assert build(tree, "docs", "-o", "site").returncode == 0
    (docs / "doc.pdf").unlink()
    rerun = build(tree, "docs", "-o", "site")
    clean = build(tree, "docs", "-o", "clean", "--no-cache")
    expected = "docs/index.md:5:1: warning: no file 'doc.pdf' (linked from here)"
    assert rerun.returncode == clean.returncode == 0, rerun.stderr
    assert expected in rerun.stderr and expected in clean.stderr
    assert "error" not in rerun.stderr
    assert not (tree / "site" / "doc.pdf").exists()


def test_a_nul_in_json_is_refused_at_its_own_place(tree):
    docs = tree / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n")
    (docs / "bad.json").write_text('{"version": 1,\n "sections": [\n  {"title": "a\\u0000b"}]}\n')
    result = build(tree, "docs", "-o", "site", "--index")
    assert result.returncode == 1
    assert "docs/bad.json:3:15: error:" in result.stderr, result.stderr
    assert "index.md:5" not in result.stderr
    assert (tree / "site" / "index.html").exists()
    nav = (tree / "site" / "outline-site" / "nav.js").read_text()
    assert "bad.html" not in nav


# MARK: - 7. Names as Linux has them


def test_nfc_and_nfd_names_are_two_files(tree):
    docs = tree / "docs"
    nfc, nfd = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")
    assert nfc != nfd
    for name, form in ((nfc, "NFC"), (nfd, "NFD")):
        (docs / name).mkdir(parents=True)
        (docs / name / "page.md").write_text(f"# Page in {form}\n")
        (docs / f"{name}.md").write_text(f"# File in {form}\n")
    result = build(tree, "docs", "-o", "site", "--strict")
    assert result.returncode == 0, result.stderr
    for name, form in ((nfc, "NFC"), (nfd, "NFD")):
        assert f"Page in {form}" in (tree / "site" / name / "page.html").read_text()
        assert f"File in {form}" in (tree / "site" / f"{name}.html").read_text()


def test_a_name_of_255_bytes_is_written(tree):
    docs = tree / "docs"
    docs.mkdir()
    stem = "é" * 100 + "a" * 50  # 250 bytes: `.html` makes the output's name 255
    (docs / f"{stem}.md").write_text("# Long\n")
    result = build(tree, "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    assert len(f"{stem}.html".encode()) == 255
    assert (tree / "site" / f"{stem}.html").exists()


def test_a_page_that_cannot_be_written_is_in_no_navigation(tree):
    docs = tree / "docs"
    docs.mkdir()
    for name in ["a", "b", "c"]:
        (docs / f"{name}.md").write_text(f"# {name.upper()} page\n")
    (tree / "site" / "b.html").mkdir(parents=True)  # a folder where the page goes: it fails
    (tree / "site" / "b.html" / "keep").write_text("x")
    result = build(tree, "docs", "-o", "site", "--site-url", "https://example.org/")
    assert result.returncode == 1
    site = tree / "site"
    for shared in ["outline-site/nav.js", "outline-site/search.js", "sitemap.xml", "a.html", "c.html"]:
        assert "b.html" not in (site / shared).read_text(), shared
    assert 'href="c.html"' in (site / "a.html").read_text()


# MARK: - 8. Inputs read as their tools read them


@pytest.mark.parametrize("url", ["https://a.org/docs?v=1", "https://a.org/docs#frag", "https://user:pass@a.org/docs/"])
def test_a_site_url_with_query_fragment_or_user_is_a_usage_error(tree, url):
    (tree / "docs").mkdir()
    (tree / "docs" / "a.md").write_text("# A\n")
    result = build(tree, "docs", "-o", "site", "--site-url", url)
    assert result.returncode == 2 and "--site-url" in result.stderr
    assert not (tree / "site").exists()


def test_summary_links_are_read_as_cmark_reads_them(tree):
    docs = tree / "docs"
    docs.mkdir()
    for name in ["a(b)", "q", "r", "z"]:
        (docs / f"{name}.md").write_text(f"# Title {name}\n")
    (docs / "SUMMARY.md").write_text(
        "# Summary\n\n- [Z first](z.md)\n- [P](a(b).md)\n- [T](q.md \"a title\")\n- [A](<r.md>)\n")
    result = build(tree, "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    assert "SUMMARY.md" not in result.stderr, result.stderr
    nav = (tree / "site" / "outline-site" / "nav.js").read_text()
    data = json.loads(nav[nav.index("(") + 1:nav.rindex(")")])
    assert [data["pages"][number][1] for number in data["tree"][2:]] == ["Z first", "P", "T", "A"], nav


def test_opml_link_outlines_are_rewritten_and_checked(tree):
    docs = tree / "docs"
    docs.mkdir()
    (docs / "other.md").write_text("# Other\n\n## Here\n\ntext\n")
    (docs / "list.opml").write_text(
        '<?xml version="1.0"?>\n<opml version="2.0"><head><title>L</title></head><body>\n'
        '<outline text="Good" type="link" url="other.md#here"/>\n'
        '<outline text="Bad" type="link" url="other.md#nowhere"/>\n'
        '<outline text="Missing" type="link" url="gone.md"/>\n'
        '</body></opml>\n')
    result = build(tree, "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    page = (tree / "site" / "list.html").read_text()
    assert 'href="other.html#here"' in page
    assert "docs/list.opml:4: warning: no section 'nowhere' in docs/other.md" in result.stderr, result.stderr
    assert "docs/list.opml:5: warning: no file 'gone.md'" in result.stderr


# MARK: - The browser: a raw page beside its source cannot run script in the site


def test_a_raw_html_file_beside_its_page_cannot_run_script(tree):
    from test_browser import make_driver
    docs = tree / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nThe real guide.\n")
    (docs / "index.md").write_text("# Home\n\n[guide](guide.md)\n")
    assert build(tree, "docs", "-o", "site").returncode == 0
    (docs / "guide.html").write_text("<script>document.title='pwned'</script>\n")
    (docs / "index.md").write_text("# Home\n\n[guide](guide.html)\n")
    assert build(tree, "docs", "-o", "site").returncode == 2
    driver = make_driver()
    try:
        driver.get((tree / "site" / "guide.html").as_uri())
        assert driver.title != "pwned"
        assert "The real guide." in driver.find_element("tag name", "body").text
    finally:
        driver.quit()
