// Injected by `memwiki serve` into every page: reload after a rebuild, show build errors.
(function () {
  "use strict";
  var mine = Number(new URL(document.currentScript.src).searchParams.get("v"));
  var panel = null;
  function clear() { if (panel) { panel.remove(); panel = null; } }
  // A failed build covers the page; warnings are a small folded note in a corner.
  function show(kind, title, lines) {
    clear();
    panel = document.createElement(kind === "error" ? "aside" : "details");
    panel.className = "memwiki-live " + kind;
    panel.style.cssText = "position:fixed;z-index:99;bottom:1rem;right:1rem;max-height:50vh;overflow:auto;" +
      "padding:.6rem 1rem;border-radius:8px;font:13px/1.45 ui-monospace,monospace;box-shadow:0 4px 24px #0006;" +
      "white-space:pre-wrap;color:#fff;background:" + (kind === "error" ? "#7f1d1d;left:1rem" : "#1f2937;max-width:40rem");
    var head = document.createElement(kind === "error" ? "strong" : "summary");
    head.textContent = title;
    panel.appendChild(head);
    var body = document.createElement("div");
    body.textContent = lines.join("\n");
    panel.appendChild(body);
    if (kind === "error") panel.setAttribute("role", "alert");
    document.body.appendChild(panel);
  }
  // A small pill while the server rebuilds or brings search up to date; the page reloads when the build is done.
  var pill = null;
  function working(what) {
    if (!what) { if (pill) { pill.remove(); pill = null; } return; }
    if (!pill) {
      pill = document.createElement("div");
      pill.className = "memwiki-live busy";
      pill.setAttribute("role", "status");
      pill.style.cssText = "position:fixed;z-index:99;top:.6rem;right:.6rem;padding:.25rem .7rem;border-radius:999px;" +
        "font:12px/1.5 ui-sans-serif,system-ui,sans-serif;color:#fff;background:#1f2937e6;box-shadow:0 2px 10px #0004";
      document.body.appendChild(pill);
    }
    pill.textContent = what + "…";
  }
  var events = new EventSource("/__memwiki/events");
  events.addEventListener("state", function (event) {
    var state = JSON.parse(event.data);
    // A version that changed only some pages (the edited notes, shown before the rest of the site is rebuilt)
    // reloads those; the others wait for the next one.
    var here = decodeURIComponent(location.pathname).replace(/^\//, "").replace(/(^|\/)$/, "$1index.html");
    if (state.version !== mine && state.only.length && state.only.indexOf(here) < 0) mine = state.version;
    if (state.version !== mine) { events.close(); location.reload(); return; }
    working(state.busy);
    if (state.error) show("error", "memwiki: the build failed; this is the last good site.", [state.error]);
    else if (state.warnings.length) show("warnings", "memwiki: " + state.warnings.length + " warning(s)", state.warnings);
    else clear();
  });
})();
