// memwiki graph: draws every <figure data-graph> from the JSON in its <script class="graph-data"> on a canvas.
// Nodes are entities (radius by mentions) and, on demand, days; edges are co-mentions. The layout is a small
// force simulation (Barnes–Hut repulsion, springs, gravity) that starts from a deterministic spiral, so the same
// data gives the same picture. Drag pans (or moves a node), wheel or pinch zooms, a click opens the node's page.
(function () {
  "use strict";
  var GOLDEN = Math.PI * (3 - Math.sqrt(5));
  var ALPHA_MIN = 0.002, ALPHA_DECAY = 1 - Math.pow(ALPHA_MIN, 1 / 300), VELOCITY_KEEP = 0.6;
  var THETA2 = 0.81, CHARGE = -30, LINK_DISTANCE = 40, GRAVITY = 0.06;
  var FIRST_DRAW_BUDGET = 50, FRAME_BUDGET = 7; // ms of layout before the first draw, and per frame after it

  // -- layout ------------------------------------------------------------------------------------------------
  function Layout(nodes, links) {
    this.nodes = nodes;
    this.links = links;
    this.alpha = 1;
    var degree = new Array(nodes.length).fill(0);
    links.forEach(function (l) { degree[l.s]++; degree[l.t]++; });
    links.forEach(function (l) {
      l.strength = 1 / Math.min(degree[l.s], degree[l.t]);
      l.bias = degree[l.s] / (degree[l.s] + degree[l.t]);
      l.distance = LINK_DISTANCE + nodes[l.s].r + nodes[l.t].r; // room for both circles and a label
    });
  }
  Layout.prototype.tick = function () {
    var nodes = this.nodes, alpha = this.alpha, i, n, l, s, t, dx, dy, d;
    for (i = 0; i < this.links.length; i++) {
      l = this.links[i]; s = nodes[l.s]; t = nodes[l.t];
      dx = t.x + t.vx - s.x - s.vx || 1e-6; dy = t.y + t.vy - s.y - s.vy || 1e-6;
      d = Math.sqrt(dx * dx + dy * dy);
      d = (d - l.distance) / d * alpha * l.strength;
      dx *= d; dy *= d;
      t.vx -= dx * l.bias; t.vy -= dy * l.bias;
      s.vx += dx * (1 - l.bias); s.vy += dy * (1 - l.bias);
    }
    var tree = quadtree(nodes);
    for (i = 0; i < nodes.length; i++) {
      n = nodes[i];
      repel(tree, n, alpha);
      n.vx -= n.x * GRAVITY * alpha; n.vy -= n.y * GRAVITY * alpha;
    }
    for (i = 0; i < nodes.length; i++) {
      n = nodes[i];
      if (n.fixed) { n.vx = n.vy = 0; continue; }
      n.vx *= VELOCITY_KEEP; n.vy *= VELOCITY_KEEP;
      n.x += n.vx; n.y += n.vy;
    }
    this.alpha += (0 - this.alpha) * ALPHA_DECAY;
  };
  Layout.prototype.settled = function () { return this.alpha < ALPHA_MIN; };

  // A quadtree cell: {x0, y0, size, mass, cx, cy, node (a leaf's), kids (four cells or null)}.
  function quadtree(nodes) {
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, i, n;
    for (i = 0; i < nodes.length; i++) {
      n = nodes[i];
      if (n.x < x0) x0 = n.x; if (n.x > x1) x1 = n.x; if (n.y < y0) y0 = n.y; if (n.y > y1) y1 = n.y;
    }
    var root = cell(x0, y0, Math.max(x1 - x0, y1 - y0) + 1);
    for (i = 0; i < nodes.length; i++) insert(root, nodes[i], 0);
    return root;
  }
  function cell(x0, y0, size) { return {x0: x0, y0: y0, size: size, mass: 0, count: 0, cx: 0, cy: 0, node: null, kids: null}; }
  function insert(c, n, depth) {
    var m = c.mass + n.q; // a bigger node pushes harder, so labels of big nodes get room
    c.cx = (c.cx * c.mass + n.x * n.q) / m; c.cy = (c.cy * c.mass + n.y * n.q) / m; c.mass = m; c.count++;
    if (c.count === 1) { c.node = n; return; }
    if (depth > 40) return; // coincident nodes: counted in the mass, not split further
    if (!c.kids) {
      var h = c.size / 2;
      c.kids = [cell(c.x0, c.y0, h), cell(c.x0 + h, c.y0, h), cell(c.x0, c.y0 + h, h), cell(c.x0 + h, c.y0 + h, h)];
      var old = c.node; c.node = null;
      if (old) insert(c.kids[quadrant(c, old)], old, depth + 1);
    }
    insert(c.kids[quadrant(c, n)], n, depth + 1);
  }
  function quadrant(c, n) {
    var h = c.size / 2;
    return (n.x >= c.x0 + h ? 1 : 0) + (n.y >= c.y0 + h ? 2 : 0);
  }
  function repel(c, n, alpha) {
    if (!c.mass || c.node === n && !c.kids) return;
    var dx = c.cx - n.x, dy = c.cy - n.y, d2 = dx * dx + dy * dy;
    if (!c.kids || c.size * c.size < THETA2 * d2) {
      if (c.node === n) return;
      if (d2 < 1) { dx = (n.index % 7 - 3) * 0.1 || 0.1; dy = 0.1; d2 = 1; }
      var w = CHARGE * c.mass * alpha / d2;
      n.vx += dx * w; n.vy += dy * w;
      return;
    }
    for (var i = 0; i < 4; i++) repel(c.kids[i], n, alpha);
  }

  // -- one graph on the page ---------------------------------------------------------------------------------
  function Graph(figure, data) {
    var self = this;
    this.figure = figure;
    this.canvas = figure.querySelector(".graph-canvas");
    this.ctx = this.canvas.getContext("2d");
    this.full = figure.classList.contains("graph-full");
    this.status = figure.querySelector(".graph-status");
    this.all = data.nodes.map(function (d, i) {
      return {index: i, name: d.name, href: d.href, group: d.group, mentions: d.mentions, about: !!d.about,
        r: 3 + Math.min(18, 2.2 * Math.sqrt(d.mentions)), x: 0, y: 0, vx: 0, vy: 0, links: []};
    });
    this.all.forEach(function (n) { n.q = 1 + n.r / 5; });
    this.edges = data.edges;
    this.focus = data.focus >= 0 ? this.all[data.focus] : null;
    this.view = {x: 0, y: 0, k: 1};
    this.touched = false; // the reader moved or zoomed: stop fitting the view to the layout
    this.hover = null;
    this.drawn = false;
    this.colours = {};
    this.readColours();
    this.place(this.all);
    this.activate(false);
    this.bind();
    new ResizeObserver(function () { self.resize(); }).observe(this.canvas);
    this.resize();
    var start = performance.now();
    while (!this.layout.settled() && performance.now() - start < FIRST_DRAW_BUDGET) this.layout.tick();
    this.fit();
    this.draw();
    performance.mark("memwiki-graph-first-draw");
    var asked = this.full && new URLSearchParams(location.search).get("q"); // graph.html?q=Name opens on that node
    if (asked) {
      figure.querySelector(".graph-find input").value = asked;
      this.find(asked);
    }
    this.animate();
  }

  // Nodes start on a spiral, most mentioned in the middle; a day starts beside the entities it mentions.
  Graph.prototype.place = function (nodes) {
    var order = nodes.filter(function (n) { return n.group !== "day"; });
    order.sort(function (a, b) { return b.mentions - a.mentions || a.index - b.index; });
    order.forEach(function (n, i) {
      var r = 12 * Math.sqrt(0.5 + i), a = i * GOLDEN;
      n.x = r * Math.cos(a); n.y = r * Math.sin(a);
    });
    var all = this.all;
    this.edges.forEach(function (e) {
      var a = all[e[0]], b = all[e[1]];
      a.links.push(b); b.links.push(a);
    });
    nodes.forEach(function (n) {
      if (n.group !== "day") return;
      var x = 0, y = 0, k = 0;
      n.links.forEach(function (m) { if (m.group !== "day") { x += m.x; y += m.y; k++; } });
      var a = n.index * GOLDEN;
      n.x = (k ? x / k : 0) + 20 * Math.cos(a); n.y = (k ? y / k : 0) + 20 * Math.sin(a);
    });
  };

  // The nodes and edges in play: entities, plus days when asked for.
  Graph.prototype.activate = function (days) {
    this.days = days;
    var nodes = this.all.filter(function (n) { return days || n.group !== "day"; });
    var at = new Map(nodes.map(function (n, i) { return [n, i]; }));
    var all = this.all, links = [];
    this.edges.forEach(function (e) {
      var s = at.get(all[e[0]]), t = at.get(all[e[1]]);
      if (s !== undefined && t !== undefined) links.push({s: s, t: t, w: e[2]});
    });
    this.nodes = nodes;
    this.links = links;
    this.layout = new Layout(nodes, links);
    if (this.activated) this.say(nodes.length + " nodes, " + links.length + " links" + (days ? " with the days" : ""));
    this.activated = true;
  };

  Graph.prototype.readColours = function () {
    var style = getComputedStyle(this.figure);
    var pick = function (name) { return style.getPropertyValue(name).trim() || "#888"; };
    var palette = [1, 2, 3, 4, 5, 6, 7, 8].map(function (i) { return pick("--graph-" + i); });
    this.colours = {missing: pick("--missing"), day: pick("--graph-day"), "g:entity": pick("--graph-plain"),
      edge: pick("--graph-edge"), text: pick("--fg"), halo: pick("--card"), ring: pick("--fg")};
    var counts = {};
    this.all.forEach(function (n) { if (n.group !== "missing" && n.group !== "day" && n.group !== "entity") counts[n.group] = (counts[n.group] || 0) + 1; });
    var groups = Object.keys(counts).sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); });
    var colours = this.colours;
    groups.forEach(function (g, i) { colours["g:" + g] = palette[i % palette.length]; });
    this.legend(groups);
  };

  Graph.prototype.colour = function (n) {
    return n.group === "missing" ? this.colours.missing : n.group === "day" ? this.colours.day : this.colours["g:" + n.group];
  };

  Graph.prototype.legend = function (groups) {
    var box = this.figure.querySelector(".graph-legend");
    if (!box) return;
    var colours = this.colours, has = {};
    this.all.forEach(function (n) { has[n.group] = true; });
    var items = groups.map(function (g) { return [g, colours["g:" + g]]; });
    if (has.entity) items.push(["no type", colours["g:entity"]]);
    if (has.missing) items.push(["no page yet", colours.missing]);
    if (has.day) items.push(["day", colours.day]);
    box.textContent = "";
    var SVG = "http://www.w3.org/2000/svg";
    items.forEach(function (item) {
      var span = document.createElement("span");
      var dot = document.createElementNS(SVG, "svg"), circle = document.createElementNS(SVG, "circle");
      dot.setAttribute("viewBox", "0 0 10 10"); dot.setAttribute("aria-hidden", "true");
      circle.setAttribute("cx", "5"); circle.setAttribute("cy", "5"); circle.setAttribute("r", "5");
      circle.setAttribute("fill", item[1]); // an attribute, not a style: nothing for the CSP to weigh
      dot.appendChild(circle);
      span.appendChild(dot);
      span.appendChild(document.createTextNode(item[0]));
      box.appendChild(span);
    });
  };

  Graph.prototype.resize = function () {
    var dpr = window.devicePixelRatio || 1, w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    if (!w || !h) return;
    this.width = w; this.height = h;
    this.canvas.width = Math.round(w * dpr); this.canvas.height = Math.round(h * dpr);
    this.dpr = dpr;
    if (!this.touched) this.fit();
    this.request();
  };

  // Zoom and centre so every node in play shows.
  Graph.prototype.fit = function () {
    if (!this.width || !this.nodes.length) return;
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    this.nodes.forEach(function (n) {
      x0 = Math.min(x0, n.x - n.r); x1 = Math.max(x1, n.x + n.r); y0 = Math.min(y0, n.y - n.r); y1 = Math.max(y1, n.y + n.r);
    });
    var pad = 24, k = Math.min((this.width - 2 * pad) / (x1 - x0 || 1), (this.height - 2 * pad) / (y1 - y0 || 1));
    k = Math.max(0.05, Math.min(k, this.full ? 3 : 2));
    this.view = {k: k, x: this.width / 2 - k * (x0 + x1) / 2, y: this.height / 2 - k * (y0 + y1) / 2};
  };

  Graph.prototype.request = function () {
    var self = this;
    if (this.pending) return;
    this.pending = requestAnimationFrame(function () { self.pending = 0; self.draw(); });
  };

  // Layout runs a few ticks per frame until it settles; then frames are drawn only when something changes.
  Graph.prototype.animate = function () {
    var self = this;
    if (this.running) return;
    this.running = true;
    this.canvas.removeAttribute("data-settled");
    function frame() {
      var start = performance.now();
      do { self.layout.tick(); } while (!self.layout.settled() && performance.now() - start < FRAME_BUDGET);
      if (self.follow) self.centre(self.follow, self.view.k); else if (!self.touched) self.fit();
      self.draw();
      if (self.layout.settled()) { self.running = false; self.canvas.setAttribute("data-settled", ""); return; }
      requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
  };

  Graph.prototype.reheat = function (alpha) {
    this.layout.alpha = Math.max(this.layout.alpha, alpha);
    this.animate();
  };

  Graph.prototype.draw = function () {
    var ctx = this.ctx, v = this.view, c = this.colours, nodes = this.nodes, i, n, l;
    if (!this.width) return;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    ctx.setTransform(this.dpr * v.k, 0, 0, this.dpr * v.k, this.dpr * v.x, this.dpr * v.y);
    var lit = this.hover || this.focus, near = new Set(lit ? lit.links : []);
    // Edges: one path; those of the hovered (or focused) node again, stronger.
    ctx.beginPath();
    for (i = 0; i < this.links.length; i++) {
      l = this.links[i];
      ctx.moveTo(nodes[l.s].x, nodes[l.s].y); ctx.lineTo(nodes[l.t].x, nodes[l.t].y);
    }
    ctx.globalAlpha = lit ? 0.4 : 1; // the lit node's neighbourhood stands out; the rest fades
    ctx.strokeStyle = c.edge; ctx.lineWidth = 1 / v.k; ctx.stroke();
    ctx.globalAlpha = 1;
    if (lit) {
      ctx.beginPath();
      lit.links.forEach(function (m) { if (m.group !== "day" || this.days) { ctx.moveTo(lit.x, lit.y); ctx.lineTo(m.x, m.y); } }, this);
      ctx.strokeStyle = this.colour(lit); ctx.lineWidth = 2 / v.k; ctx.stroke();
    }
    // Nodes: one path per colour, only those on screen.
    var x0 = -v.x / v.k, y0 = -v.y / v.k, x1 = x0 + this.width / v.k, y1 = y0 + this.height / v.k;
    var byColour = {}, shown = 0;
    for (i = 0; i < nodes.length; i++) {
      n = nodes[i];
      if (n.x + n.r < x0 || n.x - n.r > x1 || n.y + n.r < y0 || n.y - n.r > y1) continue;
      var key = (lit && n !== lit && !near.has(n) ? "~" : "") + this.colour(n);
      (byColour[key] = byColour[key] || []).push(n);
      shown++;
    }
    Object.keys(byColour).forEach(function (key) {
      ctx.beginPath();
      byColour[key].forEach(function (m) { ctx.moveTo(m.x + m.r, m.y); ctx.arc(m.x, m.y, m.r, 0, 2 * Math.PI); });
      ctx.globalAlpha = key.charAt(0) === "~" ? 0.3 : 1;
      ctx.fillStyle = key.replace("~", ""); ctx.fill();
    });
    ctx.globalAlpha = 1;
    if (lit) {
      ctx.beginPath(); ctx.arc(lit.x, lit.y, lit.r + 3 / v.k, 0, 2 * Math.PI);
      ctx.strokeStyle = c.ring; ctx.lineWidth = 2 / v.k; ctx.stroke();
    }
    this.labels(x0, y0, x1, y1, lit, near);
    this.canvas.setAttribute("data-drawn", String(shown));
    this.canvas.setAttribute("data-nodes", String(nodes.length));
    this.drawn = true;
  };

  // Labels in screen pixels: the lit node and its neighbours always, others big enough on screen, no overlaps.
  Graph.prototype.labels = function (x0, y0, x1, y1, lit, neighbours) {
    var ctx = this.ctx, v = this.view, self = this, placed = [], wanted = [];
    var small = this.nodes.length <= 40;
    this.nodes.forEach(function (n) {
      if (n.x < x0 || n.x > x1 || n.y < y0 || n.y > y1) return;
      var near = lit && (n === lit || neighbours.has(n));
      if (near || small || n.r * v.k >= 7) wanted.push({n: n, rank: n === lit ? 2 : near ? 1 : 0});
    });
    wanted.sort(function (a, b) { return b.rank - a.rank || b.n.mentions - a.n.mentions; });
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.font = "13px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    wanted.slice(0, 400).forEach(function (item) {
      var n = item.n, text = n === lit && self.hover === n ? n.name + " · " + (n.about ? "~" : "") + n.mentions + (n.group === "day" ? " links" : n.mentions === 1 ? " mention" : " mentions") : n.name;
      // Right of the node, else left, below or above: the first place no label is in yet.
      var w = ctx.measureText(text).width, cx = n.x * v.k + v.x, cy = n.y * v.k + v.y, r = n.r * v.k;
      var mid = Math.max(2, Math.min(cx - w / 2, self.width - w - 2));
      var spots = [[cx + r + 4, cy], [cx - r - 4 - w, cy], [mid, cy + r + 11], [mid, cy - r - 11]];
      var box = null;
      for (var i = 0; i < spots.length && !box; i++) {
        var b = [spots[i][0] - 2, spots[i][1] - 9, spots[i][0] + w + 2, spots[i][1] + 9];
        var inside = b[0] >= 0 && b[2] <= self.width && b[1] >= 0 && b[3] <= self.height;
        if (inside && !placed.some(function (p) { return b[0] < p[2] && b[2] > p[0] && b[1] < p[3] && b[3] > p[1]; })) box = b;
      }
      if (!box) {
        if (item.rank < 2) return;
        box = [spots[0][0] - 2, spots[0][1] - 9, spots[0][0] + w + 2, spots[0][1] + 9];
      }
      var sx = box[0] + 2, sy = box[1] + 9;
      placed.push(box);
      ctx.lineWidth = 3; ctx.strokeStyle = self.colours.halo; ctx.strokeText(text, sx, sy);
      ctx.fillStyle = self.colours.text; ctx.fillText(text, sx, sy);
    });
  };

  // -- reading the pointer, wheel, keys and the tools --------------------------------------------------------
  Graph.prototype.at = function (px, py) {
    var v = this.view, x = (px - v.x) / v.k, y = (py - v.y) / v.k, best = null, bestD = Infinity;
    for (var i = 0; i < this.nodes.length; i++) {
      var n = this.nodes[i], dx = n.x - x, dy = n.y - y, d = dx * dx + dy * dy, reach = n.r + 4 / v.k;
      if (d < reach * reach && d < bestD) { best = n; bestD = d; }
    }
    return best;
  };

  Graph.prototype.zoom = function (factor, px, py) {
    var v = this.view, k = Math.max(0.02, Math.min(12, v.k * factor));
    if (px === undefined) { px = this.width / 2; py = this.height / 2; }
    v.x = px - (px - v.x) * k / v.k; v.y = py - (py - v.y) * k / v.k; v.k = k;
    this.touched = true;
    this.follow = null;
    this.request();
  };

  Graph.prototype.pan = function (dx, dy) {
    this.view.x += dx; this.view.y += dy;
    this.touched = true;
    this.follow = null;
    this.request();
  };

  Graph.prototype.bind = function () {
    var self = this, canvas = this.canvas, pointers = new Map(), drag = null;
    function local(e) { var box = canvas.getBoundingClientRect(); return [e.clientX - box.left, e.clientY - box.top]; }
    canvas.addEventListener("pointerdown", function (e) {
      var p = local(e);
      pointers.set(e.pointerId, p);
      canvas.setPointerCapture(e.pointerId);
      if (pointers.size === 1) drag = {x: p[0], y: p[1], node: self.at(p[0], p[1]), moved: 0};
      else drag = null;
    });
    canvas.addEventListener("pointermove", function (e) {
      var p = local(e);
      if (!pointers.has(e.pointerId)) {
        var over = self.at(p[0], p[1]);
        if (over !== self.hover) { self.hover = over; canvas.classList.toggle("over-node", !!over); self.request(); }
        return;
      }
      var last = pointers.get(e.pointerId);
      if (pointers.size === 2) { // pinch: zoom by the change of distance, about the midpoint
        var other = Array.from(pointers.entries()).find(function (kv) { return kv[0] !== e.pointerId; })[1];
        var before = Math.hypot(last[0] - other[0], last[1] - other[1]), after = Math.hypot(p[0] - other[0], p[1] - other[1]);
        pointers.set(e.pointerId, p);
        if (before > 0) self.zoom(after / before, (p[0] + other[0]) / 2, (p[1] + other[1]) / 2);
        return;
      }
      pointers.set(e.pointerId, p);
      if (!drag) return;
      drag.moved += Math.abs(p[0] - last[0]) + Math.abs(p[1] - last[1]);
      if (drag.node && drag.moved > 3) {
        drag.node.fixed = true;
        drag.node.x = (p[0] - self.view.x) / self.view.k; drag.node.y = (p[1] - self.view.y) / self.view.k;
        self.touched = true;
        self.reheat(0.1);
      } else if (!drag.node) {
        self.pan(p[0] - last[0], p[1] - last[1]);
      }
    });
    function release(e) {
      if (!pointers.has(e.pointerId)) return;
      pointers.delete(e.pointerId);
      if (drag && drag.node) {
        drag.node.fixed = false;
        if (drag.moved <= 3 && e.type === "pointerup") location.href = new URL(drag.node.href, document.baseURI).href;
      }
      drag = null;
    }
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener("pointerleave", function () { if (self.hover) { self.hover = null; self.request(); } });
    canvas.addEventListener("wheel", function (e) {
      if (!self.full && !e.ctrlKey) return; // a small graph in a page lets the page scroll
      e.preventDefault();
      var p = local(e);
      self.zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.002)), p[0], p[1]);
    }, {passive: false});
    canvas.addEventListener("keydown", function (e) {
      var step = 60, keys = {ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step]};
      if (keys[e.key]) self.pan(keys[e.key][0], keys[e.key][1]);
      else if (e.key === "+" || e.key === "=") self.zoom(1.25);
      else if (e.key === "-" || e.key === "_") self.zoom(0.8);
      else if (e.key === "0") { self.touched = false; self.follow = null; self.fit(); self.request(); }
      else if (e.key === "Enter" && (self.hover || self.focus)) location.href = new URL((self.hover || self.focus).href, document.baseURI).href;
      else return;
      e.preventDefault();
    });
    this.figure.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.getAttribute("data-zoom");
        if (how === "fit") { self.touched = false; self.follow = null; self.fit(); self.request(); } else self.zoom(how === "in" ? 1.4 : 1 / 1.4);
      });
    });
    var days = this.figure.querySelector("input[name=days]");
    if (days) {
      days.checked = false;
      if (!this.all.some(function (n) { return n.group === "day"; })) days.disabled = true;
      days.addEventListener("change", function () {
        self.activate(days.checked);
        self.touched = false;
        self.follow = null;
        self.hover = null;
        self.animate();
      });
    }
    var find = this.figure.querySelector(".graph-find");
    if (find) {
      var list = this.figure.querySelector("datalist"), all = this.all;
      find.querySelector("input").addEventListener("focus", function () { // the names, once someone types here
        if (list.children.length) return;
        var seen = {};
        all.forEach(function (n) {
          if (n.group === "day" || seen[n.name]) return;
          seen[n.name] = true;
          var option = document.createElement("option");
          option.value = n.name;
          list.appendChild(option);
        });
      });
      find.addEventListener("submit", function (e) {
        e.preventDefault();
        self.find(find.querySelector("input").value);
      });

    }
  };

  // Search to focus: the node named (exactly, else by its start, else anywhere in its name) is centred and lit.
  Graph.prototype.find = function (query) {
    var q = query.trim().toLowerCase();
    if (!q) return;
    var pool = this.all, hit = null;
    [function (n) { return n.name.toLowerCase() === q; }, function (n) { return n.name.toLowerCase().indexOf(q) === 0; },
      function (n) { return n.name.toLowerCase().indexOf(q) >= 0; }].some(function (test) {
      hit = pool.find(test) || null;
      return hit;
    });
    if (!hit) { this.say("Nothing named “" + query.trim() + "” in the graph."); return; }
    if (hit.group === "day" && !this.days) {
      var days = this.figure.querySelector("input[name=days]");
      if (days) days.checked = true;
      this.activate(true);
    }
    this.focus = hit;
    this.follow = hit; // kept in the middle while the layout still moves, until the reader pans or zooms
    this.centre(hit, Math.max(this.view.k, 1.2));
    this.touched = true;
    this.request();
    this.animate();
    var link = document.createElement("a");
    link.href = hit.href;
    link.textContent = "Open " + hit.name;
    this.say(hit.name + ": " + hit.links.length + " linked · ");
    if (this.status) this.status.appendChild(link);
  };

  Graph.prototype.centre = function (n, k) {
    this.view = {k: k, x: this.width / 2 - k * n.x, y: this.height / 2 - k * n.y};
  };

  Graph.prototype.say = function (text) { if (this.status) this.status.textContent = text; };

  function start() {
    document.querySelectorAll("figure[data-graph]").forEach(function (figure) {
      if (figure.graph) return;
      var data;
      try { data = JSON.parse(figure.querySelector(".graph-data").textContent); } catch (e) { return; }
      figure.graph = new Graph(figure, data);
      var redraw = function () { figure.graph.readColours(); figure.graph.request(); };
      new MutationObserver(redraw).observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});
      if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redraw);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
