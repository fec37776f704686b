// outline-render: progressive enhancement only; the page is complete without it.
(function () {
  "use strict";
  var sections = function () { return document.querySelectorAll("details"); };

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
})();
