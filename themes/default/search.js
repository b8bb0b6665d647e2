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
  var pagefind = null;
  var current = { results: [], shown: 0, token: 0 };

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
    if (pagefind) return Promise.resolve(pagefind);
    var url = new URL(root + "pagefind/pagefind.js", location.href).href;
    return import(url).then(function (module) {
      pagefind = module;
      // Result URLs are site-relative; the base makes them work under any sub-path.
      return pagefind.options({ baseUrl: new URL(root || "./", location.href).pathname }).then(function () {
        return pagefind;
      });
    });
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

  // The anchor nearest before the first matched word: a source line (#L12), a
  // fact (#f-…) or a heading, so the result opens where the match is.
  function deepLink(data) {
    var url = data.url;
    var first = (data.locations && data.locations.length) ? data.locations[0] : null;
    if (first === null || !data.anchors) return url;
    var best = null;
    data.anchors.forEach(function (a) {
      if (a.id && a.location <= first && (!best || a.location >= best.location)) best = a;
    });
    return best ? url.split("#")[0] + "#" + encodeURIComponent(best.id) : url;
  }

  // Decode entities without ever parsing markup: a textarea's content is plain text.
  var decoder = document.createElement("textarea");
  function decode(text) {
    decoder.innerHTML = text;
    return decoder.value;
  }

  // Pagefind marks matches with <mark>; everything else is shown as text, never as HTML.
  function excerpt(html) {
    var out = document.createDocumentFragment();
    var inMark = false;
    html.split(/(<\/?mark>)/).forEach(function (part) {
      if (part === "<mark>") { inMark = true; return; }
      if (part === "</mark>") { inMark = false; return; }
      var text = decode(part);
      if (!text) return;
      if (inMark) {
        var mark = document.createElement("mark");
        mark.textContent = text;
        out.appendChild(mark);
      } else {
        out.appendChild(document.createTextNode(text));
      }
    });
    return out;
  }

  function render(data) {
    var item = document.createElement("li");
    item.className = "search-result";
    var link = document.createElement("a");
    link.href = deepLink(data);
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
    var text = document.createElement("p");
    text.className = "search-excerpt";
    text.appendChild(excerpt(data.excerpt || ""));
    item.appendChild(text);
    return item;
  }

  function showMore(token) {
    var batch = current.results.slice(current.shown, current.shown + PAGE);
    return Promise.all(batch.map(function (r) { return r.data(); })).then(function (all) {
      if (token !== current.token) return;
      all.forEach(function (data) { list.appendChild(render(data)); });
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
  input.focus();
})();
