"""The site search on a built site in headless Chromium: for a few queries, the time from
the query typed to the results drawn (the page's 30 ms pause after typing included) and the
search itself (the page's script records it in data-search-ms). The first query loads the
index (outline-site/search.js) and is reported apart.
Usage: .venv/bin/python Benchmarks/search-latency.py SITE_FOLDER"""
import pathlib
import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

site = pathlib.Path(sys.argv[1]).resolve()
page = sorted(site.rglob("*.html"))[len(list(site.rglob("*.html"))) // 2]
index = site / "outline-site/search.js"

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,900"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_script_timeout(60)
TYPE = """
const [query, done] = arguments;
const field = document.getElementById('outline-render:search');
const results = document.getElementById('outline-render:results');
const start = performance.now();
const observer = new MutationObserver(() => {
  if (!field.hasAttribute('data-search-results') || field.getAttribute('data-query') === query) return;
  field.setAttribute('data-query', query);
  observer.disconnect();
  done([performance.now() - start, Number(field.getAttribute('data-search-ms')), Number(field.getAttribute('data-search-results'))]);
});
observer.observe(field, {attributes: true, attributeFilter: ['data-search-ms']});
field.focus();
field.value = query;
field.dispatchEvent(new Event('input'));
"""
try:
    driver.get(page.as_uri())
    first = driver.execute_async_script(TYPE, "error")
    pages = len(list(site.rglob("*.html")))
    print(f"Site search, {pages} pages, index {index.stat().st_size / 1e6:.1f} MB, in headless Chromium ({page.relative_to(site)}):")
    print(f"- first query (loads the index): {first[0]:.0f} ms to the results, {first[2]} found")
    rows = []
    for query in ["buffer", "stream pipe", "crypto hash", "EventEmitter", "zzzqqq", "b"] * 3:
        rows.append((query, *driver.execute_async_script(TYPE, query)))
    for query in dict.fromkeys(q for q, *_ in rows):
        total = [r[1] for r in rows if r[0] == query]
        search = [r[2] for r in rows if r[0] == query]
        found = [r[3] for r in rows if r[0] == query][0]
        print(f"- '{query}': {statistics.median(total):.0f} ms from typing to results (search {statistics.median(search):.1f} ms; "
              f"{min(total):.0f}–{max(total):.0f} ms over {len(total)} runs), {found} found")
finally:
    driver.quit()
