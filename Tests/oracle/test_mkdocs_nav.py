"""An mkdocs project's `nav` is its site's navigation (docs/sites.md, "mkdocs projects").

The oracle is mkdocs itself: its `get_navigation` on the same files and `mkdocs.yml`
(mkdocs-material's own docs, Tests/real/mkdocs-material), label for label, section for
section, link for link. Then what mkdocs does around it: pages left out of `nav` are
built but in no navigation, the pager follows `nav`, and what `nav` names wrongly is a
located warning."""
import html
import pathlib
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, mkdocs_yml_without_code
from test_browser import browser  # noqa: F401 (the shared fixture)
from test_docs_site import tool
from test_site_navigation import make, script_value

MATERIAL = ROOT / "Tests" / "real" / "mkdocs-material"


def mkdocs_navigation(project, docs):
    """mkdocs' navigation of `docs` by the `mkdocs.yml` in `project`, as (depth, kind,
    title, target) rows. Its plugins and hooks are left out (they run code of their own,
    and mkdocs' core builds the navigation), and so is the theme's `custom_dir`, which is
    not in the copy."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files
    from mkdocs.structure.nav import Link, Section, get_navigation

    config_file = docs.parent / "oracle-mkdocs.yml"
    config_file.write_text(mkdocs_yml_without_code((project / "mkdocs.yml").read_text()))
    try:
        config = load_config(str(config_file), docs_dir=str(docs))
        nav = get_navigation(get_files(config), config)
        for page in nav.pages:
            page.read_source(config)
    finally:
        config_file.unlink()
    rows = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, Section):
                rows.append((depth, "section", item.title, None))
                walk(item.children, depth + 1)
            elif isinstance(item, Link):
                # (A link without a label has no title in mkdocs; ours shows its URL.)
                rows.append((depth, "link", item.title or item.url, item.url))
            else:
                rows.append((depth, "page", item.title, item.file.src_uri))
    walk(nav.items, 0)
    return rows


def our_navigation(site):
    """Our site's navigation (nav.js) as the same rows; a page's target is its source's path."""
    data = script_value(site / "outline-site" / "nav.js", "outlineSiteNavigation")
    pages, rows = data["pages"], []

    def walk(folder, depth):
        if folder[1] >= 0:
            rows.append((depth, "index", pages[folder[1]][1], re.sub(r"\.html$", ".md", pages[folder[1]][0])))
        for entry in folder[2:]:
            if isinstance(entry, int):
                rows.append((depth, "page", pages[entry][1], re.sub(r"\.html$", ".md", pages[entry][0])))
            elif isinstance(entry, dict):
                rows.append((depth, "link", entry["title"], entry["url"]))
            else:
                rows.append((depth, "section", entry[0], None))
                walk(entry, depth + 1)
    walk(data["tree"], 0)
    return rows


def built(tmp_path, tree, folder="."):
    """Makes `tree` in tmp_path and builds `folder` of it (the project's) into site/."""
    make(tmp_path, tree)
    result = tool(tmp_path, folder, "-o", "site")
    assert result.returncode == 0, result.stderr
    return result


def mkdocs_build(project, check=True):
    """`mkdocs build` of `project` into mkdocs-site/, with file names as ours (no directory URLs)."""
    import subprocess
    import sys
    mkdocs = pathlib.Path(sys.executable).parent / "mkdocs"
    subprocess.run([mkdocs, "build", "-q", "--no-directory-urls", "-d", "mkdocs-site"], cwd=project, check=check)


@pytest.fixture(scope="module")
def material_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("material")
    result = tool(root, MATERIAL / "docs", "-o", "site")
    assert result.returncode == 0, result.stderr
    return root / "site", result


def test_mkdocs_materials_nav_is_mkdocs_own(material_site):
    site, result = material_site
    expected = mkdocs_navigation(MATERIAL, MATERIAL / "docs")
    assert our_navigation(site) == expected
    # (The oracle is not trivial: sections, labels that are not the pages' titles, a link.)
    assert ("link" in {row[1] for row in expected}) and sum(row[1] == "section" for row in expected) >= 10
    assert (0, "page", "Home", "index.md") in expected


def test_pages_left_out_of_nav_are_built_in_no_navigation(material_site):
    site, _ = material_site
    listed = {row[3] for row in our_navigation(site) if row[1] == "page"}
    left_out = [p.relative_to(MATERIAL / "docs") for p in (MATERIAL / "docs").rglob("*.md")]
    left_out = [str(p) for p in left_out if str(p) not in listed]
    assert "blog/posts/chinese-search-support.md" in left_out
    for page in left_out:
        page_html = (site / page).with_suffix(".html").read_text()
        assert "outline-pager" not in page_html, page


def test_the_pager_follows_nav_and_its_labels(material_site):
    site, _ = material_site
    page = (site / "getting-started.html").read_text()
    pager = re.search(r'<nav class="outline-pager".*?</nav>', page).group(0)
    # (In nav: Home: index.md, then Getting started: Installation: getting-started.md, then
    # Creating your site.)
    assert re.search(r'rel="prev" href="index.html"><span class="outline-pager-label">Previous</span> Home<', pager)
    assert re.search(r'rel="next" href="creating-your-site.html"><span class="outline-pager-label">Next</span> Creating your site<', pager)


NAV_PROJECT = {
    "mkdocs.yml": (
        "site_name: Test\n"
        "docs_dir: pages\n"
        "nav:\n"
        "  - Start: index.md\n"
        "  - Guide:\n"
        "    - guide/b.md\n"
        "    - First of all: guide/a.md\n"
        "    - Missing: guide/none.md\n"
        "    - Script: javascript:alert(1)\n"
        "    - Empty:\n"
        "  - The source: https://example.org/repo\n"
        "  - Again: index.md\n"
        "  - '':\n"
        "    - more/index.md\n"
        "    - more/c.md\n"
    ),
    "pages/more/index.md": "# More things\n",
    "pages/more/c.md": "# Page C\n",
    "pages/index.md": "# Index page\n",
    "pages/guide/a.md": "# Page A\n",
    "pages/guide/b.md": "# Page B\n",
    "pages/extra.md": "# Not in nav\n",
}


def test_a_project_folder_with_docs_dir_and_what_nav_names_wrongly(tmp_path):
    result = built(tmp_path, NAV_PROJECT, "pages")
    rows = our_navigation(tmp_path / "site")
    assert rows == [
        (0, "page", "Start", "index.md"),
        (0, "section", "Guide", None),
        (1, "page", "Page B", "guide/b.md"),
        (1, "page", "First of all", "guide/a.md"),
        (0, "link", "The source", "https://example.org/repo"),
        (0, "page", "Start", "index.md"),
        # (A section labelled "" is titled and linked by its index page, as FastAPI's
        # docs have mkdocs-material show them.)
        (0, "section", "More things", None),
        (1, "index", "More things", "more/index.md"),
        (1, "page", "Page C", "more/c.md"),
    ]
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert "mkdocs.yml:8:16: warning: nav names 'guide/none.md', which is not a page of the site; it is left out" in warnings
    assert "mkdocs.yml:9:15: warning: nav names 'javascript:alert(1)', a link the site does not follow; it is left out" in warnings
    assert any(line.startswith("mkdocs.yml:10:") and "'Empty' holds no entry" in line for line in warnings), warnings
    assert (tmp_path / "site" / "extra.html").exists()
    # Without script, nav.html lists the same, the link included.
    page = (tmp_path / "site" / "outline-site" / "nav.html").read_text()
    assert '<a href="https://example.org/repo">The source</a>' in page and "extra.html" not in page


def test_the_nav_link_shows_in_the_browser(tmp_path, browser):  # noqa: F811
    make(tmp_path, NAV_PROJECT)
    assert tool(tmp_path, "pages", "-o", "site").returncode == 0
    browser.get((tmp_path / "site" / "guide" / "a.html").as_uri())
    tree = browser.find_element(By.CSS_SELECTOR, ".outline-site-tree")
    browser.implicitly_wait(5)
    link = tree.find_element(By.CSS_SELECTOR, 'a[href="https://example.org/repo"]')
    assert link.get_attribute("textContent") == "The source"
    current = tree.find_element(By.CSS_SELECTOR, '[aria-current="page"]')
    assert current.get_attribute("textContent") == "First of all"


NAV_FORMS = {
    # The forms mkdocs takes: bare paths, nested sections, a one-key map, a bare URL, a
    # section of one entry, labels quoted and with markup.
    "mkdocs.yml": (
        "site_name: Forms\n"
        "nav:\n"
        "  - index.md\n"
        "  - 'The `guide`':\n"
        "      - guide/index.md\n"
        "      - Deeper:\n"
        "          - Deepest: guide/deep/page.md\n"
        "      - https://example.org/bare\n"
        "  - {One key: other.md}\n"
        "  - \"Quoted & <b>\": guide/page.md\n"
    ),
    "docs/index.md": "---\ntitle: From front matter\n---\n# Heading one\n",
    "docs/other.md": "Text only.\n",
    "docs/guide/index.md": "# Guide home\n",
    "docs/guide/page.md": "# Guide page\n",
    "docs/guide/deep/page.md": "# Deep page\n",
}


def test_the_forms_of_nav_read_as_mkdocs_reads_them(tmp_path):
    result = built(tmp_path, NAV_FORMS)
    expected = mkdocs_navigation(tmp_path, tmp_path / "docs")
    assert [row[1] for row in expected].count("link") == 1 and len(expected) == 8
    assert our_navigation(tmp_path / "site") == expected
    # The project folder given, the site is its docs_dir's, as mkdocs builds it.
    assert (tmp_path / "site" / "index.html").exists() and not (tmp_path / "site" / "docs").exists()


@pytest.mark.parametrize("docs_dir", ["/etc", "../..", "docs/../../x"])
def test_a_docs_dir_outside_the_project_is_never_read(tmp_path, docs_dir):
    tree = {"project/mkdocs.yml": f"docs_dir: '{docs_dir}'\nnav: [a.md]\n", "project/docs/a.md": "# A\n"}
    result = built(tmp_path, tree, "project")
    assert f"project/mkdocs.yml:1:11: warning: docs_dir '{docs_dir}' is not inside the project's folder; it is not read" in result.stderr
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == ["404.html", "a.html", "outline-site"]


EXCLUDE_PROJECT = {
    "mkdocs.yml": (
        "site_name: Excluded\n"
        "exclude_docs: |\n"
        "  snippets/\n"
        "  *.draft.md\n"
        "  !keep.draft.md\n"
        "not_in_nav: |\n"
        "  /hidden-from-nav.md\n"
        "  old/\n"
    ),
    "docs/index.md": "# Home\n",
    "docs/a.md": "# A\n",
    "docs/snippets/code.md": "# A snippet\n",
    "docs/guide/snippets/more.md": "# Another snippet\n",
    "docs/x.draft.md": "# Draft\n",
    "docs/keep.draft.md": "# Kept draft\n",
    "docs/hidden-from-nav.md": "# Hidden from nav\n",
    "docs/old/page.md": "# Old page\n",
    "docs/templates/t.md": "# A template\n",
    "docs/sub/templates/t.md": "# Not mkdocs' templates\n",
}


def test_exclude_docs_and_not_in_nav_as_mkdocs_reads_them(tmp_path):
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    built(tmp_path, EXCLUDE_PROJECT)
    config = load_config(str(tmp_path / "mkdocs.yml"))
    files = get_files(config)
    mkdocs_pages = sorted(f.src_uri for f in files.documentation_pages())
    in_nav = sorted(f.src_uri for f in files.documentation_pages() if f.inclusion.is_in_nav())
    ours = sorted(str(p.relative_to(tmp_path / "site").with_suffix(".md")) for p in (tmp_path / "site").rglob("*.html")
                  if "outline-site" not in p.parts and p.name != "404.html")
    assert ours == mkdocs_pages
    assert sorted(row[3] for row in our_navigation(tmp_path / "site") if row[1] in ("page", "index")) == in_nav
    # (The oracle is not trivial.)
    assert "snippets/code.md" not in mkdocs_pages and "keep.draft.md" in mkdocs_pages and "sub/templates/t.md" in mkdocs_pages
    assert "hidden-from-nav.md" in mkdocs_pages and "hidden-from-nav.md" not in in_nav


def test_a_bad_pattern_is_a_located_warning(tmp_path):
    result = built(tmp_path, {"mkdocs.yml": "exclude_docs: |\n  ok/\n  bad\\\nnot_in_nav: [x]\n", "docs/index.md": "# Home\n"})
    assert "mkdocs.yml:1:15: warning: exclude_docs: 'bad\\' is not a pattern; it is left out" in result.stderr
    assert "mkdocs.yml:4:13: warning: not_in_nav is a text of patterns, one a line; it is not read" in result.stderr


IDENTITY_PROJECT = {
    "mkdocs.yml": (
        "site_name: 'Docs & <more>'\n"
        "theme: {name: material}\n"
        "nav:\n"
        "  - Home: index.md\n"
        "  - Labelled: a.md\n"
        "  - b.md\n"
        "  - Section:\n"
        "    - sub/c.md\n"
    ),
    "docs/index.md": "# The home page\n\nText.\n",
    "docs/a.md": "# Its own title\n\nText.\n",
    "docs/b.md": "# Page B\n\nText.\n",
    "docs/sub/c.md": "# Page C\n\nText.\n",
    "docs/extra.md": "# Not in nav\n\nText.\n",
}


def titles_of(site):
    import html as html_module
    return {str(p.relative_to(site)): html_module.unescape(re.search(r"<title>(.*?)</title>", p.read_text(), re.S).group(1))
            for p in site.rglob("*.html") if not {"outline-site", "search", "assets"} & set(p.parts) and p.name != "404.html"}


def test_every_page_is_titled_and_named_as_mkdocs_material_does(tmp_path, browser):  # noqa: F811
    make(tmp_path, IDENTITY_PROJECT)
    mkdocs_build(tmp_path)
    result = tool(tmp_path, ".", "-o", "site")
    assert result.returncode == 0, result.stderr
    expected = titles_of(tmp_path / "mkdocs-site")
    assert titles_of(tmp_path / "site") == expected
    assert expected["a.html"] == "Labelled - Docs & <more>" and expected["index.html"] == "Docs & <more>"
    # Every page shows the site's name, linking home.
    browser.get((tmp_path / "site" / "sub" / "c.html").as_uri())
    name = browser.find_element(By.CSS_SELECTOR, ".outline-site-name")
    assert name.text == "Docs & <more>" and name.get_attribute("href") == (tmp_path / "site" / "index.html").as_uri()
    assert name.is_displayed()


REPOSITORIES = [
    "repo_url: https://github.com/owner/repo",
    "repo_url: https://gitlab.com/group/proj/\nedit_uri: -/edit/main/docs",
    "repo_url: https://bitbucket.org/team/repo",
    "repo_url: https://git.example.org/team/proj/\nrepo_name: Our forge\nedit_uri: ../proj/src/branch/main/docs/",
    "repo_url: https://github.com/owner/repo\nedit_uri_template: 'blob/main/docs/{path_noext}.md?plain=1'",
    "repo_url: https://github.com/owner/repo\nedit_uri_template: 'edit/main/docs/{path!q}'",
    "repo_url: https://github.com/owner/repo\nedit_uri: https://edit.example.org/x/",
    "repo_url: https://github.com/owner/repo/\nedit_uri: /other/repo/edit/main/",
    "repo_url: https://github.com/owner/repo\nedit_uri: '?path=docs/'",
    "repo_url: https://github.com/owner/repo\nedit_uri: ''",
    "repo_url: https://example.org",
]


@pytest.mark.parametrize("config", REPOSITORIES)
def test_repository_and_edit_links_are_mkdocs_own(tmp_path, config):
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files
    from mkdocs.structure.nav import get_navigation

    make(tmp_path, {"mkdocs.yml": "site_name: R\n" + config + "\n", "docs/index.md": "# Home\n", "docs/a.md": "# A\n",
                    "docs/sub/c d.md": "# C\n"})
    result = tool(tmp_path, ".", "-o", "site")
    assert result.returncode == 0, result.stderr
    mkdocs_config = load_config(str(tmp_path / "mkdocs.yml"))
    files = get_files(mkdocs_config)
    get_navigation(files, mkdocs_config)
    for file in files.documentation_pages():
        page = (tmp_path / "site" / file.src_uri).with_suffix(".html").read_text()
        edit = re.search(r'<a class="outline-edit" href="([^"]*)"', page)
        assert (html.unescape(edit.group(1)) if edit else None) == file.page.edit_url, file.src_uri
        repo = re.search(r'<a class="outline-repo" href="([^"]*)">([^<]*)</a>', page)
        assert repo and (html.unescape(repo.group(1)), html.unescape(repo.group(2))) == (
            mkdocs_config["repo_url"], mkdocs_config["repo_name"])


def test_a_repository_that_is_no_web_address_is_a_warning(tmp_path):
    make(tmp_path, {"mkdocs.yml": "repo_url: javascript:alert(1)\n", "docs/index.md": "# Home\n"})
    result = tool(tmp_path, ".", "-o", "site")
    assert "mkdocs.yml:1:11: warning: repo_url 'javascript:alert(1)' is not an http:// or https:// address; it is not shown" in result.stderr
    assert "outline-repo" not in (tmp_path / "site" / "index.html").read_text()


def test_a_pattern_made_to_backtrack_does_not_stall_the_build(tmp_path):
    # `*a*a…*b` against long names of `a`: a backtracking regular expression (pathspec's,
    # the old matcher's) tries every way to split the name, and never ends. The build runs
    # under a CPU limit far above what it needs, so that a regression fails instead of hanging.
    import resource
    import subprocess
    from conftest import TOOL

    names = {f"docs/{'a' * 60}{i}.md": "# P\n" for i in range(3)}
    make(tmp_path, {"mkdocs.yml": "exclude_docs: |\n  " + "*a" * 12 + "*b.md\n", **names, f"docs/{'a' * 60}b.md": "# B\n"})

    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
    result = subprocess.run([TOOL, ".", "-o", "site"], cwd=tmp_path, capture_output=True, text=True, preexec_fn=limit)
    assert result.returncode == 0, result.stderr
    pages = sorted(p.name for p in (tmp_path / "site").glob("*.html") if p.name != "404.html")
    assert pages == [f"{'a' * 60}{i}.html" for i in range(3)]


EXTRAS_PROJECT = {
    "mkdocs.yml": (
        "site_name: Extras\n"
        "extra_css:\n"
        "  - css/extra.css\n"
        "  - https://example.org/remote.css\n"
        "  - css/missing.css\n"
        "  - ../outside.css\n"
        "extra_javascript:\n"
        "  - js/extra.js\n"
        "  - {path: js/module.js, type: module}\n"
    ),
    "docs/index.md": "# Home\n\nText.\n",
    "docs/deep/er/page.md": "# Deep\n\nText.\n",
    "docs/css/extra.css": ".outline h1 { color: rgb(1, 2, 3); }\n",
    "docs/js/extra.js": "document.documentElement.setAttribute('data-extra', 'ran');\n",
    # (A module: as a classic script, its `export` is a syntax error and nothing runs.)
    "docs/js/module.js": "document.documentElement.setAttribute('data-module', 'ran');\nexport {};\n",
    "outside.css": "h1 { color: red; }\n",
}


def test_extra_css_and_javascript_load_on_every_page_as_in_mkdocs(tmp_path, browser):  # noqa: F811
    make(tmp_path, EXTRAS_PROJECT)
    mkdocs_build(tmp_path, check=False)
    # mkdocs links each page to the same files, copied to the same places.
    for name in ["css/extra.css", "js/extra.js"]:
        assert (tmp_path / "mkdocs-site" / name).exists()
    safe = tool(tmp_path, ".", "-o", "site")
    assert safe.returncode == 0, safe.stderr
    assert "mkdocs.yml:5:5: warning: extra_css 'css/missing.css' is not there; it is left out" in safe.stderr
    assert "mkdocs.yml:6:5: warning: extra_css '../outside.css' is not a file of the docs folder; it is left out" in safe.stderr
    assert "mkdocs.yml:8:5: warning: extra_javascript is left out: its scripts would run in every reader's browser" in safe.stderr
    assert (tmp_path / "site" / "css" / "extra.css").read_bytes() == (tmp_path / "docs" / "css" / "extra.css").read_bytes()
    assert not (tmp_path / "site" / "js").exists() and not (tmp_path / "site" / "outside.css").exists()
    page = (tmp_path / "site" / "deep" / "er" / "page.html").read_text()
    assert '@import url("../../css/extra.css");' in page and '@import url("https://example.org/remote.css");' in page
    browser.get((tmp_path / "site" / "deep" / "er" / "page.html").as_uri())
    heading = browser.find_element(By.CSS_SELECTOR, ".outline h1")
    assert heading.value_of_css_property("color") == "rgba(1, 2, 3, 1)"
    assert browser.execute_script("return document.documentElement.getAttribute('data-extra')") is None
    # With --unsafe, the scripts run too.
    unsafe = tool(tmp_path, ".", "-o", "site-unsafe", "--unsafe")
    assert unsafe.returncode == 0, unsafe.stderr
    browser.get((tmp_path / "site-unsafe" / "deep" / "er" / "page.html").as_uri())
    for attribute in ["data-extra", "data-module"]:
        WebDriverWait(browser, 10).until(
            lambda b, a=attribute: b.execute_script(f"return document.documentElement.getAttribute('{a}')") == "ran")


REDIRECTS_PROJECT = {
    "mkdocs.yml": (
        "site_name: Moved\n"
        "plugins:\n"
        "  - redirects:\n"
        "      redirect_maps:\n"
        "        old.md: new.md\n"
        "        deep/older.md: guide/page.md#part-two\n"
        "        gone/away.md: https://example.org/elsewhere?x=1&y=2\n"
        "        quoted.md: 'https://example.org/?q=\"</script><x>'\n"
        "        up.md: index.md\n"
    ),
    "docs/index.md": "# Home\n",
    "docs/new.md": "# New\n",
    "docs/guide/page.md": "# Page\n\n## Part two\n",
}
REDIRECT = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]*)">')


def test_redirect_maps_write_what_mkdocs_redirects_writes(tmp_path, browser):  # noqa: F811
    make(tmp_path, REDIRECTS_PROJECT)
    mkdocs_build(tmp_path)
    result = tool(tmp_path, ".", "-o", "site")
    assert result.returncode == 0, result.stderr
    for old in ["old.html", "deep/older.html", "gone/away.html", "up.html"]:
        expected = html.unescape(REDIRECT.search((tmp_path / "mkdocs-site" / old).read_text()).group(1))
        assert html.unescape(REDIRECT.search((tmp_path / "site" / old).read_text()).group(1)) == expected, old
    # A hostile address stays data (mkdocs-redirects writes it raw, breaking its page).
    quoted = (tmp_path / "site" / "quoted.html").read_text()
    assert "</script><x>" not in quoted and "&lt;/script&gt;&lt;x&gt;" in quoted
    # The script keeps the reader's #part and lands on the new page.
    browser.get((tmp_path / "site" / "deep" / "older.html").as_uri())
    WebDriverWait(browser, 10).until(lambda b: b.current_url.endswith("/site/guide/page.html#part-two"))
    # A rerun keeps them; an old place that is a page stays the page.
    make(tmp_path, {"docs/old.md": "# Old is back\n"})
    again = tool(tmp_path, ".", "-o", "site")
    assert "mkdocs.yml:5:9: warning: redirect_maps: 'old.md' is a page of the site; it is kept, not redirected" in again.stderr
    assert "Old is back" in (tmp_path / "site" / "old.html").read_text()
    assert (tmp_path / "site" / "up.html").exists()


def test_site_url_gives_each_page_mkdocs_canonical_address(tmp_path):
    tree = {**IDENTITY_PROJECT, "mkdocs.yml": IDENTITY_PROJECT["mkdocs.yml"] + "site_url: https://example.org/docs/\n"}
    built(tmp_path, tree)
    mkdocs_build(tmp_path)
    canonical = re.compile(r'<link rel="canonical" href="([^"]*)"')
    for page in ["index.html", "a.html", "sub/c.html", "extra.html"]:
        ours = canonical.search((tmp_path / "site" / page).read_text()).group(1)
        assert ours == canonical.search((tmp_path / "mkdocs-site" / page).read_text()).group(1), page
    assert "https://example.org/docs/sub/c.html" in (tmp_path / "site" / "sitemap.xml").read_text()
    # The command line's address wins; one that is not http(s) is a warning.
    result = tool(tmp_path, ".", "-o", "other", "--site-url", "https://other.example/")
    assert '<link rel="canonical" href="https://other.example/a.html">' in (tmp_path / "other" / "a.html").read_text()
    make(tmp_path, {"mkdocs.yml": "site_url: ftp://example.org/\n"})
    result = tool(tmp_path, ".", "-o", "third")
    assert "mkdocs.yml:1:11: warning: site_url 'ftp://example.org/' is not an http:// or https:// address" in result.stderr
    assert "canonical" not in (tmp_path / "third" / "a.html").read_text()


def test_config_names_the_file_and_no_config_reads_none(tmp_path):
    tree = {"mkdocs.yml": "site_name: Main\nnav: [b.md, a.md]\n", "other.yml": "site_name: Other\nnav: [a.md]\n",
            "docs/a.md": "# A\n", "docs/b.md": "# B\n"}
    built(tmp_path, tree)
    assert "<title>A - Main</title>" in (tmp_path / "site" / "a.html").read_text()
    # --config: that file, for the project folder or its docs folder.
    for folder in [".", "docs"]:
        result = tool(tmp_path, folder, "-o", f"other-{folder}", "--config", "other.yml")
        assert result.returncode == 0, result.stderr
        assert "<title>A - Other</title>" in (tmp_path / f"other-{folder}" / "a.html").read_text()
        assert [row[2] for row in our_navigation(tmp_path / f"other-{folder}")] == ["A"]
    # --no-config: the folder as it is.
    assert tool(tmp_path, ".", "-o", "plain", "--no-config").returncode == 0
    assert (tmp_path / "plain" / "docs" / "a.html").exists() and "Main" not in (tmp_path / "plain" / "docs" / "a.html").read_text()
    # A file that cannot be read stops the run before anything is written.
    result = tool(tmp_path, ".", "-o", "none", "--config", "missing.yml")
    assert result.returncode == 2 and "missing.yml: error: --config: cannot read: no such file" in result.stderr
    assert not (tmp_path / "none").exists()


def test_breadcrumbs_are_the_sections_mkdocs_puts_a_page_in(material_site, browser):  # noqa: F811
    """Each page's breadcrumbs (drawn by its script from nav.js) are its ancestors in
    mkdocs' navigation, the sections that hold it, outermost first."""
    site, _ = material_site
    ancestors, stack = {}, []
    for depth, kind, title, target in mkdocs_navigation(MATERIAL, MATERIAL / "docs"):
        del stack[depth:]
        if kind == "section":
            stack.append(title)
        elif kind == "page":
            ancestors.setdefault(target, list(stack))
    chosen = sorted(t for t, a in ancestors.items() if a)[:8] + sorted(t for t, a in ancestors.items() if not a)[:2]
    assert any(len(ancestors[t]) >= 2 for t in chosen)
    browser.set_window_size(1400, 900)
    for target in chosen:
        browser.get((site / target).with_suffix(".html").as_uri())
        WebDriverWait(browser, 30).until(lambda b: b.execute_script("return !!document.querySelector('.outline-index[data-outline-root]').navigation"))
        crumbs = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "main .outline-breadcrumbs li")]
        assert crumbs == ancestors[target], target


def test_a_pages_contents_are_beside_it_on_wide_screens_only(material_site, browser):  # noqa: F811
    site, _ = material_site
    page = (site / "setup" / "setting-up-navigation.html")
    assert '<nav class="outline-toc outline-toc-wide"' in page.read_text()
    try:
        browser.set_window_size(1500, 900)
        browser.get(page.as_uri())
        toc = browser.find_element(By.CSS_SELECTOR, ".outline-toc-wide")
        main = browser.find_element(By.CSS_SELECTOR, "main.outline")
        assert toc.is_displayed() and toc.rect["x"] >= main.rect["x"] + main.rect["width"]
        assert "Instant loading" in toc.text
        browser.set_window_size(900, 900)
        assert not toc.is_displayed()
    finally:
        browser.set_window_size(1280, 900)


def test_the_themes_logo_is_shown_before_the_sites_name(tmp_path, browser):  # noqa: F811
    """mkdocs-material's `theme.logo`: an image of the docs folder, copied, shown on every
    page (it loads from a page at any depth); one that is not there is a warning at it."""
    logo = (ROOT / "Examples" / "docs" / "images" / "logo.png").read_bytes()
    make(tmp_path, {"mkdocs.yml": "site_name: Logo\ntheme:\n  name: material\n  logo: assets/logo.png\n",
                    "docs/index.md": "# Home\n", "docs/deep/page.md": "# Deep\n"})
    (tmp_path / "docs" / "assets").mkdir()
    (tmp_path / "docs" / "assets" / "logo.png").write_bytes(logo)
    result = tool(tmp_path, ".", "-o", "site")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    assert (tmp_path / "site" / "assets" / "logo.png").read_bytes() == logo
    browser.get((tmp_path / "site" / "deep" / "page.html").as_uri())
    image = browser.find_element(By.CSS_SELECTOR, "a.outline-site-name img.outline-site-logo")
    assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)
    assert browser.find_element(By.CSS_SELECTOR, "a.outline-site-name").text == "Logo"
    (tmp_path / "mkdocs.yml").write_text("site_name: Logo\ntheme:\n  logo: assets/gone.png\n")
    result = tool(tmp_path, ".", "-o", "site")
    assert "mkdocs.yml:3:9: warning: theme.logo 'assets/gone.png' is not there; it is left out" in result.stderr
    assert "outline-site-logo" not in (tmp_path / "site" / "index.html").read_text()


def test_the_themes_icon_logo_and_language(tmp_path, browser):  # noqa: F811
    """mkdocs-material's `theme.icon.logo` (when there is no `theme.logo`) draws that icon
    before the site's name; `theme.language` is every page's `lang` unless its front
    matter says. An icon no bundled set has is a warning at it."""
    make(tmp_path, {"mkdocs.yml": "site_name: Icon\ntheme:\n  name: material\n  language: de\n  icon:\n    logo: material/library\n",
                    "docs/index.md": "# Home\n", "docs/deep/page.md": "---\nlang: fr\n---\n# Deep\n"})
    result = tool(tmp_path, ".", "-o", "site")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    home = (tmp_path / "site" / "index.html").read_text()
    assert '<html lang="de">' in home and '<html lang="fr">' in (tmp_path / "site" / "deep" / "page.html").read_text()
    icon = bundled_icon("material-library")
    assert f'<span class="outline-site-logo outline-site-icon" aria-hidden="true">{icon}</span>Icon' in home
    browser.get((tmp_path / "site" / "index.html").as_uri())
    drawn = browser.find_element(By.CSS_SELECTOR, "a.outline-site-name .outline-site-icon svg")
    assert 10 < drawn.rect["width"] < 60 and 10 < drawn.rect["height"] < 60
    (tmp_path / "mkdocs.yml").write_text("site_name: Icon\ntheme:\n  icon:\n    logo: material/no-such-icon\n")
    result = tool(tmp_path, ".", "-o", "site")
    assert "mkdocs.yml:4:11: warning: theme.icon.logo 'material/no-such-icon' is no icon of the bundled sets" in result.stderr
    assert "outline-site-icon\"" not in (tmp_path / "site" / "index.html").read_text()


def bundled_icon(name):
    """The SVG of a bundled icon, as mkdocs-material's own file of it has it."""
    import material
    path = pathlib.Path(material.__file__).parent / "templates" / ".icons" / (name.replace("-", "/", 1) + ".svg")
    return path.read_text().strip()


VALIDATION_PAGES = {"docs/index.md": "# Home\n\n[a](nope.md) [b](#nope) [c](other.md#nope) [d](/abs.md) [e](setup)\n",
                    "docs/other.md": "# Other\n", "docs/extra.md": "# Extra\n"}


@pytest.mark.parametrize("validation", [
    "",
    "validation:\n  anchors: warn\n",
    "validation:\n  links:\n    not_found: ignore\n    anchors: info\n  nav:\n    not_found: info\n",
    "validation:\n  nav:\n    not_found: ignore\n  links:\n    anchors: ignore\n    not_found: info\n",
    "validation:\n  nav:\n    omitted_files: warn\n  links:\n    absolute_links: warn\n    unrecognized_links: warn\n",
    "validation:\n  omitted_files: ignore\n  absolute_links: ignore\n  unrecognized_links: ignore\n",
])
def test_validation_sets_each_problems_level_as_in_mkdocs(tmp_path, validation):
    """mkdocs' own build is the oracle: each problem at the level (WARNING, INFO, none) it
    logs it, with the configuration's `validation` and without."""
    import subprocess
    import sys
    make(tmp_path, {"mkdocs.yml": "site_name: V\nnav:\n  - index.md\n  - other.md\n  - gone.md\n" + validation, **VALIDATION_PAGES})
    mkdocs = pathlib.Path(sys.executable).parent / "mkdocs"
    theirs = subprocess.run([mkdocs, "build", "-d", "mkdocs-site"], cwd=tmp_path, capture_output=True, text=True).stderr
    ours = tool(tmp_path, ".", "-o", "site", "-v").stderr

    def their_level(marker):
        line = next((l for l in theirs.splitlines() if marker in l), "")
        return "warn" if line.startswith("WARNING") else "info" if line.startswith("INFO") else "none"

    def our_level(marker):
        line = next((l for l in ours.splitlines() if marker in l), "")
        return "warn" if ": warning: " in line else "info" if ": info: " in line else "none"
    problems = [("'gone.md' is included in the 'nav'", "nav names 'gone.md'"), ("link 'nope.md'", "no file 'nope.md'"),
                ("link '#nope'", "no section 'nope' in this page"), ("link 'other.md#nope'", "no section 'nope' in docs/other.md"),
                ("absolute link '/abs.md'", "'/abs.md' is a link from the server's root"),
                ("unrecognized relative link 'setup'", "no file 'setup'"),
                ("but are not included in the \"nav\"", "the page is not in mkdocs.yml's nav")]
    levels = [(their_level(theirs_marker), our_level(ours_marker)) for theirs_marker, ours_marker in problems]
    assert [ours for _, ours in levels] == [theirs for theirs, _ in levels], (theirs, ours)


def test_absolute_links_relative_to_docs_are_followed_from_the_docs_folder(tmp_path):
    """`absolute_links: relative_to_docs` (mkdocs 1.6): `/x.md` is the docs folder's
    `x.md`, rewritten to a relative link and checked like any; without it, it is left as
    it is. A path from the root out of the docs folder is not followed."""
    pages = {"docs/index.md": "# Home\n", "docs/guide/setup.md": "# Setup\n\n## Step\n",
             "docs/deep/page.md": "# Deep\n\n[s](/guide/setup.md#step) [g](/guide/) [n](/gone.md) [o](/../../etc/passwd)\n",
             "docs/guide/index.md": "# Guide\n"}
    make(tmp_path, {"mkdocs.yml": "site_name: A\nvalidation:\n  absolute_links: relative_to_docs\n", **pages})
    result = tool(tmp_path, ".", "-o", "site")
    page = (tmp_path / "site" / "deep" / "page.html").read_text()
    assert 'href="../guide/setup.html#step"' in page and 'href="../guide/index.html"' in page
    assert "docs/deep/page.md:3:40: warning: no file '/gone.md'" in result.stderr, result.stderr
    assert "is outside" in result.stderr and not (tmp_path / "site" / "etc").exists()
    (tmp_path / "mkdocs.yml").write_text("site_name: A\n")
    tool(tmp_path, ".", "-o", "site")
    assert 'href="/guide/setup.md#step"' in (tmp_path / "site" / "deep" / "page.html").read_text()


def test_a_validation_level_that_is_none_is_a_warning_at_it(tmp_path):
    make(tmp_path, {"mkdocs.yml": "validation:\n  links:\n    anchors: loud\n", **VALIDATION_PAGES})
    result = tool(tmp_path, ".", "-o", "site")
    assert "mkdocs.yml:3:14: warning: validation: links.anchors is not warn, info or ignore; mkdocs' default is used" in result.stderr
