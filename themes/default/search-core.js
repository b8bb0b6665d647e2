// memwiki search core, shared by the header's live search and search.html: the one place Pagefind is loaded,
// and how a Pagefind result becomes the lines that matched (a fact, a log line), each with its anchor.
(function () {
  "use strict";
  var memwiki = (window.memwiki = window.memwiki || {});
  var opening = null;

  // The site's search index, opened once per page; every search on the page goes through here. The index comes in
  // parts (pagefind/parts.json: one Pagefind index per year, half year or month of dated pages, one or a few for the
  // other pages) so that a build re-indexes only the parts whose pages changed. Each part is searched and their
  // results are merged into one list, as one index would give (see Merged); the pages that search see one index.
  memwiki.openPagefind = function (base) {
    if (opening) return opening;
    var root = new URL(base || "./", location.href);
    var folder = new URL("pagefind/", root);
    opening = fetch(folder.href + "parts.json").then(function (response) {
      if (!response.ok) throw new Error("the search index is missing (" + response.status + ")");
      return response.json();
    }).then(function (listed) {
      // Pagefind and its WebAssembly are loaded once; each part is one more index of it, as Pagefind's mergeIndex
      // opens one (``MemwikiPart`` is its class for that, exported by the build), but kept apart so that each
      // part's results stay its own. The WebAssembly first, then the parts: two loading it at once would each
      // make their own and one would lose its index. Searched on the page itself: a part is small.
      var english = listed.language === "en";
      return Promise.all([import(folder.href + "pagefind.js").then(function (pagefind) {
        var Part = pagefind.MemwikiPart;
        return new Part({ basePath: folder.pathname }).loadWasm(listed.wasm).then(function () {
          return Promise.all(listed.parts.map(function (name) {
            // Result URLs are site-relative; the base makes them work under any sub-path.
            var part = new Part({ basePath: folder.pathname + name + "/", baseUrl: root.pathname, excerptLength: 24 });
            return part.init(listed.language, { load_wasm: false }).then(function () { return part; });
          }));
        });
      }), english ? import(new URL("_theme/porter2.js", root).href) : null]).then(function (loaded) {
        var dated = listed.parts.map(function (name) { return listed.undated.indexOf(name) < 0; });
        return new Merged(loaded[0], dated, english ? loaded[1].stem : null);
      });
    });
    opening.catch(function () { opening = null; });  // a failed load is tried again by the next search
    return opening;
  };

  // The parts of the index as one: search() and debouncedSearch() as Pagefind's, over every part. The parts come
  // oldest first, then the undated pages; ``dated`` says which are which.
  function Merged(parts, dated, stem) {
    this.parts = parts;
    this.dated = dated;
    this.stem = stem;
    this.searchID = 0;
  }

  Merged.prototype.preload = function (term, options) {
    return Promise.all(this.parts.map(function (part) { return part.preload(term, options); }));
  };

  // Pagefind's debounce: null when a newer search was asked for before this one's turn or before it ended.
  Merged.prototype.debouncedSearch = function (term, options, wait) {
    var self = this;
    var mine = ++this.searchID;
    if (term) this.preload(term, options).catch(function () {});
    return new Promise(function (done) { setTimeout(done, wait); }).then(function () {
      if (mine !== self.searchID) return null;
      return self.search(term, options).then(function (found) { return mine === self.searchID ? found : null; });
    });
  };

  // Every part searched; the results merged best first, or by date when sorted by date (each part is in date
  // order and the parts are spans of time, oldest first, so they follow one another; undated pages last).
  Merged.prototype.search = function (term, options) {
    var self = this;
    options = options || {};
    return Promise.all(this.parts.map(function (part) { return part.search(term, options); })).then(function (found) {
      found.forEach(function (one) { one.results.forEach(keepData); });
      return self.realMatches(term, found, options);
    }).then(function (found) {
      var order = found.map(function (one, i) { return i; });
      var dated = order.filter(function (i) { return self.dated[i]; });
      var undated = order.filter(function (i) { return dated.indexOf(i) < 0; });
      var sort = options.sort && options.sort.date;
      if (sort !== "asc") dated.reverse();  // newest first when scores tie, and for a date sort "desc"
      var results = [];
      var byScore = function (a, b) { return b.score - a.score; };
      dated.concat(undated).forEach(function (i) {
        // Sorted by date, a part gives its results in no order, each scored by its place in that order (which
        // Pagefind's own merge sorts by): the part's order is its scores'.
        results = results.concat(sort ? stableSort(found[i].results, byScore) : found[i].results);
      });
      if (!sort) results = stableSort(results, byScore);
      var total = found.reduce(function (sum, one) { return sum + (one.unfilteredResultCount || 0); }, 0);
      return { results: results, unfilteredResultCount: total };
    });
  };

  // One Pagefind index falls back, for a query word no word of it starts with, to its longest word that starts
  // the query word ("worktops" finds "work" when no page has "worktop"). Each part does so on its own, so a part
  // without the word would add pages one index would never give. Which words a part matched for a query word is
  // read from its best result for that word (stemmed as Pagefind stems them, Porter2): a part that fell back is
  // dropped when another part has the word itself or a longer word that starts it, or fell back to a longer word.
  Merged.prototype.realMatches = function (term, found, options) {
    var self = this;
    var stem = this.stem;
    // Pagefind drops the punctuation of a query word ("e-mail" is "email"): each word's parts, joined, stemmed.
    var terms = !stem ? [] : (term || "").split(/\s+/).filter(function (token) { return words(token).length; });
    var filtered = Object.keys(options.filters || {}).length > 0;
    var withResults = found.filter(function (one) { return one.results.length; });
    if (!terms.length || !withResults.length) return Promise.resolve(found);
    var alone = terms.length === 1 && !filtered;  // the query's own results tell what each part matched
    if (alone && withResults.length < 2) return Promise.resolve(found);
    return Promise.all(terms.map(function (token) {
      var wanted = stem(words(token).pop());
      return Promise.all(self.parts.map(function (part, i) {
        var searched = alone ? Promise.resolve(found[i]) : part.search(token, {});
        return searched.then(function (one) {
          if (!one.results.length) return undefined;
          return one.results[0].data().then(function (data) { return matchedKey(data, wanted, stem); });
        }).catch(function () { return undefined; });
      }));
    })).then(function (states) {
      var dropped = {};
      states.forEach(function (perPart) {
        var real = perPart.indexOf(true) >= 0;
        var longest = Math.max.apply(null, perPart.map(function (s) { return typeof s === "number" ? s : 0; }));
        perPart.forEach(function (s, i) { if (typeof s === "number" && (real || s < longest)) dropped[i] = true; });
      });
      return found.map(function (one, i) { return dropped[i] ? { results: [], unfilteredResultCount: 0 } : one; });
    });
  };

  // What a result's matched words say of the query stem ``wanted``: true when one of them extends it (a real
  // match), else the length of the longest that is a shorter start of it (Pagefind's fallback), else undefined.
  function matchedKey(data, wanted, stem) {
    var content = (data.content || "").split(/\s+/);
    var fallback;
    var locations = data.locations || [];
    for (var l = 0; l < locations.length; l++) {
      var found = words(content[locations[l]] || "");
      for (var w = 0; w < found.length; w++) {
        var keys = [found[w], stem(found[w])];
        for (var k = 0; k < 2; k++) {
          if (keys[k].indexOf(wanted) === 0) return true;
          if (keys[k].length < wanted.length && wanted.indexOf(keys[k]) === 0) fallback = Math.max(fallback || 0, keys[k].length);
        }
      }
    }
    return fallback;
  }

  // The words of a text as Pagefind keeps them: lower case, accents dropped, split at anything but letters and
  // digits and inside camel case, with the parts of a compound also joined ("OpenClaw": open, claw, openclaw).
  function words(text) {
    var spaced = text.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
    var plain = spaced.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    var parts = plain.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (parts.length > 1) parts.push(parts.join(""));
    return parts;
  }

  // A result's data() loads its fragment once, however many times it is asked for (the merge reads the best
  // result of each part, the page shows it again).
  function keepData(result) {
    var load = result.data;
    var loaded = null;
    result.data = function () {
      if (!loaded) loaded = load();
      return loaded;
    };
  }

  function stableSort(list, compare) {
    return list.map(function (item, i) { return [item, i]; }).sort(function (a, b) {
      return compare(a[0], b[0]) || a[1] - b[1];
    }).map(function (pair) { return pair[0]; });
  }

  memwiki.KIND_NAMES = { W: "world", B: "experience", O: "opinion", S: "observation" };

  // Where a line starts: a source line (#L12), a fact of an entity's timeline (#t-…), an opinion card, a heading.
  function startsLine(anchor) {
    return /^(L\d+|t-.+|op-.+)$/.test(anchor.id) || /^h[1-6]$/.test(anchor.element);
  }

  // The fact kind (W, B, O, S) of a fact's anchor: a badge in a note (#f-W-…), or an entity's timeline item
  // (#t-…), whose text opens with its badge: "W Grout added…", "O0.30 The kitchen…".
  function kindOf(anchor) {
    var m = /^f-([WBOS])-/.exec(anchor.id) || (/^t-/.test(anchor.id) && /^([WBOS])(?=[\s\d]|$)/.exec(anchor.text || ""));
    return m ? m[1] : "";
  }

  function lastAtOrBefore(list, location) {
    var found = -1;
    for (var i = 0; i < list.length && list[i].location <= location; i++) found = i;
    return found;
  }

  var MAX_WORDS = 32;

  // The lines of a result that hold its matches, best first: [{href, words: [{text, hit}], kind, hits}].
  // Pagefind counts the words of ``content`` split on white space, and its anchors and matches are such word
  // positions; when they do not line up with the query (text without spaces, say), its excerpts are used instead.
  memwiki.matchingLines = function (data, query, max) {
    var words = (data.content || "").split(/\s+/);
    var anchors = (data.anchors || []).filter(function (a) { return a.id; });
    anchors.sort(function (a, b) { return a.location - b.location; });
    var starts = anchors.filter(startsLine);
    var kinds = {};
    anchors.forEach(function (a) {
      if (/^(f|t)-/.test(a.id) && kindOf(a)) kinds[a.location] = kindOf(a);
    });
    var locations = data.locations || [];
    var terms = (query || "").toLowerCase().split(/\s+/).filter(Boolean);
    if (!starts.length || !locations.length || !aligned(words, locations, query)) return excerptLines(data, max, starts);
    var lines = {};
    var order = [];
    locations.forEach(function (at) {
      var index = lastAtOrBefore(starts, at);
      var from = index >= 0 ? starts[index].location : 0;
      var line = lines[from];
      if (!line) {
        var next = starts.filter(function (a) { return a.location > from; })[0];
        line = lines[from] = {
          id: index >= 0 ? starts[index].id : "",
          from: from,
          to: next ? next.location : words.length,
          hits: [],
          kind: kinds[from] || "",
        };
        order.push(line);
      }
      line.hits.push(at);
    });
    order.sort(function (a, b) { return b.hits.length - a.hits.length || a.from - b.from; });
    return order.slice(0, max).map(function (line) {
      var first = line.from;
      var last = line.to;
      if (last - first > MAX_WORDS) {  // a long paragraph: the words around its first match
        first = Math.max(line.from, line.hits[0] - 8);
        last = Math.min(line.to, first + MAX_WORDS);
      }
      var shown = [];
      if (first > line.from) shown.push({ text: "…", hit: false });
      for (var i = first; i < last; i++) {
        if (!words[i]) continue;
        if (line.hits.indexOf(i) < 0) shown.push({ text: words[i], hit: false });
        else shown.push.apply(shown, markTerm(words[i], terms));
      }
      if (last < line.to) shown.push({ text: "…", hit: false });
      return {
        href: data.url.split("#")[0] + (line.id ? "#" + encodeURIComponent(line.id) : ""),
        words: shown,
        kind: line.kind,
        hits: line.hits.length,
      };
    });
  };

  // A matched word as parts: in text without spaces (Chinese, Japanese) a "word" is a whole phrase, so only the
  // query's own characters in it are marked; elsewhere the whole word ("tiles" for "tile").
  function markTerm(word, terms) {
    var lower = word.toLowerCase();
    for (var t = 0; t < terms.length; t++) {
      var at = lower.indexOf(terms[t]);
      if (at >= 0 && word.length > terms[t].length && /[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(word)) {
        var parts = [];
        if (at > 0) parts.push({ text: word.slice(0, at), hit: false });
        parts.push({ text: word.slice(at, at + terms[t].length), hit: true, joined: at > 0 });
        if (at + terms[t].length < word.length) parts.push({ text: word.slice(at + terms[t].length), hit: false, joined: true });
        return parts;
      }
    }
    // Punctuation around the word is not marked: "(kitchen)." shows (<mark>kitchen</mark>).
    var m = /^([("'\u201c\u2018[]*)(.+?)([.,;:!?)"'\u201d\u2019\]]*)$/.exec(word);
    if (!m || (!m[1] && !m[3])) return [{ text: word, hit: true }];
    var parts = [];
    if (m[1]) parts.push({ text: m[1], hit: false });
    parts.push({ text: m[2], hit: true, joined: !!m[1] });
    if (m[3]) parts.push({ text: m[3], hit: false, joined: true });
    return parts;
  }

  // Do the matched word positions hold words of the query? (Each query word's first letters, case folded.)
  function aligned(words, locations, query) {
    var terms = (query || "").toLowerCase().split(/\s+/).filter(Boolean).map(function (t) { return t.slice(0, 3); });
    if (!terms.length) return false;
    return locations.some(function (at) {
      var word = (words[at] || "").toLowerCase();
      return terms.some(function (t) { return word.indexOf(t) >= 0; });
    });
  }

  // Pagefind's own excerpts, one per sub-result (a section under a heading), as lines, each linking to the line
  // of its first match when the page has line anchors (``starts``). Word positions count the words Pagefind made:
  // in Chinese or Japanese those are not the content's spaced words, but the anchors are counted the same way.
  function excerptLines(data, max, starts) {
    var subs = data.sub_results && data.sub_results.length ? data.sub_results : [{ url: data.url, excerpt: data.excerpt, locations: data.locations }];
    return subs.slice(0, max).map(function (sub) {
      var at = (sub.locations || [])[0];
      var index = starts && at !== undefined ? lastAtOrBefore(starts, at) : -1;
      var href = index >= 0 ? data.url.split("#")[0] + "#" + encodeURIComponent(starts[index].id) : sub.url;
      return { href: href, words: markedWords(sub.excerpt || ""), kind: "", hits: (sub.locations || []).length };
    });
  }

  // Decode entities without ever parsing markup: a textarea's content is plain text.
  var decoder = document.createElement("textarea");
  function decode(text) {
    decoder.innerHTML = text;
    return decoder.value;
  }

  // Pagefind marks matches with <mark>; everything else is text, never HTML.
  function markedWords(html) {
    var out = [];
    var inMark = false;
    html.split(/(<\/?mark>)/).forEach(function (part) {
      if (part === "<mark>") { inMark = true; return; }
      if (part === "</mark>") { inMark = false; return; }
      var text = decode(part);
      if (text) out.push({ text: text, hit: inMark, raw: true });
    });
    return out;
  }

  // A line's words as DOM: matched words in <mark>, the rest as text.
  // Parts of one word (``joined``) follow without a space; Pagefind's excerpts (``raw``) carry their own spaces.
  memwiki.lineFragment = function (line) {
    var out = document.createDocumentFragment();
    line.words.forEach(function (word, i) {
      if (i && !word.raw && !word.joined) out.appendChild(document.createTextNode(" "));
      if (!word.hit) { out.appendChild(document.createTextNode(word.text)); return; }
      var mark = document.createElement("mark");
      mark.textContent = word.text;
      out.appendChild(mark);
    });
    return out;
  };

  // The kind badge of a fact line (W, B, O, S), as on the pages themselves; null for other lines.
  memwiki.kindBadge = function (kind) {
    if (!kind) return null;
    var badge = document.createElement("abbr");
    badge.className = "kind k-" + kind;
    badge.title = memwiki.KIND_NAMES[kind] + " fact";
    badge.textContent = kind;
    return badge;
  };
})();
