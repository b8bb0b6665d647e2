// memwiki live search in the header: results while typing, each the fact or line that matched, with its page,
// date and kind. A combobox: arrow keys move through the results, Enter opens one (or the full search page),
// Escape closes them and then leaves the box.
(function () {
  "use strict";
  var memwiki = window.memwiki;
  var form = document.querySelector(".site-search");
  if (!form || !memwiki) return;
  var input = form.querySelector("input[name=q]");
  if (location.protocol === "file:") { explainFromDisk(); return; }
  var root = document.documentElement.getAttribute("data-root") || "";
  var PAGES = 6;  // results (pages) read per query
  var LINES = 8;  // lines shown in all
  var PER_PAGE = 3;  // lines shown of one page

  var panel = document.createElement("div");
  panel.className = "live-results";
  panel.hidden = true;
  var list = document.createElement("ul");
  list.id = "live-results-list";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Search results");
  panel.appendChild(list);
  // "See all results": an ordinary link after the list, next in Tab order after the box.
  var all = document.createElement("a");
  all.className = "live-all";
  panel.appendChild(all);
  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  form.appendChild(panel);
  form.appendChild(status);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", list.id);

  var token = 0;
  var active = -1;

  function options() { return Array.prototype.slice.call(list.querySelectorAll("[role=option]")); }

  function open(show) {
    panel.hidden = !show;
    input.setAttribute("aria-expanded", show ? "true" : "false");
    if (!show) select(-1);
  }

  function select(index) {
    var items = options();
    active = index;
    items.forEach(function (option, i) { option.setAttribute("aria-selected", i === index ? "true" : "false"); });
    if (index >= 0 && items[index]) {
      input.setAttribute("aria-activedescendant", items[index].id);
      var top = items[index].offsetTop;
      var bottom = top + items[index].offsetHeight;
      if (top < panel.scrollTop) panel.scrollTop = top;
      else if (bottom > panel.scrollTop + panel.clientHeight) panel.scrollTop = bottom - panel.clientHeight;
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function allResultsHref(query) {
    return new URL(root + "search.html?q=" + encodeURIComponent(query), location.href).href;
  }

  function option(href, id) {
    var item = document.createElement("li");
    item.setAttribute("role", "presentation");
    var link = document.createElement("a");
    link.href = href;
    link.id = "live-result-" + id;
    link.tabIndex = -1;
    link.setAttribute("role", "option");
    link.setAttribute("aria-selected", "false");
    item.appendChild(link);
    list.appendChild(item);
    return link;
  }

  function lineOption(line, data, id) {
    var link = option(line.href, id);
    link.className = "live-line";
    var text = document.createElement("span");
    text.className = "live-text";
    text.appendChild(memwiki.lineFragment(line));
    link.appendChild(text);
    var meta = document.createElement("span");
    meta.className = "live-meta";
    var badge = memwiki.kindBadge(line.kind);
    if (badge) meta.appendChild(badge);
    var where = [(data.meta && data.meta.title) || data.url, line.kind ? memwiki.KIND_NAMES[line.kind] + " fact" : data.meta && data.meta.page];
    meta.appendChild(document.createTextNode(where.filter(Boolean).join(" · ")));
    link.appendChild(meta);
  }

  // The lines of the first pages found, shown page by page as each page's data arrives (a long day's data takes a
  // while), in rank order.
  function show(query, found, mine) {
    var pages = found.results.length;
    var shown = 0;
    var started = false;
    function add(data) {
      if (mine !== token || document.activeElement !== input) return;
      if (!started) {
        started = true;
        list.textContent = "";
        select(-1);
        all.href = allResultsHref(query);
        all.textContent = pages ? "See all results (" + pages + (pages === 1 ? " page" : " pages") + ")" : "Nothing found: open the search page";
        open(true);
      }
      if (data) {
        memwiki.matchingLines(data, query, PER_PAGE).forEach(function (line) {
          if (shown < LINES) lineOption(line, data, shown++);
        });
      }
      status.textContent = pages ? shown + " matching lines in " + pages + (pages === 1 ? " page" : " pages") : "Nothing found";
    }
    if (!pages) { add(null); return null; }
    return found.results.slice(0, PAGES).map(function (r) { return r.data(); }).reduce(function (chain, next) {
      return chain.then(function () { return next; }).then(add);
    }, Promise.resolve());
  }

  function search() {
    var query = input.value.trim();
    var mine = ++token;
    if (!query) { open(false); status.textContent = ""; return; }
    memwiki.openPagefind(root).then(function (pagefind) {
      return pagefind.debouncedSearch(query, {}, 120);
    }).then(function (found) {
      if (found === null || mine !== token) return null;  // superseded by newer typing
      return show(query, found, mine);
    }).catch(function (error) {
      status.textContent = "Search is unavailable: " + error.message;
    });
  }

  input.addEventListener("input", search);
  input.addEventListener("focus", function () { if (input.value.trim() && list.childElementCount) open(true); });
  // The index starts opening when the box gets focus: its parts are open by the time a word is typed (on a site of
  // many parts, opening is half of a first search's time).
  input.addEventListener("focus", function () { memwiki.openPagefind(root).catch(function () {}); });
  input.addEventListener("keydown", function (event) {
    var count = options().length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (panel.hidden) { if (count) open(true); else return; }
      event.preventDefault();
      // Positions -1 (the box itself) to count - 1, round and round.
      var next = active + (event.key === "ArrowDown" ? 1 : -1);
      select(next >= count ? -1 : next < -1 ? count - 1 : next);
    } else if (event.key === "Enter" && !panel.hidden && active >= 0) {
      event.preventDefault();
      options()[active].click();
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (!panel.hidden) open(false);
      else input.blur();
    }
  });
  panel.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { event.preventDefault(); open(false); input.focus(); }
  });
  // Clicking a result must not blur the box first (that would close the list before the click lands).
  panel.addEventListener("mousedown", function (event) { event.preventDefault(); });
  form.addEventListener("focusout", function (event) {
    if (!form.contains(event.relatedTarget)) open(false);
  });

  // A page opened from disk: the browser blocks the index's files, so the box says so as soon as it is used, under
  // it, instead of finding nothing (the search page, where Enter leads, says the same).
  function explainFromDisk() {
    var note = document.createElement("div");
    note.className = "live-results live-note";
    note.id = "live-search-note";
    note.hidden = true;
    note.setAttribute("role", "status");
    var text = document.createElement("p");
    text.appendChild(document.createTextNode("Search needs the site served over HTTP: run "));
    var command = document.createElement("code");
    command.textContent = "memwiki serve";
    text.appendChild(command);
    text.appendChild(document.createTextNode(" in the workspace, or host the folder. Opened from disk, the browser blocks the search index's files."));
    note.appendChild(text);
    form.appendChild(note);
    input.setAttribute("aria-describedby", note.id);
    function show(shown) { note.hidden = !shown; }
    input.addEventListener("focus", function () { show(true); });
    input.addEventListener("input", function () { show(true); });
    input.addEventListener("blur", function () { show(false); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && !note.hidden) { event.preventDefault(); show(false); }
    });
  }
})();
