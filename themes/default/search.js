// memwiki search page: Pagefind's JS API, filters, date sort, and results that
// open at the matching line (#L12) rather than at the top of the page.
(function () {
  "use strict";
  var form = document.querySelector("form[data-search-page]");
  if (!form) return;
  var input = form.querySelector("input[name=q]");
  var status = document.querySelector(".search-status");
  var list = document.querySelector(".search-results");
  var more = document.querySelector(".search-more");
  var selects = Array.prototype.slice.call(form.querySelectorAll("select"));
  var root = document.documentElement.getAttribute("data-root") || "";
  var PAGE = 10;
  var current = { results: [], shown: 0, token: 0, query: "" };

  function say(text) { status.textContent = text; }

  // State lives in the URL, so a search can be bookmarked and shared.
  var params = new URLSearchParams(location.search);
  input.value = params.get("q") || "";
  selects.forEach(function (s) { if (params.get(s.name)) s.value = params.get(s.name); });

  if (location.protocol === "file:") {
    say("Search needs the site served over HTTP: run `memwiki serve` in the workspace, or host the folder. " +
        "Browsers block the search index's files when a page is opened from disk.");
    form.classList.add("search-unavailable");
    return;
  }

  function load() {
    return window.memwiki.openPagefind(root);
  }

  function options() {
    var filters = {};
    var sort = null;
    selects.forEach(function (s) {
      if (!s.value) return;
      if (s.name === "sort") sort = { date: s.value === "oldest" ? "asc" : "desc" };
      else filters[s.name] = s.value;
    });
    var opts = { filters: filters };
    if (sort) opts.sort = sort;
    return opts;
  }

  function remember() {
    var next = new URLSearchParams();
    if (input.value.trim()) next.set("q", input.value.trim());
    selects.forEach(function (s) { if (s.value) next.set(s.name, s.value); });
    var query = next.toString();
    history.replaceState(null, "", query ? "?" + query : location.pathname);
  }

  // A page found: its title (opening at its best line), kind and date, then the lines that matched, each opening
  // at that line (#L12) rather than at the top of the page.
  function render(data, query) {
    var memwiki = window.memwiki;
    var lines = (query ? memwiki.matchingLines(data, query, 3) : []).filter(function (line) {
      return line.words.some(function (word) { return word.text.trim(); });  // a link says something
    });  // a filter alone matches no words
    var item = document.createElement("li");
    item.className = "search-result";
    var link = document.createElement("a");
    link.href = lines.length ? lines[0].href : data.url;
    link.textContent = (data.meta && data.meta.title) || data.url;
    var heading = document.createElement("h2");
    heading.appendChild(link);
    item.appendChild(heading);
    var meta = [data.meta && data.meta.page, data.meta && data.meta.date].filter(Boolean).join(" · ");
    if (meta) {
      var info = document.createElement("p");
      info.className = "search-meta";
      info.textContent = meta;
      item.appendChild(info);
    }
    var found = document.createElement("ul");
    found.className = "search-lines";
    lines.forEach(function (line) {
      var row = document.createElement("li");
      var badge = memwiki.kindBadge(line.kind);
      if (badge) { row.appendChild(badge); row.appendChild(document.createTextNode(" ")); }
      var to = document.createElement("a");
      to.href = line.href;
      to.className = "search-excerpt";
      to.appendChild(memwiki.lineFragment(line));
      row.appendChild(to);
      found.appendChild(row);
    });
    item.appendChild(found);
    return item;
  }

  function showMore(token) {
    var batch = current.results.slice(current.shown, current.shown + PAGE);
    return Promise.all(batch.map(function (r) { return r.data(); })).then(function (all) {
      if (token !== current.token) return;
      all.forEach(function (data) { list.appendChild(render(data, current.query)); });
      current.shown += batch.length;
      more.hidden = current.shown >= current.results.length;
    });
  }

  function run() {
    remember();
    var query = input.value.trim();
    var opts = options();
    var token = ++current.token;
    if (!query && !Object.keys(opts.filters).length) {
      list.textContent = "";
      more.hidden = true;
      say("Type to search, or pick a filter to list pages.");
      return;
    }
    say("Searching…");
    load().then(function (pf) {
      return pf.debouncedSearch(query || null, opts, 120);
    }).then(function (search) {
      if (search === null || token !== current.token) return;  // superseded by newer typing
      current.results = search.results;
      current.query = query;
      current.shown = 0;
      list.textContent = "";
      var n = search.results.length;
      say(n ? n + (n === 1 ? " page" : " pages") + " found." : "Nothing found.");
      return showMore(token);
    }).catch(function (error) {
      say("Search is unavailable: " + error.message + ". Rebuild the site without --no-search.");
    });
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
  input.addEventListener("input", run);
  selects.forEach(function (s) { s.addEventListener("change", run); });
  more.addEventListener("click", function () { showMore(current.token); });
  if (input.value || selects.some(function (s) { return s.value; })) run();
  else load().catch(function () {});  // opened while the question is typed
  input.focus();
})();
