"""The tool fits in: its man page is current and lists every option, its completion
scripts work in real bash, zsh and fish, and scripts/install puts everything where each
tool looks and takes exactly that away again."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import OUTPUT_FORMATS, ROOT, TOOL, run

HELP = run("--help").stdout
OPTIONS = sorted(set(re.findall(r"^  (-\w|--[\w-]+)(?:, (--[\w-]+))?", HELP, re.M)))
NAMES = sorted({name for pair in OPTIONS for name in pair if name})


def test_the_man_page_is_rendered_from_its_markdown_by_cmark():
    result = subprocess.run([ROOT / "scripts" / "man", "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_man_page_has_every_option_and_section():
    page = (ROOT / "docs" / "outline-render.1").read_text()
    text = page.replace("\\-", "-")
    assert len(NAMES) >= 30
    for name in NAMES:
        assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), f"{name} is not in the man page"
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "FORMATS", "COLLAPSE RULES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"]:
        assert f".SH\n{section}\n" in page, section
    if shutil.which("man"):
        shown = subprocess.run(["man", "-l", str(ROOT / "docs" / "outline-render.1")], capture_output=True, text=True,
                               env={**os.environ, "MANWIDTH": "80"})
        assert "outline-render [options]" in shown.stdout and ".PD" not in shown.stdout


def bash_complete(words, cwd):
    """What bash offers for the last word of `words`, through the completion function."""
    script = run("--completion-script", "bash").stdout
    line = " ".join(words)
    program = f"""{script}
COMP_WORDS=({line})
COMP_CWORD={len(words) - 1}
_outline_render
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    result = subprocess.run(["bash", "--norc", "-c", program], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return sorted(filter(None, result.stdout.splitlines()))


def test_bash_completes_options_formats_and_inputs(tmp_path):
    (tmp_path / "notes.md").write_text("# A\n")
    (tmp_path / "cat.plist").write_text("<plist/>")
    (tmp_path / "image.png").write_bytes(b"x")
    (tmp_path / "docs").mkdir()
    assert bash_complete(["outline-render", "--to", ""], tmp_path) == sorted(OUTPUT_FORMATS)
    assert bash_complete(["outline-render", "-f", "o"], tmp_path) == ["opml", "outline"]
    assert bash_complete(["outline-render", "--error-format", ""], tmp_path) == ["github", "gnu"]
    assert "--collapse-depth" in bash_complete(["outline-render", "--coll"], tmp_path)
    assert bash_complete(["outline-render", "--str"], tmp_path) == ["--strict"]
    assert bash_complete(["outline-render", ""], tmp_path) == ["cat.plist", "docs", "notes.md"]
    assert bash_complete(["outline-render", "-o", ""], tmp_path) == ["cat.plist", "docs", "image.png", "notes.md"]


def test_zsh_accepts_the_completion_function(tmp_path):
    """zsh parses the script and autoloads it as a completion function; its _arguments
    spec offers every option and the format names. (Driving zsh's completion widgets
    needs a terminal, so what is offered is read from the spec.)"""
    functions = tmp_path / "functions"
    functions.mkdir()
    script = run("--completion-script", "zsh").stdout
    (functions / "_outline-render").write_text(script)
    assert subprocess.run(["zsh", "-n", functions / "_outline-render"], capture_output=True).returncode == 0
    program = f"fpath=({functions} $fpath); autoload -Uz compinit && compinit -u -D; print -- $_comps[outline-render]"
    result = subprocess.run(["zsh", "-f", "-c", program], capture_output=True, text=True, cwd=tmp_path)
    assert result.stdout.strip() == "_outline-render", result.stdout + result.stderr
    assert ":format:(html text json markdown xml opml plist outline)" in script
    for name in NAMES:
        assert name in script


def test_fish_completes_options_and_formats(tmp_path):
    script = tmp_path / "outline-render.fish"
    script.write_text(run("--completion-script", "fish").stdout)
    def complete(line):
        result = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C '{line}'"],
                                capture_output=True, text=True, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        return [l.split("\t")[0] for l in result.stdout.splitlines()]
    assert set(OUTPUT_FORMATS) <= set(complete("outline-render --to "))
    assert "--strict" in complete("outline-render --str")


def test_an_unknown_shell_is_bad_usage():
    result = run("--completion-script", "tcsh", check=False)
    assert result.returncode == 2 and "Unknown shell 'tcsh'" in result.stderr


def test_install_and_uninstall_into_a_prefix(tmp_path):
    prefix = tmp_path / "prefix"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "other-tool").write_text("not ours")
    installed = subprocess.run([ROOT / "scripts" / "install", prefix], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    expected = ["bin/other-tool", "bin/outline-render", "share/bash-completion/completions/outline-render",
                "share/fish/vendor_completions.d/outline-render.fish", "share/man/man1/outline-render.1",
                "share/zsh/site-functions/_outline-render"]
    assert sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*") if p.is_file()) == expected
    version = subprocess.run([prefix / "bin" / "outline-render", "--version"], capture_output=True, text=True)
    assert version.stdout.startswith("outline-render ")
    assert (prefix / "share/man/man1/outline-render.1").read_text() == (ROOT / "docs" / "outline-render.1").read_text()
    removed = subprocess.run([ROOT / "scripts" / "install", "--uninstall", prefix], capture_output=True, text=True)
    assert removed.returncode == 0
    assert sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*") if p.is_file()) == ["bin/other-tool"]


def wait_for(condition, seconds=30.0):
    """Waits until `condition` holds and returns how long that took (printed by the tests,
    never compared with anything). After `seconds`, a bound generous for any machine, the
    condition is asserted: the watch missed the change."""
    import time
    start = time.monotonic()
    deadline = start + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert condition(), "the change was never picked up"
    return time.monotonic() - start


class Watch:
    """`outline-render … --watch` running in `folder`, its standard error going to a file so
    that a test can wait for a message as it waits for an output (what a watch says comes
    after what it writes: a test that stopped it as soon as an output appeared would race the
    message)."""

    def __init__(self, folder, *arguments, env=None):
        # (Beside `folder`, not in it: a log in a watched folder would start a rebuild per
        # line. pytest's own folder, so pytest removes it.)
        self.log = folder.parent / f"{folder.name}-watch.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([TOOL, *arguments, "--watch"], cwd=folder, stderr=log, text=True, env=env)

    def said(self, message):
        return message in self.log.read_text()

    def stop(self):
        """Interrupts the watch as Ctrl-C does; returns everything it said."""
        import signal
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=10)
        return self.log.read_text()


def test_watch_rebuilds_what_changes_until_interrupted(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\ntext\n")
    (docs / "b.md").write_text("# B\n\n[a](a.md)\n")
    site = tmp_path / "site"
    watch = Watch(tmp_path, "docs", "-o", "site", env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        wait_for(lambda: (site / "a.html").exists() and (site / "b.html").exists())
        times = {}
        (docs / "a.md").write_text("# A edited\n\ntext\n")
        times["edit"] = wait_for(lambda: "A edited" in (site / "a.html").read_text())
        # An editor that saves by writing a new file and renaming it over the old one.
        (docs / ".a.md.swp").write_text("# A renamed over\n")
        (docs / ".a.md.swp").rename(docs / "a.md")
        times["rename over"] = wait_for(lambda: "A renamed over" in (site / "a.html").read_text())
        (docs / "b.md").unlink()
        times["delete"] = wait_for(lambda: not (site / "b.html").exists())
        wait_for(lambda: watch.said("site/b.html: removed, no input makes it any more"))
        (docs / "new").mkdir()
        (docs / "new" / "c.md").write_text("# C\n")
        times["new folder"] = wait_for(lambda: (site / "new" / "c.html").exists() and "</html>" in (site / "new" / "c.html").read_text())
        (docs / "broken.xml").write_text("<outline><oops></outline>")  # an error: reported, the watch goes on
        (docs / "new" / "c.md").write_text("# C again\n")
        times["after an error"] = wait_for(lambda: "C again" in (site / "new" / "c.html").read_text())
        wait_for(lambda: watch.said("docs/broken.xml:1:"))  # reported, and the watch went on
        print("\nwatch: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in times.items()))
        assert sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file() and "outline-site" not in p.parts) \
            == ["404.html", "a.html", "new/c.html"]
    finally:
        stderr = watch.stop()
    assert watch.process.returncode == 130, stderr
    assert "outline-render: interrupted" in stderr
    assert not [p for p in site.rglob(".*")]  # no temporary file left


def test_watch_with_the_output_inside_the_input_does_not_feed_on_itself(tmp_path):
    import time
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n")
    watch = Watch(tmp_path, "docs", "-o", "docs/_site", env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    try:
        wait_for(lambda: (docs / "_site" / "a.html").exists())
        (docs / "a.md").write_text("# A2\n")
        wait_for(lambda: "A2" in (docs / "_site" / "a.html").read_text())
        time.sleep(1.0)
    finally:
        stderr = watch.stop()
    # The first run, and one rebuild for the edit: the watch's own writes start none.
    assert stderr.count(" files: ") + stderr.count(" file: ") == 2, stderr


def test_watch_of_one_file_next_to_its_output(tmp_path):
    import time
    (tmp_path / "a.md").write_text("# A\n")
    watch = Watch(tmp_path, "a.md", "-o", "a.html")
    try:
        wait_for(lambda: (tmp_path / "a.html").exists())
        (tmp_path / "a.md").write_text("# B\n")
        wait_for(lambda: ">B<" in (tmp_path / "a.html").read_text())
        time.sleep(0.5)
        (tmp_path / "a.md").unlink()
        wait_for(lambda: not (tmp_path / "a.html").exists())
        wait_for(lambda: watch.said("a.html: removed, a.md is gone"))
    finally:
        stderr = watch.stop()
    # Its own output, next to it, starts no rebuild: the first run and one for the edit.
    assert stderr.count("a.md → a.html: converted") == 2, stderr
    assert "a.html: removed, a.md is gone" in stderr


def test_watch_needs_an_output():
    result = run("--watch", "x.md", check=False)
    assert result.returncode == 2 and "'--watch' needs '-o'" in result.stderr


# Every option of --help with a value to try it with; options that write nothing, run
# forever or name the folders themselves are not tried.
NOT_TRIED = {"--output", "--cache-dir", "--no-cache", "--check", "--watch", "--completion-script", "--version", "--help"}
SAMPLES = {"format": {"--from": "markdown", "--to": "json", "--error-format": "github"}, "text": "A title", "id": "a",
           "n": "2", "reading": "omni", "size": "1M", "url": "https://example.org/docs/"}


def options_with_values(tmp_path):
    template = tmp_path / "page.html"
    template.write_text("<!doctype html><title>{{title}}</title><main>{{content}}</main>\n")
    for short, long in OPTIONS:
        name = long or short
        if name in NOT_TRIED:
            continue
        value = re.search(rf"{re.escape(name)} <(\w+)>", HELP)
        if value is None:
            yield name, [name]
        elif value.group(1) == "file":
            yield name, [name, str(template)]
        else:
            sample = SAMPLES[value.group(1)]
            yield name, [name, sample[name] if isinstance(sample, dict) else sample]


def tree(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_rerun_with_any_option_changed_writes_what_a_fresh_run_writes(tmp_path):
    """The build record skips unchanged inputs: every option that changes an output must be
    part of its key, or a rerun with the option would keep stale pages."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nText with <b class=\"x\">raw</b> HTML.\n\n## B\n\nMore.\n\n### C\n\nDeep.\n")
    (docs / "o.opml").write_text('<opml version="2.0"><head><expansionState>1</expansionState></head>'
                                 '<body><outline text="X" _note="x"><outline text="Y" _note="y"/></outline></body></opml>')
    tried = []
    for name, args in options_with_values(tmp_path):
        base = tmp_path / name.strip("-")
        rerun, fresh = base / "rerun", base / "fresh"
        subprocess.run([TOOL, docs, "-o", rerun, "--cache-dir", base / "cache1", "-q"], check=True)
        first = tree(rerun)
        subprocess.run([TOOL, docs, "-o", rerun, "--cache-dir", base / "cache1", "-q", *args], check=True)
        subprocess.run([TOOL, docs, "-o", fresh, "--cache-dir", base / "cache2", "-q", *args], check=True)
        # (Outputs of the first run in another format stay: only what the run writes counts.)
        kept = tree(rerun)
        assert {path: kept.get(path) for path in tree(fresh)} == tree(fresh), f"a rerun with {' '.join(args)} kept stale outputs"
        if tree(fresh) != first:
            tried.append(name)
    # The test tries options that do change outputs (else it would prove nothing).
    assert {"--to", "--title", "--unsafe", "--collapse-depth", "--opml-expansion", "--template", "--index", "--site-url"} <= set(tried)
