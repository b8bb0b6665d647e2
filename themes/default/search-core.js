// memwiki search core, shared by the header's live search and search.html: the one place Pagefind is loaded,
// and how a Pagefind result becomes the lines that matched (a fact, a log line), each with its anchor.
(function () {
  "use strict";
  var memwiki = (window.memwiki = window.memwiki || {});
  var opening = null;

  // Pagefind from the site's own pagefind/ folder, initialised once per page; every search on the page goes
  // through here, so its options (and any further index merged in) are set in this one function.
  memwiki.openPagefind = function (base) {
    if (opening) return opening;
    var root = new URL(base || "./", location.href);
    opening = import(new URL("pagefind/pagefind.js", root).href).then(function (pagefind) {
      // Result URLs are site-relative; the base makes them work under any sub-path.
      return pagefind.options({ baseUrl: root.pathname, excerptLength: 24 }).then(function () {
        return pagefind.init();
      }).then(function () {
        return pagefind;
      });
    });
    opening.catch(function () { opening = null; });  // a failed load is tried again by the next search
    return opening;
  };

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
    if (!starts.length || !locations.length || !aligned(words, locations, query)) return excerptLines(data, max);
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

  // Pagefind's own excerpts, one per sub-result (a section under a heading), as lines.
  function excerptLines(data, max) {
    var subs = data.sub_results && data.sub_results.length ? data.sub_results : [{ url: data.url, excerpt: data.excerpt }];
    return subs.slice(0, max).map(function (sub) {
      return { href: sub.url, words: markedWords(sub.excerpt || ""), kind: "", hits: (sub.locations || []).length };
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
