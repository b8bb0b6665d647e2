// memwiki hover previews: pointing at (or tabbing to) a link to another page of the wiki shows a popover with the
// start of that page, or the cited line itself (#L12, a fact, an opinion). Escape hides it. The page is fetched
// once and read as text, never run; opened from disk (file://) nothing is fetched and the link stays a plain link.
(function () {
  "use strict";
  if (location.protocol === "file:" || !window.fetch || !window.DOMParser) return;
  var pages = {};  // page URL -> Promise of its parsed document
  var pop = document.createElement("div");
  pop.className = "preview";
  pop.id = "link-preview";
  pop.setAttribute("role", "tooltip");
  pop.hidden = true;
  (document.getElementById("main") || document.body).appendChild(pop);
  var shownFor = null;  // the link whose preview shows
  var pending = null;  // the link whose preview is coming
  var showTimer = 0;
  var hideTimer = 0;
  var MAX_CHARS = 360;

  // The URL a link leads to when it is another page of this site, else null.
  function target(link) {
    if (!link || !link.getAttribute("href") || link.closest(".site-header, .preview, .live-results, .toc")) return null;
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !/\.html$/.test(url.pathname) || /\/search\.html$/.test(url.pathname)) return null;
    if (url.pathname === location.pathname) return null;
    return url;
  }

  function load(url) {
    var page = url.href.split("#")[0];
    if (!pages[page]) {
      pages[page] = fetch(page).then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      }).then(function (text) {
        return new DOMParser().parseFromString(text, "text/html");
      });
      pages[page].catch(function () { delete pages[page]; });
    }
    return pages[page];
  }

  function clean(text) { return text.replace(/\s+/g, " ").trim(); }

  function shorten(text) {
    return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS).replace(/\s+\S*$/, "") + "…" : text;
  }

  // The text of a source line: from its anchor to the next line's anchor, without the fact badge; its kind.
  function lineText(anchor) {
    var block = anchor.closest("p, li, h1, h2, h3, h4, h5, h6, td, th, blockquote, pre, dd, dt") || anchor.parentElement;
    var badge = block.querySelector(".fact");
    var kind = badge ? (/\bk-([WBOS])\b/.exec(badge.className) || [])[1] || "" : "";
    var walker = document.createTreeWalker(block, NodeFilter.SHOW_ALL);
    walker.currentNode = anchor;
    var out = "";
    var node;
    while ((node = walker.nextNode())) {
      if (node.nodeType === 1 && node.classList.contains("ln")) break;
      if (node.nodeType === 3 && !(badge && badge.contains(node))) {
        out += node.nodeValue;
      }
    }
    return { text: clean(out), kind: kind };
  }

  // The opening of a page: its first paragraphs (an entity's own text, then what reflect wrote about it).
  function opening(doc) {
    var scope = doc.querySelector("main article, main") || doc.body;
    var parts = [];
    var blocks = scope.querySelectorAll(".lede, .prose > p, .prose > ul > li, .reflected p, .notice, .day-list p, .opinion .statement");
    for (var i = 0; i < blocks.length && parts.join(" ").length < MAX_CHARS; i++) {
      if (blocks[i].closest(".page-side, .same-day-body, .small")) continue;
      var copy = blocks[i].cloneNode(true);
      copy.querySelectorAll(".fact").forEach(function (badge) { badge.remove(); });  // a fact's kind and names
      var text = clean(copy.textContent);
      if (text) parts.push(text);
    }
    return shorten(parts.join(" "));
  }

  function fill(doc, url) {
    var title = clean((doc.querySelector("main h1") || {}).textContent || doc.title.split(" · ")[0]);
    var kicker = clean((doc.querySelector("main .kicker") || {}).textContent || "");
    var id = decodeURIComponent(url.hash.slice(1));
    var anchor = id ? doc.getElementById(id) : null;
    var body = "";
    var kind = "";
    var where = kicker;
    if (anchor && /^L\d+$/.test(id)) {
      var line = lineText(anchor);
      body = line.text;
      kind = line.kind;
      where = "line " + id.slice(1) + (kicker ? " · " + kicker : "");
    } else if (anchor && /^H[1-6]$/.test(anchor.tagName)) {
      where = clean(anchor.textContent);
      var next = anchor.nextElementSibling;
      body = next ? clean(next.textContent) : "";
    } else if (anchor) {
      var item = anchor.closest("li, article, p") || anchor;
      var badge = item.querySelector(".fact");
      kind = badge ? (/\bk-([WBOS])\b/.exec(badge.className) || [])[1] || "" : "";
      body = clean((item.querySelector(".fact-text, .statement") || item).textContent);
    } else {
      body = opening(doc);
    }
    pop.textContent = "";
    var head = document.createElement("p");
    head.className = "preview-title";
    head.textContent = title;
    pop.appendChild(head);
    if (where || kind) {
      var meta = document.createElement("p");
      meta.className = "preview-meta";
      var badgeView = window.memwiki && window.memwiki.kindBadge ? window.memwiki.kindBadge(kind) : null;
      if (badgeView) { meta.appendChild(badgeView); meta.appendChild(document.createTextNode(" ")); }
      meta.appendChild(document.createTextNode(where));
      pop.appendChild(meta);
    }
    var text = document.createElement("p");
    text.className = "preview-text";
    text.textContent = shorten(body) || "(empty)";
    pop.appendChild(text);
  }

  function place(link) {
    var box = link.getBoundingClientRect();
    pop.style.maxWidth = Math.min(416, document.documentElement.clientWidth - 16) + "px";
    var width = pop.offsetWidth;
    var height = pop.offsetHeight;
    var left = Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8));
    var below = box.bottom + 8;
    var top = below + height > window.innerHeight && box.top - height - 8 > 0 ? box.top - height - 8 : below;
    pop.style.left = left + window.scrollX + "px";
    pop.style.top = top + window.scrollY + "px";
  }

  function show(link) {
    var url = target(link);
    if (!url) return;
    clearTimeout(hideTimer);
    load(url).then(function (doc) {
      if (pending !== link) return;  // the pointer or focus moved on meanwhile
      fill(doc, url);
      if (link.title) { link.setAttribute("data-title", link.title); link.removeAttribute("title"); }
      pop.hidden = false;
      place(link);
      shownFor = link;
      link.setAttribute("aria-describedby", pop.id);
    }).catch(function () { /* not fetched: the link stays a plain link */ });
  }

  function hide() {
    clearTimeout(showTimer);
    pending = null;
    pop.hidden = true;
    if (shownFor) {
      shownFor.removeAttribute("aria-describedby");
      if (shownFor.getAttribute("data-title")) shownFor.title = shownFor.getAttribute("data-title");
    }
    shownFor = null;
  }

  function later(link, delay) {
    clearTimeout(showTimer);
    clearTimeout(hideTimer);
    if (!target(link)) return;
    pending = link;
    showTimer = setTimeout(function () { if (pending === link) show(link); }, delay);
  }

  function hideSoon() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 250);
  }

  var main = document.getElementById("main") || document.body;
  main.addEventListener("mouseover", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (link && link !== shownFor) later(link, 350);
  });
  main.addEventListener("mouseout", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (link && !link.contains(event.relatedTarget)) { pending = null; hideSoon(); }
  });
  main.addEventListener("focusin", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (link) later(link, 150);
  });
  main.addEventListener("focusout", function () { hide(); });
  pop.addEventListener("mouseover", function () { clearTimeout(hideTimer); });
  pop.addEventListener("mouseout", function (event) { if (!pop.contains(event.relatedTarget)) hideSoon(); });
  document.addEventListener("pointerdown", function (event) { if (!pop.hidden && !pop.contains(event.target)) hide(); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !pop.hidden) hide();
  });
  window.addEventListener("scroll", function () { if (shownFor) place(shownFor); }, { passive: true });
})();
