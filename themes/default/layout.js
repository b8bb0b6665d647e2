// memwiki page layout: the phone menu button, and the table of contents of long pages (its current section marked
// while reading).
(function () {
  "use strict";
  // The menu button (shown on narrow screens) opens and closes the navigation; Escape closes it.
  var header = document.querySelector(".site-header");
  var toggle = header && header.querySelector(".menu-toggle");
  if (toggle) {
    var setOpen = function (open) {
      header.classList.toggle("menu-open", open);
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    };
    toggle.addEventListener("click", function () { setOpen(toggle.getAttribute("aria-expanded") !== "true"); });
    header.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && header.classList.contains("menu-open")) { setOpen(false); toggle.focus(); }
    });
    document.addEventListener("click", function (event) {
      if (header.classList.contains("menu-open") && !header.contains(event.target)) setOpen(false);
    });
  }

  // Contents: the sections of the page's own text (not the side column), on long pages with three or more.
  var toc = document.querySelector("nav.toc");
  var body = toc && document.querySelector(".with-side > :first-child");
  if (!toc || !body) return;
  var headings = Array.prototype.filter.call(body.querySelectorAll("h2[id], h3[id], h4[id]"), function (h) {
    return !h.closest("details:not([open]), .opinion, .page-side") && h.textContent.trim();
  });
  if (headings.length < 3 || body.offsetHeight < 1.5 * window.innerHeight) return;  // a short page needs none
  // Folded on a narrow screen (above the text), open beside it: a <details> made here, so pages stay plain.
  var fold = document.createElement("details");
  fold.className = "toc-fold";
  var summary = document.createElement("summary");
  summary.textContent = "On this page";
  var list = document.createElement("ol");
  fold.appendChild(summary);
  fold.appendChild(list);
  toc.appendChild(fold);
  var links = headings.map(function (heading) {
    var item = document.createElement("li");
    item.className = "toc-" + heading.tagName.toLowerCase();
    var link = document.createElement("a");
    link.href = "#" + encodeURIComponent(heading.id);
    link.textContent = heading.textContent.replace(/\s+/g, " ").trim();
    item.appendChild(link);
    list.appendChild(item);
    return link;
  });
  toc.hidden = false;
  var wide = window.matchMedia("(min-width: 64rem)");
  var fit = function () {
    fold.open = wide.matches;
    summary.tabIndex = wide.matches ? -1 : 0;  // beside the text it is a heading, not a switch
  };
  fit();
  if (wide.addEventListener) wide.addEventListener("change", fit);

  // The current section: the last heading above the top quarter of the window. Positions are measured once
  // (and again when the page's size changes), then found by bisection, so pages with thousands of headings scroll
  // smoothly.
  var tops = [];
  function measure() {
    tops = headings.map(function (h) { return h.getBoundingClientRect().top + window.scrollY; });
  }
  var current = -1;
  var side = toc.closest(".page-side");
  function mark() {
    var line = window.scrollY + window.innerHeight / 4;
    var low = 0;
    var high = tops.length - 1;
    var found = -1;
    while (low <= high) {
      var mid = (low + high) >> 1;
      if (tops[mid] <= line) { found = mid; low = mid + 1; } else { high = mid - 1; }
    }
    if (found === current) return;
    // Keep the marked entry in view when the side column scrolls on its own. Everything is read before anything
    // is written: a read after a write would lay the whole (long) page out again, once per section.
    var scroll = -1;
    if (found >= 0 && side && side.scrollHeight > side.clientHeight) {
      var top = links[found].offsetTop;  // the side column is positioned (sticky): offsets are within it
      if (top < side.scrollTop || top > side.scrollTop + side.clientHeight - 40) scroll = top - side.clientHeight / 3;
    }
    if (current >= 0) links[current].removeAttribute("aria-current");
    current = found;
    if (found >= 0) links[found].setAttribute("aria-current", "location");
    if (scroll >= 0) side.scrollTop = scroll;
  }
  var queued = false;
  function onScroll() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(function () { queued = false; mark(); });
  }
  measure();
  mark();
  window.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("resize", function () { measure(); mark(); });
  if (window.ResizeObserver) new ResizeObserver(function () { measure(); mark(); }).observe(body);
})();
