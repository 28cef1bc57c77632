/* flame-svg.js - the script of the svg export (formats/export_svg.c
 * inlines it): flamegraph.pl's interactions, written for profcore.
 * Click a frame to zoom to it (its callees fill the width, its callers
 * stay below, dimmed); "Reset Zoom" or a click on the bottom frame goes
 * back.  "Search" asks for a regular expression, colours the matching
 * frames and says which share of the samples they cover (a match inside
 * a match counted once).  Names are read from the title elements' text
 * and written with textContent only. */
(function () {
  'use strict';
  var svg = document.documentElement, NS = 'http://www.w3.org/2000/svg';
  var W = +svg.getAttribute('width'), PAD = 10, FRAME = 16, CHAR = 12 * 0.59;
  var BASE = +svg.getAttribute('data-base');
  var nodes = [];
  var gs = document.querySelectorAll('g.f');
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], r = g.querySelector('rect'), t = g.querySelector('title').textContent;
    var m = /^([\s\S]*) \(([0-9.]+) /.exec(t);
    var y = +r.getAttribute('y');
    nodes.push({g: g, r: r, t: g.querySelector('text'), name: m ? m[1] : t, v: m ? +m[2] : 0,
      x: +r.getAttribute('x'), w: +r.getAttribute('width'), y: y, d: Math.round((BASE - y) / FRAME) - 1,
      fill: r.getAttribute('fill')});
  }
  /* depth-first order: a node's descendants follow it, deeper */
  function end(k) {
    var j = k + 1;
    while (j < nodes.length && nodes[j].d > nodes[k].d) j++;
    return j;
  }
  function ancestors(k) {
    var out = {}, d = nodes[k].d;
    for (var j = k - 1; j >= 0 && d > 0; j--) if (nodes[j].d === d - 1) { out[j] = true; d--; }
    return out;
  }
  function label(n, x, w) {
    var fit = w > 6 ? Math.floor((w - 6) / CHAR) : 0, s = n.name;
    if (fit < 3) s = '';
    else if (s.length > fit) s = s.slice(0, fit - 2) + '..';
    if (!n.t) {
      if (!s) return;
      n.t = document.createElementNS(NS, 'text');
      n.t.setAttribute('y', (n.y + FRAME - 4.5).toFixed(1));
      n.g.appendChild(n.t);
    }
    n.t.setAttribute('x', (x + 3).toFixed(1));
    n.t.textContent = s;
  }
  var reset = document.getElementById('reset'), search = document.getElementById('search');
  var matched = document.getElementById('matched');
  function zoom(k) {
    var lo = 0, hi = nodes.length, up = {}, x0 = PAD, f = 1;
    if (k !== null) {
      lo = k; hi = end(k); up = ancestors(k);
      x0 = nodes[k].x; f = nodes[k].w > 0 ? (W - 2 * PAD) / nodes[k].w : 1;
    }
    for (var j = 0; j < nodes.length; j++) {
      var n = nodes[j], show = k === null || up[j] || (j >= lo && j < hi), x = n.x, w = n.w;
      n.g.style.display = show ? '' : 'none';
      if (!show) continue;
      if (k !== null && up[j]) { x = PAD; w = W - 2 * PAD; }
      else if (k !== null) { x = PAD + (n.x - x0) * f; w = n.w * f; }
      n.r.setAttribute('x', x.toFixed(1));
      n.r.setAttribute('width', w.toFixed(1));
      n.g.style.opacity = k !== null && up[j] ? '0.6' : '';
      label(n, x, w);
    }
    reset.style.opacity = k === null ? '0' : '1';
  }
  function find(re) {
    var sum = 0, total = 0, inside = -1;
    for (var j = 0; j < nodes.length; j++) {
      var n = nodes[j], hit = re && re.test(n.name);
      if (n.d === 0) total += n.v;
      n.r.setAttribute('fill', hit ? 'rgb(230,0,230)' : n.fill);
      if (inside >= 0 && j >= inside) inside = -1;
      if (hit && inside < 0) { sum += n.v; inside = end(j); }
    }
    matched.textContent = re ? 'Matched: ' + (total > 0 ? (100 * sum / total).toFixed(2) : '0.00') + '%' : '';
    search.textContent = re ? 'Clear' : 'Search';
  }
  nodes.forEach(function (n, k) {
    n.g.addEventListener('click', function () { zoom(n.d === 0 && reset.style.opacity === '1' ? null : k); });
  });
  reset.addEventListener('click', function () { zoom(null); });
  search.addEventListener('click', function () {
    if (search.textContent === 'Clear') { find(null); return; }
    var s = window.prompt('Search frames (regular expression)', '');
    if (!s) return;
    try { find(new RegExp(s)); } catch (e) { matched.textContent = 'not a regular expression: ' + e.message; }
  });
  /* for tests: the same without a prompt */
  svg.pcSearch = function (s) { find(s ? new RegExp(s) : null); };
  svg.pcZoom = function (k) { zoom(k); };
})();
