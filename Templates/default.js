// outline-render: progressive enhancement only; the page is complete without it.
(function () {
  "use strict";
  // The page's sections and blocks (not the site's navigation).
  var sections = function () {
    return Array.prototype.filter.call(document.querySelectorAll("details"), function (d) { return !d.closest(".outline-index"); });
  };

  // Accordion groups (<details name>) let one member open at a time; expand-all and
  // printing lift that, collapse-all and the end of printing put it back.
  function ungroup() {
    sections().forEach(function (d) {
      if (d.hasAttribute("name")) { d.setAttribute("data-outline-name", d.getAttribute("name")); d.removeAttribute("name"); }
    });
  }
  function regroup() {
    sections().forEach(function (d) {
      if (d.hasAttribute("data-outline-name")) { d.setAttribute("name", d.getAttribute("data-outline-name")); d.removeAttribute("data-outline-name"); }
    });
  }

  // A task item's checkbox (as GitHub writes it) is named by its state for screen readers.
  document.querySelectorAll("li > input[type=checkbox][disabled]:not([aria-label])").forEach(function (box) {
    box.setAttribute("aria-label", box.checked ? "Done" : "Not done");
  });

  var controls = document.querySelector(".outline-controls");
  if (controls) {
    controls.hidden = false;
    controls.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-outline-action]");
      if (!button) return;
      var open = button.getAttribute("data-outline-action") === "expand";
      if (open) ungroup();
      sections().forEach(function (d) { d.open = open; });
      if (!open) regroup();
    });
  }

  // Printing shows everything, then the screen comes back as it was.
  var closedBeforePrint = [];
  window.addEventListener("beforeprint", function () {
    ungroup();
    closedBeforePrint = [];
    sections().forEach(function (d) { if (!d.open) { closedBeforePrint.push(d); d.open = true; } });
  });
  window.addEventListener("afterprint", function () {
    closedBeforePrint.forEach(function (d) { d.open = false; });
    closedBeforePrint = [];
    regroup();
  });

  // A link to a section inside closed sections opens them (some browsers do it themselves).
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) node.open = true;
    }
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", reveal);
  if (location.hash) reveal();

  // The filter: sections whose title or text hold every word typed (case and accents
  // aside) open with their ancestors, their matches marked; the others close. Clearing the
  // field or Escape brings back the state from before.
  var field = document.getElementById("outline-render:filter");
  var count = document.querySelector(".outline-filter-count");
  var fold = function (text) { return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); };
  var entries = null;  // each section (or plain entry) and its own text, folded; built on first use
  var saved = null;    // the open/closed state from before the filter
  function ownText(element) {
    // A section's title and body, without its nested sections or its permalink.
    var parts = [];
    (function walk(node) {
      for (var child = node.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 3) parts.push(child.data);
        else if (child.nodeType === 1 && child.tagName !== "DETAILS" && !child.classList.contains("outline-permalink") &&
                 !child.classList.contains("outline-heading")) walk(child);
      }
    })(element);
    return parts.join(" ");
  }
  function index() {
    entries = [];
    document.querySelectorAll(".outline details, .outline .outline-leaf").forEach(function (element) {
      entries.push({ element: element, text: fold(ownText(element)) });
    });
  }
  // Each text split for marking: the original node and what replaced it, to put it back.
  var marked = [];
  var markLimit = 1500;  // marks at the most: a one-letter filter would mark every letter
  function unmark() {
    marked.forEach(function (m) {
      var first = m.pieces[0];
      if (!first.parentNode) return;
      first.parentNode.insertBefore(m.original, first);
      m.pieces.forEach(function (piece) { piece.remove(); });
    });
    marked = [];
    markCount = 0;
  }
  var markCount = 0;
  function mark(element, words) {
    words = words.filter(function (word) { return word.length > 1; });
    if (!words.length || markCount >= markLimit) return;
    var texts = [];
    (function walk(node) {
      for (var child = node.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 3) texts.push(child);
        else if (child.nodeType === 1 && child.tagName !== "DETAILS" && child.tagName !== "SCRIPT" &&
                 !child.classList.contains("outline-permalink") && !child.classList.contains("outline-heading")) walk(child);
      }
    })(element);
    texts.forEach(function (text) {
      // Fold character by character, keeping where each folded character came from
      // (ASCII text folds to the same length: no map needed).
      var folded, from = null;
      if (/^[\x00-\x7f]*$/.test(text.data)) {
        folded = text.data.toLowerCase();
      } else {
        folded = "";
        from = [];
        for (var i = 0; i < text.data.length; i++) {
          var f = fold(text.data[i]);
          for (var k = 0; k < f.length; k++) { folded += f[k]; from.push(i); }
        }
        from.push(text.data.length);
      }
      var at = function (position) { return from ? from[position] : position; };
      var ranges = [];
      words.forEach(function (word) {
        for (var found = folded.indexOf(word); found >= 0; found = folded.indexOf(word, found + word.length)) {
          ranges.push([at(found), at(found + word.length)]);
        }
      });
      if (!ranges.length) return;
      ranges.sort(function (a, b) { return a[0] - b[0]; });
      var piece = document.createDocumentFragment(), pieces = [], last = 0;
      ranges.forEach(function (r) {
        if (r[0] < last || markCount >= markLimit) return;
        pieces.push(piece.appendChild(document.createTextNode(text.data.slice(last, r[0]))));
        var m = document.createElement("mark");
        m.className = "outline-match";
        m.textContent = text.data.slice(r[0], r[1]);
        pieces.push(piece.appendChild(m));
        markCount++;
        last = r[1];
      });
      pieces.push(piece.appendChild(document.createTextNode(text.data.slice(last))));
      marked.push({ original: text, pieces: pieces });
      text.parentNode.replaceChild(piece, text);
    });
  }
  function restore() {
    unmark();
    if (saved) {
      saved.forEach(function (open, details) { details.open = open; });
      saved = null;
      regroup();
    }
    count.textContent = "";
  }
  function filter() {
    var started = performance.now();
    var words = fold(field.value).split(/\s+/).filter(Boolean);
    if (!words.length) { restore(); return; }
    if (!entries) index();
    unmark();
    if (!saved) {
      saved = new Map();
      sections().forEach(function (d) { saved.set(d, d.open); });
      ungroup();
    }
    var open = new Set(), matched = 0;
    entries.forEach(function (entry) {
      if (!words.every(function (word) { return entry.text.indexOf(word) >= 0; })) return;
      matched++;
      mark(entry.element, words);
      for (var node = entry.element; node; node = node.parentElement) {
        if (node.tagName === "DETAILS") open.add(node);
      }
    });
    sections().forEach(function (d) {
      // The table of contents keeps its own state.
      if (!d.closest(".outline-toc")) d.open = open.has(d);
    });
    count.textContent = matched === 1 ? "1 section" : matched + " sections";
    field.setAttribute("data-filter-ms", (performance.now() - started).toFixed(1));
  }
  if (field) {
    // The text index is built before the first keystroke needs it.
    field.addEventListener("focus", function () { if (!entries) index(); });
    var timer = 0;
    field.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(filter, 120);
    });
    field.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { field.value = ""; clearTimeout(timer); restore(); }
    });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      event.preventDefault();
      // (In a docs site, / is for the site search.)
      (document.getElementById("outline-render:search") || field).focus();
    });
  }

  // A docs site: the outline of its pages, drawn from outline-site/nav.js, and the search
  // of all its sections, in outline-site/search.js; both are scripts the page loads (a
  // fetch of data is refused from file://), each a call with one JSON value.
  var site = document.querySelector(".outline-index[data-outline-root]");
  if (site) {
    var root = site.getAttribute("data-outline-root"), here = site.getAttribute("data-outline-page");
    var load = function (name) {
      var script = document.createElement("script");
      script.src = root + "outline-site/" + name;
      document.head.appendChild(script);
    };
    var wide = window.matchMedia("(min-width: 75rem)");
    var menu = site.querySelector(".outline-site-menu");
    if (menu && wide.matches) menu.open = true;
    window.outlineSiteNavigation = function (data) {
      var pages = data.pages;
      // A page is [URL, title] or [URL, title, the title's HTML] (code spans as code).
      function link(page, title) {
        var a = document.createElement("a");
        a.href = root + pages[page][0];
        if (!title && pages[page][2]) a.innerHTML = pages[page][2]; else a.textContent = title || pages[page][1];
        if (pages[page][0] === here) a.setAttribute("aria-current", "page");
        return a;
      }
      // A folder is [title, index page or -1, entries…]; an entry a page number, a folder,
      // or a link out of the site ({title, url}: mkdocs' nav holds them; without a URL, an
      // mdBook draft chapter, shown as text).
      function out(entry) {
        var a = document.createElement(entry.url ? "a" : "span");
        if (entry.url) a.href = entry.url; else a.className = "outline-draft";
        a.textContent = entry.title;
        return a;
      }
      function folder(node, top) {
        var list = document.createElement("ul"), holds = false;
        var item = function (child) { var li = document.createElement("li"); li.appendChild(child); list.appendChild(li); };
        if (top && node[1] >= 0) { item(link(node[1])); holds = pages[node[1]][0] === here; }
        for (var i = 2; i < node.length; i++) {
          var entry = node[i];
          if (typeof entry === "number") {
            item(link(entry));
            if (pages[entry][0] === here) holds = true;
            continue;
          }
          if (!Array.isArray(entry)) { item(out(entry)); continue; }
          var details = document.createElement("details"), summary = document.createElement("summary");
          summary.appendChild(entry[1] >= 0 ? link(entry[1], entry[0]) : document.createTextNode(entry[0]));
          details.appendChild(summary);
          var inner = folder(entry, false);
          details.appendChild(inner.list);
          if (inner.holds || (entry[1] >= 0 && pages[entry[1]][0] === here)) { details.open = true; holds = true; }
          item(details);
        }
        return { list: list, holds: holds };
      }
      var tree = site.querySelector(".outline-site-tree");
      tree.textContent = "";
      tree.appendChild(folder(data.tree, true).list);
      site.navigation = data;
      breadcrumbs(data.tree);
    };
    // The breadcrumbs: the sections of the navigation that hold this page, above it.
    function trail(node) {
      for (var i = 2; i < node.length; i++) {
        var entry = node[i];
        if (typeof entry === "number" && pages()[entry][0] === here) return [];
        if (!Array.isArray(entry)) continue;
        if (entry[1] >= 0 && pages()[entry[1]][0] === here) return [];
        var inner = trail(entry);
        if (inner) return [entry].concat(inner);
      }
      return null;
    }
    function pages() { return site.navigation.pages; }
    function breadcrumbs(top) {
      var path = trail(top), main = document.querySelector("main.outline");
      if (!path || !path.length || !main) return;
      var nav = document.createElement("nav"), list = document.createElement("ol");
      nav.className = "outline-breadcrumbs";
      nav.setAttribute("aria-label", "Breadcrumbs");
      path.forEach(function (entry) {
        var li = document.createElement("li"), a = document.createElement(entry[1] >= 0 ? "a" : "span");
        if (entry[1] >= 0) a.href = root + pages()[entry[1]][0];
        a.textContent = entry[0];
        li.appendChild(a);
        list.appendChild(li);
      });
      nav.appendChild(list);
      var old = main.querySelector(":scope > .outline-breadcrumbs");
      if (old) old.remove();
      main.insertBefore(nav, main.firstChild);
    }
    load("nav.js");

    // The search: sections whose title or text hold every word typed (case and accents
    // aside), titles first, as page › section with a snippet; arrows and Enter choose.
    var box = site.querySelector(".outline-site-search");
    var search = document.getElementById("outline-render:search");
    var results = document.getElementById("outline-render:results");
    var count = site.querySelector(".outline-search-count");
    var index = null, requested = false, chosen = -1, pending = "";
    // One entry per page: [page number in nav.js, [[id, title, text(, title's HTML)], …], page URL].
    window.outlineSiteSearch = function (pages) {
      index = [];
      pages.forEach(function (page) {
        page[1].forEach(function (s) {
          index.push({ page: page[0], id: s[0], title: s[1], text: s[2], html: s[3], folded: fold(s[1] + "\n" + s[2]) });
        });
      });
      if (pending) find(pending);
    };
    function request() { if (!requested) { requested = true; load("search.js"); } }
    function snippet(text, words) {
      // About 160 characters around the first word found, each word found marked.
      var folded = fold(text), at = -1;
      words.forEach(function (w) { var i = folded.indexOf(w); if (i >= 0 && (at < 0 || i < at)) at = i; });
      var start = Math.max(0, at - 60), piece = text.slice(start, start + 160), span = document.createElement("span");
      span.className = "outline-search-snippet";
      if (start > 0) piece = "…" + piece;
      var foldedPiece = fold(piece), last = 0, ranges = [];
      words.forEach(function (w) {
        for (var i = foldedPiece.indexOf(w); i >= 0 && w; i = foldedPiece.indexOf(w, i + w.length)) ranges.push([i, i + w.length]);
      });
      ranges.sort(function (a, b) { return a[0] - b[0]; });
      // (Folding keeps ASCII in place; elsewhere a mark may be off by an accent: text only.)
      ranges.forEach(function (r) {
        if (r[0] < last || foldedPiece.length !== piece.length) return;
        span.appendChild(document.createTextNode(piece.slice(last, r[0])));
        var m = document.createElement("mark");
        m.textContent = piece.slice(r[0], r[1]);
        span.appendChild(m);
        last = r[1];
      });
      span.appendChild(document.createTextNode(piece.slice(last)));
      return span;
    }
    // A title as text, or as its HTML when it has markup (the site's own, made from its
    // Markdown as the page's title is).
    function titled(text, html) {
      var span = document.createElement("span");
      if (html) span.innerHTML = html; else span.textContent = text;
      return span;
    }
    function choose(position) {
      var links = results.querySelectorAll("a");
      if (!links.length) return;
      chosen = (position + links.length) % links.length;
      for (var i = 0; i < links.length; i++) {
        if (i === chosen) links[i].setAttribute("aria-current", "true"); else links[i].removeAttribute("aria-current");
      }
      links[chosen].scrollIntoView({ block: "nearest" });
    }
    function find(query) {
      var started = performance.now();
      var words = fold(query).split(/\s+/).filter(Boolean);
      results.textContent = "";
      count.textContent = "";
      chosen = -1;
      if (!words.length) return;
      if (!index) { pending = query; request(); return; }
      var inTitle = [], inText = [];
      for (var i = 0; i < index.length; i++) {
        var s = index[i];
        if (!words.every(function (w) { return s.folded.indexOf(w) >= 0; })) continue;
        var title = fold(s.title);
        (words.every(function (w) { return title.indexOf(w) >= 0; }) ? inTitle : inText).push(s);
      }
      var found = inTitle.concat(inText), pages = site.navigation ? site.navigation.pages : null;
      found.slice(0, 50).forEach(function (s) {
        var li = document.createElement("li"), a = document.createElement("a"), place = document.createElement("span");
        a.href = root + (pages ? pages[s.page][0] : "") + (s.id ? "#" + encodeURIComponent(s.id) : "");
        a.tabIndex = -1;
        place.className = "outline-search-place";
        var pageTitle = pages ? pages[s.page][1] : "";
        if (pageTitle && pageTitle !== s.title) {
          place.appendChild(titled(pageTitle, pages[s.page][2]));
          place.appendChild(document.createTextNode(" › "));
        }
        place.appendChild(titled(s.title, s.html));
        a.appendChild(place);
        if (s.text) a.appendChild(snippet(s.text, words));
        li.appendChild(a);
        results.appendChild(li);
      });
      count.textContent = found.length > 50 ? "the first 50 of " + found.length + " sections"
        : found.length === 1 ? "1 section" : found.length + " sections";
      search.setAttribute("data-search-ms", (performance.now() - started).toFixed(1));
      search.setAttribute("data-search-results", String(found.length));
    }
    if (box && search && results) {
      box.hidden = false;
      // A result on this page: its section opens even when the address does not change.
      results.addEventListener("click", function () { setTimeout(reveal, 0); });
      search.addEventListener("focus", request);
      var searchTimer = 0;
      search.addEventListener("input", function () {
        clearTimeout(searchTimer);
        searchTimer = setTimeout(function () { find(search.value); }, 30);
      });
      search.addEventListener("keydown", function (event) {
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          event.preventDefault();
          choose(chosen + (event.key === "ArrowDown" ? 1 : -1));
        } else if (event.key === "Enter") {
          var a = results.querySelectorAll("a")[Math.max(chosen, 0)];
          if (a) { event.preventDefault(); a.click(); }
        } else if (event.key === "Escape") {
          search.value = "";
          find("");
        }
      });
    }
  }

  // Each code block gets a button that copies its code (as written: highlighting only adds
  // spans), at its top right, outside the part that scrolls (math blocks aside: KaTeX
  // typesets them).
  document.querySelectorAll(".outline pre:not(.mermaid) > code:not(.language-math)").forEach(function (code) {
    var pre = code.parentNode;
    var frame = document.createElement("div");
    frame.className = "outline-code";
    pre.parentNode.insertBefore(frame, pre);
    frame.appendChild(pre);
    // (The notes of an annotated block follow the frame now: marked for the style.)
    var notes = frame.nextElementSibling;
    if (pre.classList.contains("outline-annotated") && notes && notes.tagName === "OL") notes.classList.add("outline-annotations");
    var button = codeButton(frame, "Copy", "aria-label", "Copy the code");
    button.addEventListener("click", function () {
      var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
      var text = shownText(code);
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { copyBySelection(text) && done(); });
      } else if (copyBySelection(text)) {
        done();
      }
    });
    // mdBook's hidden lines: a button shows them (and hides them again).
    if (!pre.querySelector(".outline-line-hidden")) return;
    var toggle = codeButton(frame, "Show hidden", "aria-pressed", "false");
    toggle.addEventListener("click", function () {
      var showing = pre.classList.toggle("outline-showing");
      toggle.setAttribute("aria-pressed", String(showing));
      toggle.textContent = showing ? "Hide lines" : "Show hidden";
    });
  });
  // A button of a code block's frame, at its top right.
  function codeButton(frame, label, attribute, value) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "outline-copy";
    button.textContent = label;
    button.setAttribute(attribute, value);
    frame.appendChild(button);
    return button;
  }
  // The code as shown: without the hidden lines unless they are shown, and without the
  // annotations' markers (as mkdocs-material copies it).
  function shownText(code) {
    var dropped = (code.parentNode.classList.contains("outline-showing") ? "" : ".outline-line-hidden, ") + ".outline-annotation";
    if (!code.querySelector(dropped)) return code.textContent;
    var copy = code.cloneNode(true);
    copy.querySelectorAll(dropped).forEach(function (element) { element.remove(); });
    return copy.textContent;
  }
  function copyBySelection(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    document.body.removeChild(area);
    return copied;
  }

  // The table of contents marks the entry of the section being read.
  var toc = document.querySelector(".outline-toc");
  if (toc && "IntersectionObserver" in window) {
    var links = new Map();
    toc.querySelectorAll("a[href^='#']").forEach(function (a) { links.set(decodeURIComponent(a.getAttribute("href").slice(1)), a); });
    var current = null;
    var observer = new IntersectionObserver(function (seen) {
      seen.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        var section = entry.target.closest("details, .outline-leaf");
        var link = section && links.get(section.id);
        if (!link || link === current) return;
        if (current) current.removeAttribute("aria-current");
        link.setAttribute("aria-current", "true");
        current = link;
      });
    }, { rootMargin: "0px 0px -70% 0px" });
    document.querySelectorAll(".outline details > summary, .outline .outline-leaf").forEach(function (element) { observer.observe(element); });
  }
})();
