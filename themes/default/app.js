// memwiki default theme behaviour: the theme toggle and keyboard shortcuts.
(function () {
  var root = document.documentElement;
  function current() {
    var set = root.getAttribute("data-theme");
    if (set) return set;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  var toggle = document.querySelector(".theme-toggle");
  if (toggle) {
    toggle.setAttribute("aria-pressed", current() === "dark" ? "true" : "false");
    toggle.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      toggle.setAttribute("aria-pressed", next === "dark" ? "true" : "false");
      try { localStorage.setItem("memwiki-theme", next); } catch (e) { /* ignore */ }
    });
  }
  // Opened from disk, Pagefind cannot load: say so where people search.
  var box = document.querySelector(".site-search input");
  if (box && location.protocol === "file:") {
    box.title = "Search needs the site served over HTTP (memwiki serve)";
  }
  // A cited line inside a collapsed block (OpenClaw's dreaming notes) opens the block so the line shows.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    var opened = false;
    for (var node = el; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) { node.open = true; opened = true; }
    }
    if (opened) el.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  if (location.hash) openTarget();
  // On a day's page, the day's other files (sessions, dream reports) open in place: fetched when first opened.
  // Their anchors are dropped (they belong to the file's own page) and links made absolute. From disk, the link stays.
  document.querySelectorAll("details.same-day-file[data-src]").forEach(function (details) {
    details.addEventListener("toggle", function () {
      if (!details.open || details.dataset.loaded || location.protocol === "file:") return;
      details.dataset.loaded = "1";
      var src = new URL(details.dataset.src, location.href);
      fetch(src).then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      }).then(function (text) {
        var prose = new DOMParser().parseFromString(text, "text/html").querySelector("main .prose");
        if (!prose) return;
        prose.querySelectorAll("[id]").forEach(function (el) { el.removeAttribute("id"); });
        prose.querySelectorAll("a[href]").forEach(function (a) { a.href = new URL(a.getAttribute("href"), src).href; });
        var body = details.querySelector(".same-day-body");
        body.textContent = "";
        while (prose.firstChild) body.appendChild(prose.firstChild);
      }).catch(function () { /* the link in the summary still leads there */ });
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var tag = (document.activeElement && document.activeElement.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA") return;
    var box = document.querySelector("#search-q, .site-search input");
    if (box) { event.preventDefault(); box.focus(); }
  });
})();
