/* report.js - profcore's HTML report (formats/html.c inlines it after the
 * data element #pc-data and before #pc-data-rest).  Plain JavaScript, no framework, no network.
 *
 * Every name from the profile reaches the page through textContent (never
 * innerHTML), so a symbol named like a script element is shown as text.
 * Large profiles: the tables render only the rows in view (VTable), the
 * flame view is a canvas that draws only what is wider than a pixel.
 * The data comes in two elements: #pc-data holds what the first view
 * shows (the header, the top rows of the flat table), #pc-data-rest the
 * other rows and views (JSON, gzip'ed and base64'ed), placed after this script (the browser still
 * parses it while this draws the first view) and read once the first
 * view is on the screen and the document is parsed.
 * When the page is complete it sets data-pc-ready on <html> ("ok", or
 * "error" with the messages in #pc-errors); tests wait for that. */
(function () {
  'use strict';
  var errors = [];
  function noteError(msg) {
    errors.push(String(msg));
    var box = document.getElementById('pc-errors');
    if (box) box.textContent = errors.join('\n');
  }
  window.addEventListener('error', function (e) { noteError(e.message || e); });

  /* ---- DOM helpers: text only --------------------------------------- */
  function el(tag, props, kids) {
    var e = document.createElement(tag);
    if (props) for (var k in props) {
      if (!Object.prototype.hasOwnProperty.call(props, k)) continue;
      var v = props[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k === 'cls') e.className = v;
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    if (kids) for (var i = 0; i < kids.length; i++)
      if (kids[i] !== null && kids[i] !== undefined)
        e.appendChild(typeof kids[i] === 'string' ? document.createTextNode(kids[i]) : kids[i]);
    return e;
  }
  function fixed(v, n) { return typeof v === 'number' && isFinite(v) ? v.toFixed(n) : ''; }
  function count(v) {
    if (typeof v !== 'number') return '';
    return Number.isInteger(v) ? String(v) : v.toFixed(2);
  }
  function hex(v) { return typeof v === 'number' ? '0x' + v.toString(16) : ''; }
  function sourcesText(src) {
    return (src || []).map(function (s) { return s.file + ' (' + s.format + ')'; }).join(', ');
  }

  /* A text filter: substring (case-insensitive) or regular expression.
   * Returns null for "no filter"; throws on a bad regular expression. */
  function makeFilter(text, regex) {
    if (!text) return null;
    if (regex) {
      var re = new RegExp(text);
      return function (s) { return re.test(s); };
    }
    var t = text.toLowerCase();
    return function (s) { return s.toLowerCase().indexOf(t) >= 0; };
  }

  /* ---- a sortable table that renders only the rows in view ----------- */
  var ROW_H = 22;
  function VTable(columns, rows, opt) {
    opt = opt || {};
    var self = this;
    this.columns = columns;
    this.all = rows;
    this.keep = null;       /* row predicate (filter, zero toggle) */
    this.sortCol = null;
    this.sortDir = 1;
    this.onclick = opt.onclick;
    this.selected = null;
    this.headRow = el('tr');
    columns.forEach(function (c, i) {
      var th = el('th', {cls: c.num ? 'num' : null, 'data-col': c.key, title: c.help, scope: 'col', text: c.label,
        onclick: opt.nosort ? null : function () { self.sortBy(i); }});
      c.th = th;
      self.headRow.appendChild(th);
    });
    this.body = el('tbody');
    this.table = el('table', {cls: 'grid', id: opt.id}, [el('thead', null, [this.headRow]), this.body]);
    this.box = el('div', {cls: 'scroll'}, [this.table]);
    if (opt.height) this.box.style.maxHeight = opt.height;
    var pending = false;
    this.box.addEventListener('scroll', function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; self.draw(); });
    });
    this.refresh();
  }
  VTable.prototype.refresh = function () {
    var keep = this.keep;
    this.view = keep ? this.all.filter(keep) : this.all.slice();
    if (this.sortCol !== null) {
      var c = this.columns[this.sortCol], d = this.sortDir, key = c.sort || c.value;
      var idx = new Map();
      this.all.forEach(function (r, i) { idx.set(r, i); });
      this.view.sort(function (a, b) {
        var x = key(a), y = key(b), r;
        if (typeof x === 'string' || typeof y === 'string') r = String(x).localeCompare(String(y));
        else r = (x === null || x === undefined ? -Infinity : x) - (y === null || y === undefined ? -Infinity : y);
        return r ? r * d : idx.get(a) - idx.get(b);
      });
    }
    this.columns.forEach(function (c, i) {
      if (this.sortCol === i) c.th.setAttribute('aria-sort', this.sortDir > 0 ? 'ascending' : 'descending');
      else c.th.removeAttribute('aria-sort');
    }, this);
    this.box.scrollTop = 0;
    this.draw();
  };
  VTable.prototype.sortBy = function (i) {
    if (this.sortCol === i) this.sortDir = -this.sortDir;
    else { this.sortCol = i; this.sortDir = this.columns[i].num ? -1 : 1; }
    this.refresh();
  };
  VTable.prototype.draw = function () {
    var n = this.view.length, h = this.box.clientHeight || 600;
    var first = Math.max(0, Math.floor(this.box.scrollTop / ROW_H) - 30);
    var span = Math.max(100, Math.ceil(h / ROW_H) + 60);
    var last = Math.min(n, first + span);
    var body = el('tbody'), cols = this.columns, self = this;
    if (first > 0) body.appendChild(el('tr', {cls: 'spacer'}, [el('td', {colspan: cols.length, style: 'height:' + first * ROW_H + 'px'})]));
    for (var i = first; i < last; i++) {
      var r = this.view[i];
      var tr = el('tr', {cls: r === this.selected ? 'sel' : (r._cls || null)});
      for (var j = 0; j < cols.length; j++) {
        var c = cols[j], td = el('td', {cls: c.cls || (c.num ? 'num' : null)});
        if (c.render) c.render(td, r);
        else {
          var v = c.value(r);
          td.textContent = c.text ? c.text(r) : (v === null || v === undefined ? '' : String(v));
          if (typeof v === 'number') td.setAttribute('data-v', String(v));
        }
        tr.appendChild(td);
      }
      if (this.onclick) tr.addEventListener('click', (function (row) {
        return function () { self.selected = row; self.draw(); self.onclick(row); };
      })(r));
      body.appendChild(tr);
    }
    if (last < n) body.appendChild(el('tr', {cls: 'spacer'}, [el('td', {colspan: cols.length, style: 'height:' + (n - last) * ROW_H + 'px'})]));
    this.table.replaceChild(body, this.body);
    this.body = body;
  };

  /* filter box + regex checkbox wired to a table; extra(r) is an
   * additional predicate (zero toggle, only significant) */
  function filterControls(table, name, nameOf, extra, countEl) {
    var input = el('input', {type: 'search', id: name + '-filter', placeholder: 'filter symbols (substring)', 'aria-label': 'filter'});
    var rx = el('input', {type: 'checkbox', id: name + '-regex'});
    function apply() {
      var f = null;
      input.classList.remove('bad');
      input.removeAttribute('title');
      try { f = makeFilter(input.value, rx.checked); } catch (e) {
        input.classList.add('bad');
        input.title = 'not a regular expression: ' + e.message;
        f = null;
      }
      table.keep = function (r) { return (!f || f(nameOf(r))) && (!extra || extra(r)); };
      table.refresh();
      if (countEl) countEl.textContent = table.view.length + ' of ' + table.all.length + ' rows';
    }
    input.addEventListener('input', apply);
    rx.addEventListener('change', function () {
      input.placeholder = rx.checked ? 'filter symbols (regular expression)' : 'filter symbols (substring)';
      apply();
    });
    return {apply: apply, nodes: [input, el('label', null, [rx, ' regex'])]};
  }

  /* ---- header --------------------------------------------------------- */
  function header(app, flat) {
    var exact = flat.dimension && flat.dimension !== 'seconds' && !flat.rate_hz;
    app.appendChild(el('h1', {id: 'title', text: 'Profile of ' + sourcesText(flat.sources)}));
    var t = flat.totals || {};
    var parts = [exact ? 'Counts: ' : 'Samples: ', el('b', {text: count(t.total)}), ' total, ',
      el('b', {text: count(t.in_program)}), ' in the program, ', el('b', {text: count(t.outside)}), ' outside'];
    var cls = [];
    for (var k in (t.by_class || {})) if (t.by_class[k] > 0) cls.push(k + ' ' + count(t.by_class[k]));
    if (cls.length) parts.push(' (' + cls.join(', ') + ')');
    app.appendChild(el('p', {cls: 'facts', id: 'samples'}, parts));
    if (flat.rate_hz) {
      var per = 1 / flat.rate_hz;
      app.appendChild(el('p', {cls: 'facts', id: 'rate'}, ['Rate: ', el('b', {text: String(flat.rate_hz) + ' Hz'}),
        ', each sample counts as ' + String(Number(per.toPrecision(6))) + ' ' + (flat.dimension || 'seconds') + '; ',
        el('b', {text: (t.total / flat.rate_hz).toFixed(2)}), ' ' + (flat.dimension || 'seconds') + ' sampled']));
    } else {
      app.appendChild(el('p', {cls: 'facts', id: 'rate', text: 'Rate: unknown (counts are shown, no times)'}));
    }
    if (flat.filters) {
      var fl = [];
      ['focus', 'ignore', 'hide'].forEach(function (f) { if (flat.filters[f] !== null) fl.push(f + ' ' + flat.filters[f]); });
      app.appendChild(el('p', {cls: 'facts', id: 'filters'}, ['Filters: ', el('b', {text: fl.join(', ')}),
        ' (flat table and regions: the symbols they keep, percents of all samples; flame view: the stacks ' +
        'they keep; call graph: the self time they keep, a hidden function\'s callers joined to its callees)']));
    }
    (flat.warnings || []).forEach(function (w) {
      var msg = typeof w === 'string' ? w : (w.message || JSON.stringify(w));
      app.appendChild(el('div', {cls: 'warn', text: 'warning: ' + msg}));
    });
  }

  /* ---- flat table ----------------------------------------------------- */
  function isZero(r) { return !r.count && !r.calls && !r.self_calls; }
  function ciBar(maxv) {
    return function (td, r) {
      td.className = 'cibar';
      var b = el('div', {cls: 'cib'});
      b.appendChild(el('div', {cls: 'b', style: 'width:' + (100 * r.percent / maxv) + '%'}));
      if (typeof r.ci_low === 'number') {
        b.appendChild(el('div', {cls: 'e', style: 'left:' + (100 * r.ci_low / maxv) + '%;width:' +
          (100 * (r.ci_high - r.ci_low) / maxv) + '%'}));
        td.title = r.ci_low.toFixed(2) + ' .. ' + r.ci_high.toFixed(2) + ' %';
      }
      td.appendChild(b);
    };
  }
  function flatView(view, flat, onselect) {
    /* flat.rows may be the first rows only: what the columns need to
     * know of all rows comes with them (has_calls, zero_rows,
     * max_percent); older data without them: from the rows */
    var rows = flat.rows || [];
    var hasCalls = 'has_calls' in flat ? flat.has_calls : rows.some(function (r) { return r.calls || r.self_calls; });
    var hasCi = !!flat.ci;
    var maxv = 0;
    if ('max_percent' in flat) maxv = flat.max_percent;
    else rows.forEach(function (r) { maxv = Math.max(maxv, hasCi ? r.ci_high || 0 : 0, r.percent || 0); });
    if (!maxv) maxv = 1;
    var cols = [
      {key: 'rank', label: 'rank', num: true, value: function (r) { return r.rank; }},
      {key: 'symbol', label: 'symbol', cls: 'sym', value: function (r) { return r.symbol; }},
      {key: 'count', label: flat.rate_hz || !flat.dimension ? 'count' : 'count', num: true, value: function (r) { return r.count; },
        text: function (r) { return count(r.count); }},
      {key: 'percent', label: 'percent', num: true, value: function (r) { return r.percent; }, text: function (r) { return fixed(r.percent, 2); }}
    ];
    if (hasCi) {
      cols.push({key: 'ci', label: flat.ci.level + '% interval', help: flat.ci.method + ' interval of the percent',
        num: true, value: function (r) { return r.ci_low; },
        text: function (r) { return fixed(r.ci_low, 2) + '\u2013' + fixed(r.ci_high, 2); }});
      cols.push({key: 'cibar', label: 'percent \u00b1 interval', value: function (r) { return r.percent; }, render: ciBar(maxv)});
    }
    cols.push({key: 'cum_percent', label: 'sum%', help: 'the running sum of the percents (pprof\'s sum%)', num: true,
      value: function (r) { return r.cum_percent; }, text: function (r) { return fixed(r.cum_percent, 2); }});
    /* inclusive samples (self + children) from the call graph model,
     * when the capture has calls: filled when the rest is read */
    var inc = null;
    if (hasCalls)
      cols.push({key: 'inclusive', label: 'inclusive', help: 'self + children samples as the call graph report gives them (estimated from call counts)',
        num: true, value: function (r) { return inc && inc.has(r.symbol) ? inc.get(r.symbol) : null; },
        text: function (r) { return inc && inc.has(r.symbol) ? count(inc.get(r.symbol)) : ''; }});
    if (flat.rate_hz)
      cols.push({key: 'self_seconds', label: 'self s', num: true, value: function (r) { return r.self_seconds; },
        text: function (r) { return fixed(r.self_seconds, 2); }});
    if (hasCalls)
      cols.push({key: 'calls', label: 'calls', num: true, value: function (r) { return r.calls; },
        sort: function (r) { return (r.calls || 0) + (r.self_calls || 0); },
        text: function (r) { return r.self_calls ? r.calls + '+' + r.self_calls : String(r.calls); }});
    cols.push({key: 'address', label: 'address', num: true, cls: 'num addr', value: function (r) { return r.address; },
      text: function (r) { return hex(r.address); }});
    var table = new VTable(cols, rows, {id: 'flat-table', onclick: function (r) { onselect(r.symbol); }});
    var nz = 'zero_rows' in flat ? flat.zero_rows : rows.filter(isZero).length;
    var zero = el('input', {type: 'checkbox', id: 'flat-zero'});
    var counter = el('span', {id: 'flat-count', cls: 'facts'});
    var fc = filterControls(table, 'flat', function (r) { return r.symbol; },
      function (r) { return zero.checked || !isZero(r); }, counter);
    zero.addEventListener('change', fc.apply);
    view.appendChild(el('div', {cls: 'controls'}, fc.nodes.concat([
      el('label', {title: 'symbols that received no sample and no call'}, [zero, ' zero-hit symbols (' + nz + ')']), counter])));
    if (hasCi)
      view.appendChild(el('p', {cls: 'note', text: 'Bars: percent of ' + (flat.percent_of === 'program' ? 'the samples in the program' : 'all samples') +
        '; whiskers: the ' + flat.ci.level + '% ' + flat.ci.method + ' interval of the percent.'}));
    view.appendChild(table.box);
    fc.apply();
    /* the other rows, once they are read: the filter, sort and zero
     * toggle in force apply to them */
    table.addRows = function (more) {
      table.all = table.all.concat(more);
      fc.apply();
    };
    table.setInclusive = function (m) { inc = m; table.draw(); };
    return table;
  }

  /* ---- regions chart -------------------------------------------------- */
  var REGION_LABEL = {program: 'in program', symbols: 'symbols', 'no-symbol': 'no symbol', outside: 'outside', total: 'total',
    system: 'system', dos: 'DOS', io: 'I/O', high: 'high memory', low: 'below the program', library: 'libraries',
    kernel: 'kernel', unknown: 'unknown'};
  function regionsView(view, regions, err) {
    if (!regions) { view.appendChild(el('p', {cls: 'note', text: 'No region summary: ' + (err || 'not available')})); return; }
    var chart = el('div', {cls: 'chart', id: 'regions-chart'});
    var group = '';
    (regions.regions || []).forEach(function (r) {
      var k = r.region, top = k === 'program' || k === 'outside' || k === 'total';
      if (top) group = k;
      var pct = r.percent || 0;
      chart.appendChild(el('div', {cls: 'row' + (top ? '' : ' sub') + (group === 'outside' ? ' out' : '') + (k === 'total' ? ' total' : ''),
        'data-region': k}, [
        el('span', {cls: 'lab', text: REGION_LABEL[k] || k}),
        el('span', {cls: 'num', 'data-v': r.samples, text: count(r.samples)}),
        el('span', {cls: 'num', 'data-v': pct, text: fixed(pct, 2) + ' %'}),
        el('div', {cls: 'track'}, [el('div', {cls: 'fill', style: 'width:' + Math.min(100, pct) + '%'})])]));
    });
    view.appendChild(el('p', {cls: 'note', text: 'Where the samples fell: in the program (credited to a symbol or to none) or outside it, by region class; percents of every sample.'}));
    view.appendChild(chart);
  }

  /* ---- flame (icicle) view -------------------------------------------- */
  function buildTree(F) {
    /* F.nodes: depth, frame, value per node, depth-first */
    var root = {name: 'all', fid: -1, v: 0, self: 0, kids: [], depth: 0, parent: null};
    var stack = [root], maxDepth = 0, a = F.nodes || [];
    for (var i = 0; i + 2 < a.length; i += 3) {
      var d = a[i], parent = stack[d];
      var n = {name: F.frames[a[i + 1]], fid: a[i + 1], v: a[i + 2], self: 0, kids: [], depth: d + 1, parent: parent};
      parent.kids.push(n);
      stack[d + 1] = n;
      stack.length = d + 2;
      if (d + 1 > maxDepth) maxDepth = d + 1;
      if (d === 0) root.v += n.v;
    }
    layout(root);
    return {root: root, maxDepth: maxDepth};
  }
  /* x of every node (the sum of the widths of the siblings before it),
   * kids widest first, self = inclusive - the kids' (iterative: a chain
   * may be thousands of frames deep) */
  function layout(root) {
    var stack = [root];
    root.x = 0;
    while (stack.length) {
      var n = stack.pop();
      n.kids.sort(function (a, b) { return b.v - a.v || (a.name < b.name ? -1 : 1); });
      var cx = n.x, sum = 0;
      for (var j = 0; j < n.kids.length; j++) { n.kids[j].x = cx; cx += n.kids[j].v; sum += n.kids[j].v; stack.push(n.kids[j]); }
      /* (a residue of rounding the values to 9 digits is no self time) */
      n.self = n.v - sum > 1e-7 * Math.max(1, n.v) ? n.v - sum : 0;
    }
  }

  /* ---- transforms (pprof's focus, ignore, hide; merge a function into
   * its callers; collapse recursion) on the stacks of the tree: each
   * node's self samples are one stack, root to node.  focus keeps a
   * stack with a matching frame, ignore drops one, hide and merge remove
   * the frames (a stack left without frames is dropped), recursion
   * keeps a function's outermost frame (A B A C becomes A C).  The
   * result is a tree of the same form (buildTree's). */
  function stacksOf(tree) {
    var out = [], path = [], stack = [[tree.root, 0]];
    while (stack.length) {
      var top = stack[stack.length - 1], n = top[0];
      if (top[1] === 0) {
        if (n.fid >= 0) path.push(n.fid);
        if (n.self > 0 && path.length) out.push([path.slice(), n.self]);
      }
      if (top[1] < n.kids.length) stack.push([n.kids[top[1]++], 0]);
      else { stack.pop(); if (n.fid >= 0) path.pop(); }
    }
    return out;
  }
  function transformTree(F, base, T) {
    var frames = F.frames, nf = frames.length;
    var focus = T.focus ? new RegExp(T.focus) : null, ignore = T.ignore ? new RegExp(T.ignore) : null;
    var hide = T.hide ? new RegExp(T.hide) : null, merged = new Set(T.merge || []);
    var hit = new Uint8Array(nf);
    for (var i = 0; i < nf; i++) {
      var nm = frames[i];
      hit[i] = (focus && focus.test(nm) ? 1 : 0) | (ignore && ignore.test(nm) ? 2 : 0) |
        ((hide && hide.test(nm)) || merged.has(nm) ? 4 : 0);
    }
    var root = {name: 'all', fid: -1, v: 0, self: 0, kids: [], depth: 0, parent: null, _k: new Map()}, maxDepth = 0;
    base.stacks = base.stacks || stacksOf(base);
    base.stacks.forEach(function (st) {
      var p = st[0], w = st[1], f = !focus, ig = false, j;
      for (j = 0; j < p.length; j++) { f = f || (hit[p[j]] & 1) !== 0; ig = ig || (hit[p[j]] & 2) !== 0; }
      if (!f || ig) return;
      var q = [];
      for (j = 0; j < p.length; j++) if (!(hit[p[j]] & 4)) q.push(p[j]);
      if (T.rec) {
        var seen = new Map(), r = [];
        for (j = 0; j < q.length; j++) {
          if (seen.has(q[j])) { var cut = seen.get(q[j]); for (var x = cut + 1; x < r.length; x++) seen.delete(r[x]); r.length = cut + 1; }
          else { seen.set(q[j], r.length); r.push(q[j]); }
        }
        q = r;
      }
      if (!q.length) return;
      var n = root;
      n.v += w;
      for (j = 0; j < q.length; j++) {
        var k = n._k.get(q[j]);
        if (!k) {
          k = {name: frames[q[j]], fid: q[j], v: 0, self: 0, kids: [], depth: j + 1, parent: n, _k: new Map()};
          n._k.set(q[j], k);
          n.kids.push(k);
        }
        k.v += w;
        n = k;
      }
      if (q.length > maxDepth) maxDepth = q.length;
    });
    layout(root);
    return {root: root, maxDepth: maxDepth};
  }
  function transformsActive(T) { return !!(T.focus || T.ignore || T.hide || (T.merge && T.merge.length) || T.rec); }

  /* ---- call trees: top-down, inverted, sandwich ----------------------- */
  /* The inverse normal distribution (Acklam's rational approximation,
   * relative error below 1.2e-9): the z of a two-sided level. */
  function zOf(level) {
    var p = 1 - (1 - level / 100) / 2;
    var a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690, -30.66479806614716, 2.506628274631000];
    var b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
    var c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
    var d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
    var q, r;
    if (p > 1 - 0.02425) {
      q = Math.sqrt(-2 * Math.log(1 - p));
      return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    q = p - 0.5; r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  /* Wilson interval of k of n, in percent */
  function wilson(k, n, z) {
    if (!(n > 0)) return null;
    var ph = k / n, z2 = z * z, den = 1 + z2 / n;
    var mid = (ph + z2 / (2 * n)) / den, half = z / den * Math.sqrt(ph * (1 - ph) / n + z2 / (4 * n * n));
    return [100 * Math.max(0, mid - half), 100 * Math.min(1, mid + half)];
  }
  /* A row of a call tree: a function reached by a group of the flame
   * tree's nodes (occ: [node, weight]); kids(): its rows one level down
   * (callees: the nodes' kids by name; callers: their parents). */
  function TNode(name, occ, dir, depth, selfOf) {
    this.name = name; this.occ = occ; this.dir = dir; this.depth = depth; this.open = false; this._kids = null;
    var t = 0, sf = 0;
    for (var i = 0; i < occ.length; i++) { t += occ[i][1]; sf += selfOf ? selfOf(occ[i]) : 0; }
    this.total = t;
    this.self = selfOf ? sf : null;
  }
  TNode.prototype.kids = function () {
    if (this._kids) return this._kids;
    var groups = new Map(), dir = this.dir;
    this.occ.forEach(function (o) {
      var n = o[0], w = o[1];
      if (dir === 'down') {
        n.kids.forEach(function (k) {
          if (!groups.has(k.name)) groups.set(k.name, []);
          groups.get(k.name).push([k, k.v]);
        });
      } else if (n.parent && n.parent.fid >= 0) {
        if (!groups.has(n.parent.name)) groups.set(n.parent.name, []);
        groups.get(n.parent.name).push([n.parent, w]);
      }
    });
    var out = [], d = this.depth + 1;
    groups.forEach(function (occ, name) {
      out.push(new TNode(name, occ, dir, d, dir === 'down' ? function (o) { return o[0].self; } : null));
    });
    out.sort(function (a, b) { return b.total - a.total || (a.name < b.name ? -1 : 1); });
    return (this._kids = out);
  };
  /* the roots of the three trees */
  function topDownRoots(tree) {
    return tree.root.kids.map(function (k) { return new TNode(k.name, [[k, k.v]], 'down', 0, function (o) { return o[0].self; }); });
  }
  function invertedRoots(tree) {
    var g = new Map(), stack = tree.root.kids.slice();
    while (stack.length) {
      var n = stack.pop();
      if (n.self > 0) { if (!g.has(n.name)) g.set(n.name, []); g.get(n.name).push([n, n.self]); }
      for (var i = 0; i < n.kids.length; i++) stack.push(n.kids[i]);
    }
    var out = [];
    g.forEach(function (occ, name) { var t = new TNode(name, occ, 'up', 0, function (o) { return o[1]; }); out.push(t); });
    out.sort(function (a, b) { return b.total - a.total || (a.name < b.name ? -1 : 1); });
    return out;
  }
  /* a function's outermost frames (no caller of the same name) and all
   * its frames */
  function framesOf(tree, name) {
    var outer = [], all = [], stack = [[tree.root, false]];
    while (stack.length) {
      var e = stack.pop(), n = e[0], inside = e[1];
      var is = n.name === name && n.fid >= 0;
      if (is) { all.push(n); if (!inside) outer.push(n); }
      for (var i = 0; i < n.kids.length; i++) stack.push([n.kids[i], inside || is]);
    }
    return {outer: outer, all: all};
  }
  function sandwichRoots(tree, name) {
    var f = framesOf(tree, name), self = 0;
    f.all.forEach(function (n) { self += n.self; });
    var occ = f.outer.map(function (n) { return [n, n.v]; });
    var callers = new TNode(name, occ, 'up', 0, null), callees = new TNode(name, occ, 'down', 0, function (o) { return o[0].self; });
    callers.self = callees.self = self;
    callers.open = callees.open = true;
    return {callers: callers, callees: callees, found: f.outer.length > 0};
  }

  /* A collapsible tree as a VTable: the visible rows, a toggle each. */
  function TreeTable(id, opt) {
    var self = this;
    this.roots = [];
    this.opt = opt;
    var ci = opt.ci;
    var cols = [
      {key: 'name', label: 'function', cls: 'sym tree', value: function (r) { return r.name; }, render: function (td, r) {
        td.className = 'sym tree';
        td.style.paddingLeft = (4 + 14 * r.depth) + 'px';
        var leaf = r.kids().length === 0;
        td.appendChild(el('span', {cls: 'tog', text: leaf ? '\u00a0' : r.open ? '\u25be' : '\u25b8', onclick: function (e) {
          e.stopPropagation(); if (!leaf) { r.open = !r.open; self.rebuild(); } }}));
        td.appendChild(el('span', {cls: 'fn', text: r.name}));
      }},
      {key: 'total', label: opt.totalLabel || 'total', num: true, value: function (r) { return r.total; }, text: function (r) { return count(r.total); }},
      {key: 'total_percent', label: 'total %', num: true, value: function (r) { return opt.all ? 100 * r.total / opt.all : 0; },
        text: function (r) { return fixed(opt.all ? 100 * r.total / opt.all : 0, 2); }}];
    if (ci && opt.totalCi)
      cols.push({key: 'total_ci', label: 'total ' + ci.level + '% interval', num: true, value: function (r) { return r.total; },
        text: function (r) { var w = wilson(r.total, opt.all, ci.z); return w ? fixed(w[0], 2) + '\u2013' + fixed(w[1], 2) : ''; }});
    if (opt.self) {
      cols.push({key: 'self', label: 'self', num: true, value: function (r) { return r.self; }, text: function (r) { return r.self === null ? '' : count(r.self); }});
      cols.push({key: 'self_percent', label: 'self %', num: true, value: function (r) { return r.self === null ? null : opt.all ? 100 * r.self / opt.all : 0; },
        text: function (r) { return r.self === null ? '' : fixed(opt.all ? 100 * r.self / opt.all : 0, 2); }});
      if (ci)
        cols.push({key: 'self_ci', label: 'self ' + ci.level + '% interval', num: true, value: function (r) { return r.self; },
          text: function (r) { var w = r.self === null ? null : wilson(r.self, opt.all, ci.z); return w ? fixed(w[0], 2) + '\u2013' + fixed(w[1], 2) : ''; }});
    }
    this.table = new VTable(cols, [], {id: id, nosort: true, onclick: function (r) { if (opt.onpick) opt.onpick(r.name); }});
    this.box = this.table.box;
  }
  TreeTable.prototype.setRoots = function (roots) { this.roots = roots; this.rebuild(); };
  TreeTable.prototype.rebuild = function () {
    var rows = [], stack = this.roots.slice().reverse();
    while (stack.length) {
      var r = stack.pop();
      rows.push(r);
      if (r.open) { var k = r.kids(); for (var i = k.length - 1; i >= 0; i--) stack.push(k[i]); }
    }
    var top = this.table.box.scrollTop;
    this.table.all = rows;
    this.table.view = rows;
    this.table.draw();
    this.table.box.scrollTop = top;
  };
  /* expands every row down to depth d (tests, and "expand") */
  TreeTable.prototype.expand = function (d) {
    var stack = this.roots.slice();
    while (stack.length) { var r = stack.pop(); if (r.depth < d) { r.open = true; stack.push.apply(stack, r.kids()); } }
    this.rebuild();
  };
  function hue(name) {
    var h = 0;
    for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    return h;
  }
  function FlameView(view, F, err, rate, onselect) {
    this.F = F;
    this.built = false;
    this.view = view;
    this.rate = rate;
    this.onselect = onselect;
    this.selected = null;
    this.match = null;
    if (!F) { view.appendChild(el('p', {cls: 'note', text: 'No call paths: ' + (err || 'not available')})); return; }
    var self = this;
    var label = F.estimate
      ? 'estimate: stacks derived from call counts (gprof\'s assumption: a function\'s time is split among its callers in proportion to the calls); call arcs never record stacks'
      : 'no call arcs: one frame per function, as measured';
    if (F.elided) label += '; ' + F.elided + ' frames below ' + F.elided_below + ' ' + F.unit + ' left out (their time is in their callers\' widths)';
    this.search = el('input', {type: 'search', id: 'flame-search', placeholder: 'highlight (substring)', 'aria-label': 'search'});
    this.rx = el('input', {type: 'checkbox', id: 'flame-regex'});
    this.matched = el('span', {id: 'flame-matched', cls: 'facts'});
    this.search.addEventListener('input', function () { self.setSearch(); });
    this.rx.addEventListener('change', function () { self.setSearch(); });
    view.appendChild(el('div', {cls: 'controls'}, [
      el('span', {cls: 'estimate', id: 'flame-estimate', text: label}),
      this.search, el('label', null, [this.rx, ' regex']), this.matched,
      el('button', {type: 'button', id: 'flame-reset', text: 'reset zoom', onclick: function () { self.zoomTo(self.tree.root); }})]));
    this.canvas = el('canvas', {id: 'flame', role: 'img', 'aria-label': 'icicle graph of the call paths'});
    this.tip = el('div', {id: 'flame-tip'});
    this.list = el('ol', {id: 'flame-nodes', cls: 'sr-only'});
    view.appendChild(el('div', {id: 'flame-wrap'}, [this.canvas, this.tip]));
    view.appendChild(this.list);
    view.appendChild(el('p', {cls: 'note', text: 'Click a frame to zoom in and to show its callers and callees; click a frame above it (or "all") to zoom out. Widths are inclusive ' +
      (F.arc_time ? 'arc time (microseconds).' : 'samples.')}));
    this.calls = el('div', {id: 'calls'});
    view.appendChild(this.calls);
    this.canvas.addEventListener('mousemove', function (e) { self.hover(e); });
    this.canvas.addEventListener('mouseleave', function () { self.tip.style.display = 'none'; });
    this.canvas.addEventListener('click', function (e) {
      var n = self.hit(e);
      if (!n) return;
      self.zoomTo(n);
      if (n.fid >= 0) self.onselect(n.name);
    });
    window.addEventListener('resize', function () { if (self.built && !self.view.hidden) self.draw(); });
  }
  FlameView.prototype.show = function () {
    if (!this.F) return;
    if (!this.built) {
      this.tree = buildTree(this.F);
      this.zoom = this.tree.root;
      this.built = true;
    }
    this.draw();
  };
  FlameView.prototype.zoomTo = function (n) { this.zoom = n; this.draw(); };
  /* the tree after the transforms (or the whole one again) */
  FlameView.prototype.setTree = function (tree) {
    if (!this.F) return;
    this.tree = tree;
    this.zoom = tree.root;
    this.built = true;
    if (!this.view.hidden) this.draw();
  };
  FlameView.prototype.setSearch = function () {
    var f = null;
    this.search.classList.remove('bad');
    try { f = makeFilter(this.search.value, this.rx.checked); } catch (e) { this.search.classList.add('bad'); }
    this.match = f;
    if (this.built) this.draw();
  };
  var FH = 18;
  FlameView.prototype.draw = function () {
    var c = this.canvas, dpr = window.devicePixelRatio || 1;
    var W = c.parentNode.clientWidth || 1000, H = (this.tree.maxDepth + 1) * FH;
    c.width = Math.round(W * dpr);
    c.height = Math.round(H * dpr);
    c.style.height = H + 'px';
    var g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, W, H);
    g.font = '11px ui-monospace, "DejaVu Sans Mono", monospace';
    g.textBaseline = 'middle';
    var z = this.zoom, scale = z.v > 0 ? W / z.v : 0, x0 = z.x, self = this;
    var drawn = [], rows = [];
    var matchedV = 0, match = this.match, sel = this.selected;
    function box(n, x, w, dim) {
      var y = n.depth * FH, hit = match && n.fid >= 0 && match(n.name);
      var h = hue(n.name);
      g.fillStyle = hit ? '#d81b9c' : n.fid < 0 ? '#c9ccd1' : n.name.charAt(0) === '[' ? '#b8bcc4'
        : 'hsl(' + (8 + h % 42) + ',' + (70 + h % 20) + '%,' + (dim ? 78 : 58 + (h >> 8) % 12) + '%)';
      g.fillRect(x, y, Math.max(w - 0.5, 0.5), FH - 1);
      if (sel && n.name === sel) { g.strokeStyle = '#1a56b0'; g.lineWidth = 2; g.strokeRect(x + 1, y + 1, w - 2.5, FH - 3); }
      if (w > 28) {
        var chars = Math.floor((w - 6) / 6.7), t = n.name;
        if (t.length > chars) t = chars > 2 ? t.slice(0, chars - 2) + '..' : '';
        if (t) { g.fillStyle = '#111'; g.fillText(t, x + 3, y + FH / 2); }
      }
      var rec = {n: n, x: x, w: w};
      drawn.push(rec);
      (rows[n.depth] = rows[n.depth] || []).push(rec);
    }
    for (var a = z; a; a = a.parent) box(a, 0, W, a !== z);
    (function sub(n, inMatch) {
      for (var i = 0; i < n.kids.length; i++) {
        var k = n.kids[i], w = k.v * scale;
        if (w < 0.3) continue; /* kids are sorted widest first */
        var m = !inMatch && match && match(k.name);
        if (m) matchedV += k.v;
        box(k, (k.x - x0) * scale, w, false);
        sub(k, inMatch || m);
      }
    })(z, false);
    this.rows = rows;
    this.scale = scale;
    if (match) {
      var tot = this.tree.root.v;
      this.matched.textContent = 'matched: ' + (tot ? (100 * matchedV / tot).toFixed(2) : '0.00') + '% of all';
    } else this.matched.textContent = '';
    /* the frames drawn, for screen readers and tests: name, depth, x and
     * width in CSS pixels, inclusive value */
    var frag = document.createDocumentFragment();
    for (var i = 0; i < drawn.length && i < 5000; i++) {
      var d = drawn[i];
      frag.appendChild(el('li', {'data-depth': d.n.depth, 'data-x': d.x, 'data-w': d.w, 'data-v': d.n.v, 'data-self': d.n.self,
        text: d.n.name}));
    }
    this.list.textContent = '';
    this.list.setAttribute('data-width', W);
    this.list.setAttribute('data-total', z.v);
    this.list.appendChild(frag);
  };
  FlameView.prototype.hit = function (e) {
    var r = this.canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    var row = this.rows && this.rows[Math.floor(y / FH)];
    if (!row) return null;
    for (var i = 0; i < row.length; i++) if (x >= row[i].x && x < row[i].x + row[i].w) return row[i].n;
    return null;
  };
  FlameView.prototype.hover = function (e) {
    var n = this.hit(e);
    if (!n) { this.tip.style.display = 'none'; return; }
    var tot = this.tree.root.v, unit = this.F.arc_time ? ' \u00b5s' : ' samples';
    var t = n.name + '\ninclusive: ' + count(n.v) + unit + ' (' + (tot ? (100 * n.v / tot).toFixed(2) : '0') + '%)';
    if (this.rate) t += ', ' + (n.v / this.rate).toFixed(2) + ' s';
    t += '\nself: ' + count(n.self) + unit;
    if (this.F.estimate) t += '\n(estimate from call counts)';
    this.tip.textContent = t;
    var r = this.canvas.getBoundingClientRect();
    this.tip.style.left = Math.min(e.clientX - r.left + 12, r.width - 260) + 'px';
    this.tip.style.top = (e.clientY - r.top + 14) + 'px';
    this.tip.style.display = 'block';
  };

  /* The Call tree tab: top-down, inverted (bottom-up) and sandwich
   * (callers above, callees below a function) over the same stacks as
   * the icicle view, after the transforms. */
  function CallTreeView(view, F, err, flat, onpick) {
    var self = this;
    this.F = F; this.mode = 'top'; this.fn = null; this.tree = null;
    this.onpick = onpick;
    if (!F) { view.appendChild(el('p', {cls: 'note', text: 'No call trees: ' + (err || 'not available')})); return; }
    this.kind = el('p', {cls: 'estimate', id: 'tree-stacks'});
    var modes = [['top', 'top-down'], ['inverted', 'inverted (bottom-up)'], ['sandwich', 'sandwich']];
    this.radios = {};
    var bar = el('div', {cls: 'controls'}, [this.kind]);
    modes.forEach(function (m) {
      var r = el('input', {type: 'radio', name: 'tree-mode', id: 'tree-mode-' + m[0], value: m[0]});
      r.addEventListener('change', function () { if (r.checked) { self.setMode(m[0]); self.onstate({mode: m[0]}); } });
      self.radios[m[0]] = r;
      bar.appendChild(el('label', null, [r, ' ' + m[1]]));
    });
    this.expandAll = el('button', {type: 'button', id: 'tree-expand', text: 'expand 3 levels', onclick: function () {
      (self.mode === 'sandwich' ? [self.callers, self.callees] : [self.main]).forEach(function (t) { t.expand(3); }); }});
    bar.appendChild(this.expandAll);
    view.appendChild(bar);
    this.title = el('h2', {id: 'tree-title'});
    view.appendChild(this.title);
    this.note = el('p', {cls: 'note', id: 'tree-note'});
    view.appendChild(this.note);
    var ci = flat.ci && !F.arc_time ? {level: flat.ci.level, z: zOf(flat.ci.level)} : null;
    this.all = 0;
    var opt = function (extra) {
      var o = {ci: ci, totalCi: !F.estimate, onpick: function (name) { self.pick(name); }};
      for (var k in extra) o[k] = extra[k];
      Object.defineProperty(o, 'all', {get: function () { return self.all; }});
      return o;
    };
    this.main = new TreeTable('tree-table', opt({self: true}));
    this.callers = new TreeTable('tree-callers', opt({self: false, totalLabel: 'via this path'}));
    this.callees = new TreeTable('tree-callees', opt({self: true}));
    this.mainBox = this.main.box;
    this.sw = el('div', {id: 'tree-sandwich'}, [el('h2', {text: 'callers (above: who calls it; each row: the samples of the function reached through that caller)'}),
      this.callers.box, el('h2', {text: 'callees (below: what it calls)'}), this.callees.box,
      el('p', null, [el('button', {type: 'button', id: 'tree-merge', text: 'merge into its callers', onclick: function () { if (self.fn && self.onmerge) self.onmerge(self.fn); }}), ' ',
        el('button', {type: 'button', id: 'tree-focus', text: 'focus on it', onclick: function () { if (self.fn && self.onfocus) self.onfocus(self.fn); }})])]);
    this.callers.box.style.maxHeight = '35vh';
    this.callees.box.style.maxHeight = '35vh';
    view.appendChild(this.mainBox);
    view.appendChild(this.sw);
    this.onstate = function () {};
  }
  CallTreeView.prototype.setTree = function (tree, all) {
    if (!this.F) return;
    this.tree = tree;
    this.all = all;
    var F = this.F, shape = F.estimate ? 'estimated' : tree.maxDepth > 1 ? 'sampled' : 'none';
    this.kind.setAttribute('data-stacks', shape);
    this.kind.textContent = shape === 'estimated'
      ? 'stacks estimated from call counts: call arcs never record stacks; a function\'s time is split among its callers in proportion to the calls (gprof\'s assumption), so totals have no interval'
      : shape === 'none' ? 'no stacks: the capture has no call arcs; each function is a root of its own, total = self'
      : 'stacks as sampled';
    this.setMode(this.mode);
  };
  CallTreeView.prototype.setMode = function (mode) {
    if (!this.F || !this.tree) { this.mode = mode; return; }
    this.mode = mode;
    this.radios[mode].checked = true;
    var sw = mode === 'sandwich';
    this.mainBox.hidden = sw;
    this.sw.hidden = !sw;
    if (mode === 'top') { this.title.textContent = 'Top-down: callers to callees'; this.main.setRoots(topDownRoots(this.tree)); }
    else if (mode === 'inverted') { this.title.textContent = 'Inverted: where the time is spent, then who called it'; this.main.setRoots(invertedRoots(this.tree)); }
    else this.showSandwich();
    this.note.textContent = (this.F.unit === 'microseconds' ? 'Arc time in microseconds. ' : '') + 'Percents of all ' + count(this.all) +
      ' samples in the call paths. Click a function to see it in the sandwich view.';
  };
  CallTreeView.prototype.showSandwich = function () {
    if (!this.fn) { this.title.textContent = 'Sandwich: choose a function (click one in another tree, the icicle or the flat table)';
      this.callers.setRoots([]); this.callees.setRoots([]); return; }
    var s = sandwichRoots(this.tree, this.fn);
    this.title.textContent = 'Sandwich of ' + this.fn + (s.found ? '' : ': not in the call paths (after the transforms)');
    this.callers.setRoots(s.found ? [s.callers] : []);
    this.callees.setRoots(s.found ? [s.callees] : []);
  };
  CallTreeView.prototype.pick = function (name) {
    this.fn = name;
    if (this.onpick) this.onpick(name);
    if (this.mode === 'sandwich') this.showSandwich();
  };
  CallTreeView.prototype.select = function (name) {
    this.fn = name;
    if (this.mode === 'sandwich' && this.tree) this.showSandwich();
  };

  /* The transforms bar (Call graph and Call tree tabs). */
  function transformsBar(onchange) {
    var T = {focus: '', ignore: '', hide: '', merge: [], rec: false};
    var inputs = {};
    var box = el('div', {cls: 'controls transforms', id: 'transforms'}, [el('b', {text: 'Transforms:'})]);
    ['focus', 'ignore', 'hide'].forEach(function (k) {
      var i = el('input', {type: 'search', id: 'tf-' + k, placeholder: k + ' (regular expression)', 'aria-label': k});
      i.addEventListener('change', function () { apply(); });
      inputs[k] = i;
      box.appendChild(i);
    });
    var rec = el('input', {type: 'checkbox', id: 'tf-rec'});
    rec.addEventListener('change', function () { apply(); });
    box.appendChild(el('label', {title: 'keep a function\'s outermost frame: A B A C becomes A C'}, [rec, ' collapse recursion']));
    var chips = el('span', {id: 'tf-merged'});
    box.appendChild(chips);
    var status = el('span', {id: 'tf-status', cls: 'facts'});
    box.appendChild(status);
    function drawChips() {
      chips.textContent = '';
      T.merge.forEach(function (name, i) {
        chips.appendChild(el('span', {cls: 'chip'}, ['merged ', el('span', {text: name}), ' ',
          el('a', {cls: 'link', text: '\u00d7', title: 'undo', onclick: function () { T.merge.splice(i, 1); drawChips(); onchange(T); }})]));
      });
    }
    function apply() {
      var ok = true;
      ['focus', 'ignore', 'hide'].forEach(function (k) {
        var v = inputs[k].value;
        inputs[k].classList.remove('bad');
        try { if (v) new RegExp(v); T[k] = v; } catch (e) { inputs[k].classList.add('bad'); ok = false; }
      });
      T.rec = rec.checked;
      if (ok) onchange(T);
    }
    return {box: box, T: T, status: status,
      set: function (st) {
        ['focus', 'ignore', 'hide'].forEach(function (k) { inputs[k].value = st[k] || ''; T[k] = st[k] || ''; });
        rec.checked = T.rec = !!st.rec && st.rec !== '0';
        T.merge = [];
        if (st.merge) try { T.merge = JSON.parse(st.merge).map(String); } catch (e) { T.merge = []; }
        drawChips();
      },
      merge: function (name) { if (T.merge.indexOf(name) < 0) T.merge.push(name); drawChips(); onchange(T); },
      focusOn: function (name) { inputs.focus.value = '^' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$'; apply(); }};
  }

  /* ---- caller / callee tables (the call graph report's model) --------- */
  /* C.nodes: [name, cycle, index, calls, self_calls, self, children,
   * listed]; C.edges: [parent, child, count, self, children] by time */
  function callIndex(C) {
    if (C._byName) return;
    C._byName = new Map();
    C._in = [];
    C._out = [];
    C.nodes.forEach(function (n, i) { if (n[0] !== null && !C._byName.has(n[0])) C._byName.set(n[0], i); });
    C.edges.forEach(function (e) {
      (C._in[e[1]] = C._in[e[1]] || []).push(e);
      (C._out[e[0]] = C._out[e[0]] || []).push(e);
    });
  }
  function callsPanel(box, C, name, select, openSource) {
    box.textContent = '';
    if (!C) return;
    callIndex(C);
    var i = C._byName.get(name);
    if (i === undefined) { box.appendChild(el('p', {cls: 'note', text: name + ': not in the call graph'})); return; }
    var n = C.nodes[i], sec = function (v) { return fixed(v, 2); };
    var rate = C._rate || 0, conv = function (v) { return rate ? v / rate : v; };
    var cyc = function (m) { return m[1] ? ' <cycle ' + m[1] + '>' : ''; };
    box.appendChild(el('h2', {id: 'calls-title', text: '[' + n[2] + '] ' + n[0] + cyc(n)}));
    if (openSource) box.appendChild(el('p', null, [el('a', {cls: 'link', id: 'calls-source', text: 'its source lines and disassembly',
      onclick: function () { openSource(name); }})]));
    box.appendChild(el('p', {cls: 'facts'}, ['inclusive ', el('b', {text: fixed(C.total ? 100 * (n[5] + n[6]) / C.total : 0, 2) + '%'}),
      ', self ', el('b', {text: sec(conv(n[5]))}), rate ? ' s' : '', ', children ', el('b', {text: sec(conv(n[6]))}), rate ? ' s' : '',
      ', called ', el('b', {text: String(n[3]) + (n[4] ? '+' + n[4] : '')}), ' times']));
    function table(list, other, title, id) {
      var t = el('table', {cls: 'grid', id: id}, [el('thead', null, [el('tr', null, [
        el('th', {text: 'function'}), el('th', {cls: 'num', text: 'calls'}), el('th', {cls: 'num', text: rate ? 'self s' : 'self'}),
        el('th', {cls: 'num', text: rate ? 'children s' : 'children'})])])]);
      var tb = el('tbody');
      (list || []).forEach(function (e) {
        var m = C.nodes[e[other]], callee = C.nodes[e[1]];
        var inside = e[0] === e[1] || (callee[1] && C.nodes[e[0]][1] === callee[1]);
        tb.appendChild(el('tr', {onclick: function () { if (m[0] !== null) select(m[0]); }}, [
          el('td', {cls: 'sym'}, [el('a', {cls: 'link', text: (m[0] === null ? '' : m[0]) + cyc(m)})]),
          el('td', {cls: 'num', text: inside ? String(e[2]) : e[2] + '/' + callee[3]}),
          el('td', {cls: 'num', 'data-v': e[3], text: inside ? '' : sec(conv(e[3]))}),
          el('td', {cls: 'num', 'data-v': e[4], text: inside ? '' : sec(conv(e[4]))})]));
      });
      if (!list || !list.length) tb.appendChild(el('tr', null, [el('td', {colspan: 4, cls: 'note', text: other === 0 ? '(spontaneous)' : '(none)'})]));
      t.appendChild(tb);
      return el('div', null, [el('h2', {text: title}), t]);
    }
    box.appendChild(el('div', {cls: 'cols'}, [table(C._in[i], 0, 'callers', 'callers'), table(C._out[i], 1, 'callees', 'callees')]));
  }

  /* ---- source --------------------------------------------------------- */
  /* The Source tab: the counts of -r source (src: its JSON) on the text
   * of each file (S: #pc-data-src, formats/html_source.c: files, the
   * code inlined at each line, each function's hottest line, the
   * disassembly of the functions with the most samples).  The code is a
   * VTable: only the lines in view are drawn.  Returns {showFunction,
   * showLine}, the jumps from other views. */
  function sourceView(view, src, err, S, onstate) {
    var panel = el('div', {id: 'source-panel'});
    view.appendChild(panel);
    var nothing = {showFunction: function () {}, showLine: function () {}};
    if (!src || !src.lines) { panel.appendChild(el('p', {cls: 'note', text: 'No source view: ' + (err || 'not available')})); return nothing; }
    S = S || {};
    var total = src.total || 0;
    panel.appendChild(el('p', {cls: 'facts', text: 'Samples by source line (DWARF line table), self: the samples of the code of each line; ' +
      count(src.no_line_info || 0) + ' samples without line information. Inlined: the samples of code inlined at a call site. ' +
      'Per-line inclusive counts need sampled stacks; this capture ' + (S.files ? 'gives self counts' : 'has no text') + '.'}));
    var texts = new Map();
    (S.files || []).forEach(function (f, i) { texts.set(f.file, f); });
    var byFile = new Map(), order = [];
    src.lines.forEach(function (l) {
      if (l.inlined) return;
      if (!byFile.has(l.file)) { byFile.set(l.file, {lines: new Map(), sum: 0}); order.push(l.file); }
      var b = byFile.get(l.file);
      b.lines.set(l.line, l);
      b.sum += l.count;
    });
    order.sort(function (a, b) { return byFile.get(b).sum - byFile.get(a).sum || (a < b ? -1 : 1); });
    var inl = new Map();   /* "file\nline" -> [[function, samples]] */
    (S.inlined || []).forEach(function (m) {
      var f = S.files[m[0]];
      if (!f) return;
      var key = f.file + '\n' + m[1];
      if (!inl.has(key)) inl.set(key, []);
      inl.get(key).push([m[2], m[3]]);
    });
    var max = 0;
    src.lines.forEach(function (l) { if (!l.inlined) max = Math.max(max, l.percent || 0); });
    var fileSel = el('select', {id: 'source-file', 'aria-label': 'source file'});
    order.forEach(function (f) {
      var b = byFile.get(f);
      fileSel.appendChild(el('option', {value: f, text: f + ' \u2014 ' + count(b.sum) + ' samples, ' + fixed(total ? 100 * b.sum / total : 0, 2) + '%'}));
    });
    var fileNote = el('p', {id: 'source-file-note', cls: 'note'});
    panel.appendChild(el('div', {cls: 'controls'}, [el('label', null, ['File ', fileSel]), el('span', {id: 'source-count', cls: 'facts'})]));
    panel.appendChild(fileNote);
    function heat(td, r) {
      td.className = 'num';
      if (r.count) {
        td.textContent = count(r.count);
        td.setAttribute('data-v', String(r.count));
        td.style.background = 'rgba(198,40,40,' + (0.06 + 0.5 * (max ? r.percent / max : 0)).toFixed(3) + ')';
      }
    }
    var cols = [
      {key: 'line', label: 'line', num: true, value: function (r) { return r.line; }},
      {key: 'count', label: 'self', num: true, value: function (r) { return r.count; }, render: heat},
      {key: 'percent', label: 'self %', num: true, value: function (r) { return r.count ? r.percent : null; },
        text: function (r) { return r.count ? fixed(r.percent, 2) : ''; }},
      {key: 'inlined', label: 'inlined here', cls: 'sym', value: function (r) { return r.inl ? r.inl[0][1] : null; },
        text: function (r) { return r.inl ? r.inl.map(function (x) { return x[0] + ' ' + count(x[1]); }).join(', ') : ''; }},
      {key: 'text', label: 'source', cls: 'code', value: function (r) { return r.text; }}];
    var table = new VTable(cols, [], {id: 'source-table', onclick: function (r) { showLine(cur, r.line, true); }});
    table.box.classList.add('codebox');
    panel.appendChild(table.box);
    /* the disassembly (pprof's weblist): a function's instructions with
     * the source line above each group, or those of one source line */
    var dpanel = el('div', {id: 'disasm-panel'});
    panel.appendChild(dpanel);
    var D = S.disasm || [];
    var dsel = el('select', {id: 'disasm-func', 'aria-label': 'function'});
    D.forEach(function (d, i) {
      dsel.appendChild(el('option', {value: String(i), text: d.function + ' \u2014 ' + count(d.count) + ' samples'}));
    });
    var dnote = el('p', {id: 'disasm-note', cls: 'note'});
    dpanel.appendChild(el('h2', {text: 'Disassembly'}));
    if (!D.length) dpanel.appendChild(el('p', {cls: 'note', id: 'disasm-none', text: 'No disassembly: ' + (S.disasm_error || 'no function with samples')}));
    else dpanel.appendChild(el('div', {cls: 'controls'}, [el('label', null, ['Function ', dsel]),
      el('span', {cls: 'facts', text: D.length + ' functions with the most samples embedded (option html-disasm=N|all)'})]));
    dpanel.appendChild(dnote);
    function lineText(file, line) {
      var f = texts.get(file);
      return f && f.lines && f.lines[line - 1] !== undefined ? f.lines[line - 1] : '';
    }
    var dcols = [
      {key: 'count', label: 'count', num: true, value: function (r) { return r.hdr ? null : r.count; },
        text: function (r) { return r.hdr || !r.count ? '' : count(r.count); }},
      {key: 'percent', label: 'percent', num: true, value: function (r) { return r.hdr || r.count === null ? null : r.percent; },
        text: function (r) { return r.hdr || !r.count ? '' : fixed(r.percent, 2); }},
      {key: 'address', label: 'address', num: true, cls: 'num addr', value: function (r) { return r.hdr ? null : r.address; },
        text: function (r) { return r.hdr ? '' : hex(r.address); }},
      {key: 'instruction', label: 'instruction', cls: 'code', value: function (r) { return r.hdr || r.instruction; }}];
    var dtable = new VTable(dcols, [], {id: 'disasm-table', nosort: true, onclick: function (r) { if (r.file) showLine(r.file, r.line); }});
    dtable.box.style.maxHeight = '45vh';
    dpanel.appendChild(dtable.box);
    function disRows(list) {
      var out = [], lf = null, ll = -1;
      list.forEach(function (x) {
        var i = x.ins, d = x.d;
        if (i.file && (i.file !== lf || i.line !== ll))
          out.push({hdr: i.file.replace(/^.*\//, '') + ':' + i.line + '  ' + lineText(i.file, i.line).trim(), _cls: 'hdr', file: i.file, line: i.line});
        lf = i.file; ll = i.line;
        out.push({address: i.address, count: i.count, percent: i.count !== null && d.total ? 100 * i.count / d.total : 0,
          instruction: i.instruction, file: i.file, line: i.line, _cls: i.count === null ? 'joined' : null});
      });
      return out;
    }
    function showDisasm(i) {
      var d = D[i];
      if (!d) return;
      dsel.value = String(i);
      dnote.textContent = d.function + ' (' + d.arch + ', ' + hex(d.low) + '\u2013' + hex(d.high) + '): ' + count(d.count) + ' samples, ' +
        fixed(d.total ? 100 * d.count / d.total : 0, 2) + '% of all';
      dtable.all = disRows(d.instructions.map(function (x) { return {ins: x, d: d}; }));
      dtable.refresh();
    }
    function disasmOfLine(file, line) {
      var list = [];
      D.forEach(function (d) { d.instructions.forEach(function (x) { if (x.file === file && x.line === line) list.push({ins: x, d: d}); }); });
      if (!list.length) return false;
      dnote.textContent = 'The instructions of ' + file + ':' + line + ' in the embedded functions';
      dtable.all = disRows(list);
      dtable.refresh();
      return true;
    }
    dsel.addEventListener('change', function () { showDisasm(+dsel.value); onstate({fn: D[+dsel.value].function, file: null, line: null}); });
    var cur = null;
    function showFile(file) {
      cur = file;
      fileSel.value = file;
      var b = byFile.get(file) || {lines: new Map(), sum: 0};
      var f = texts.get(file), rows = [], n = 0;
      b.lines.forEach(function (l) { n = Math.max(n, l.line); });
      if (f && f.lines && !f.missing) n = Math.max(n, f.lines.length);
      fileNote.textContent = !f ? 'no text: not embedded in this page' : f.missing ? 'no text: ' + f.missing :
        (f.path && f.path !== file ? 'read from ' + f.path : '') + (f.partial ? (f.path && f.path !== file ? '; ' : '') +
        'the lines around the hottest lines only (the page holds at most 512 KiB of source text)' : '');
      var hasText = f && !f.missing;
      for (var ln = 1; ln <= n; ln++) {
        var l = b.lines.get(ln), key = file + '\n' + ln, inlx = inl.get(key);
        var tx = hasText ? f.lines[ln - 1] : null;
        if ((!hasText || tx === null) && !l && !inlx) continue;
        rows.push({line: ln, count: l ? l.count : 0, percent: l ? l.percent : 0, inl: inlx || null,
          text: tx || '', _cls: l && l.percent >= 10 ? 'hot' : null});
      }
      table.all = rows;
      table.refresh();
      document.getElementById('source-count').textContent = count(b.sum) + ' samples in ' + b.lines.size + ' lines';
    }
    function showLine(file, line, userClick) {
      if (!byFile.has(file) && !texts.has(file)) return false;
      if (cur !== file) showFile(file);
      var i = table.view.findIndex(function (r) { return r.line === line; });
      if (i >= 0) {
        table.selected = table.view[i];
        if (!userClick) table.box.scrollTop = Math.max(0, (i - 3) * ROW_H);
        table.draw();
      }
      disasmOfLine(file, line);
      onstate({file: file, line: line, fn: null});
      return true;
    }
    var funcs = new Map();
    (S.funcs || []).forEach(function (x) { if (S.files[x[1]]) funcs.set(x[0], [S.files[x[1]].file, x[2]]); });
    function showFunction(name) {
      var di = D.findIndex(function (d) { return d.function === name; });
      var at = funcs.get(name);
      if (at) showLine(at[0], at[1]);
      if (di >= 0) showDisasm(di);
      else if (at) dnote.textContent = name + ': not among the functions whose disassembly is embedded';
      onstate({fn: name, file: null, line: null});
      return !!at || di >= 0;
    }
    fileSel.addEventListener('change', function () { showFile(fileSel.value); onstate({file: fileSel.value, line: null, fn: null}); });
    if (order.length) showFile(order[0]);
    if (D.length) showDisasm(0);
    return {showFunction: showFunction, showLine: showLine};
  }

  /* ---- tabs ----------------------------------------------------------- */
  function tabs(app, defs) {
    var nav = el('nav', {cls: 'tabs', role: 'tablist'}), views = {}, cur = null;
    function show(id) {
      cur = id;
      defs.forEach(function (d) {
        var on = d.id === id;
        d.button.setAttribute('aria-selected', on ? 'true' : 'false');
        views[d.id].hidden = !on;
        if (on && d.onshow) d.onshow();
      });
    }
    defs.forEach(function (d) {
      d.button = el('button', {type: 'button', role: 'tab', id: 'tab-' + d.id, text: d.label, onclick: function () { show(d.id); }});
      nav.appendChild(d.button);
      views[d.id] = el('section', {cls: 'view', id: 'view-' + d.id, role: 'tabpanel'});
    });
    app.appendChild(nav);
    defs.forEach(function (d) { app.appendChild(views[d.id]); });
    return {views: views, show: show, current: function () { return cur; }};
  }

  /* rows as arrays (flat.columns) to row objects */
  function rowObjects(flat, data) {
    var cols = flat.columns, rate = flat.rate_hz;
    return data.map(function (a) {
      var r = {};
      for (var i = 0; i < cols.length; i++) r[cols[i]] = a[i];
      if (rate) r.self_seconds = r.count / rate;
      return r;
    });
  }
  function flatRows(flat) {
    if (!flat.data) return;
    flat.rows = rowObjects(flat, flat.data);
    flat.data = null;
  }

  /* The first view from D (#pc-data: the header and the top rows of the
   * flat table); the returned function completes the page with R
   * (#pc-data-rest: the other rows and the other views' data), which
   * main() reads after the first view is on the screen. */
  /* The page's state in the URL fragment, so that a link reopens the
   * same view: "#VIEW" or "#view=VIEW&fn=NAME&file=FILE&line=N" (and the
   * transforms); read once, written on every change. */
  function readState() {
    var h = (location.hash || '').slice(1), st = {};
    if (!h) return st;
    if (h.indexOf('=') < 0) { st.view = decodeURIComponent(h); return st; }
    new URLSearchParams(h).forEach(function (v, k) { st[k] = v; });
    if (st.line) st.line = +st.line;
    return st;
  }
  function writeState(st) {
    var q = new URLSearchParams();
    Object.keys(st).forEach(function (k) { if (st[k] !== null && st[k] !== undefined && st[k] !== '') q.set(k, String(st[k])); });
    var h = '#' + q.toString();
    if (h !== location.hash) history.replaceState(null, '', h === '#' ? location.pathname + location.search : h);
  }

  /* The first view from D (#pc-data: the header and the top rows of the
   * flat table); the returned function completes the page with R
   * (#pc-data-rest: the other rows and the other views' data), which
   * main() reads after the first view is on the screen. */
  function profilePage(app, D) {
    var flat = D.flat;
    flatRows(flat);
    header(app, flat);
    var flame = null, haveRest = false, source = null, sourcePromise = null;
    var state = readState(), ready = false;
    function setState(ch) {
      for (var k in ch) state[k] = ch[k];
      if (ready) writeState(state);
    }
    /* the source view (the text of every sampled file, the
     * disassembly: #pc-data-src, read when its tab is first shown) */
    function loadSource() {
      if (!haveRest) return Promise.resolve(null);
      if (sourcePromise) return sourcePromise;
      var e = document.getElementById('pc-data-src');
      sourcePromise = (e ? readRest(e) : Promise.resolve({})).then(function (S) {
        source = sourceView(T.views.source, D.source, D.source_error, S, function (ch) { setState(ch); });
        return source;
      });
      sourcePromise.catch(failed);
      return sourcePromise;
    }
    var T = tabs(app, [
      {id: 'flat', label: 'Flat profile'},
      {id: 'regions', label: 'Regions'},
      {id: 'flame', label: 'Call graph', onshow: function () { ensureTrees(); if (flame) flame.show(); }},
      {id: 'tree', label: 'Call tree', onshow: function () { ensureTrees(); }},
      {id: 'source', label: 'Source', onshow: loadSource}]);
    /* the transforms apply to the icicle and the call trees */
    var bar = transformsBar(function (tf) { applyTransforms(tf); });
    bar.box.hidden = true;
    T.views.flat.parentNode.insertBefore(bar.box, T.views.flat);
    var show = T.show, ctree = null, baseTree = null;
    T.show = function (id) {
      bar.box.hidden = id !== 'flame' && id !== 'tree';
      show(id);
      setState({view: id});
    };
    /* the trees are built when a view of them is first shown */
    var treesBuilt = false;
    function ensureTrees() { if (!treesBuilt && flame && flame.F) applyTransforms(bar.T); }
    function applyTransforms(tf) {
      setState({focus: tf.focus, ignore: tf.ignore, hide: tf.hide, merge: tf.merge.length ? JSON.stringify(tf.merge) : null, rec: tf.rec ? 1 : null});
      if (!flame || !flame.F) return;
      if (!baseTree) baseTree = buildTree(flame.F);
      treesBuilt = true;
      var t = transformsActive(tf) ? transformTree(flame.F, baseTree, tf) : baseTree;
      bar.status.textContent = transformsActive(tf) ? 'kept: ' + fixed(baseTree.root.v ? 100 * t.root.v / baseTree.root.v : 0, 2) +
        '% of the samples in the call paths' + (flame.F.elided ? ' (of the frames in this page)' : '') : '';
      flame.setTree(t);
      ctree.setTree(t, baseTree.root.v);
    }
    var select = function (name) {
      if (!flame) return;
      flame.selected = name;
      callsPanel(flame.calls || el('div'), D.calls, name, select, openSource);
      if (flame.built) flame.draw();
      if (ctree) ctree.select(name);
      setState({fn: name});
    };
    /* a function's lines and disassembly in the Source tab */
    function openSource(name) {
      if (haveRest && !D.source) { T.show('flame'); return Promise.resolve(); }
      T.show('source');
      return loadSource().then(function (s) { if (s) s.showFunction(name); });
    }
    var table = flatView(T.views.flat, flat, function (name) { select(name); openSource(name); });
    show('flat');
    return function (R) {
      for (var key in R) if (key !== 'flat_data') D[key] = R[key];
      if (R.flat_data && R.flat_data.length) table.addRows(rowObjects(flat, R.flat_data));
      flame = new FlameView(T.views.flame, D.flame, D.flame_error, flat.rate_hz, select);
      ctree = new CallTreeView(T.views.tree, D.flame, D.flame_error, flat, function (name) { select(name); });
      ctree.onstate = function (ch) { setState(ch); };
      ctree.onmerge = function (name) { bar.merge(name); };
      ctree.onfocus = function (name) { bar.focusOn(name); };
      regionsView(T.views.regions, D.regions, D.regions_error);
      haveRest = true;
      if (D.calls) {
        D.calls._rate = flat.rate_hz || 0;
        var inc = new Map();
        D.calls.nodes.forEach(function (n) { if (n[0] !== null && !n[1] && !inc.has(n[0])) inc.set(n[0], n[5] + n[6]); });
        if (table.setInclusive) table.setInclusive(inc);
      }
      if ((!D.calls || !D.calls.edges.length) && flame.calls)
        flame.calls.appendChild(el('p', {cls: 'note', text: 'No caller/callee tables: ' + (D.calls_error || 'the capture has no call arcs')}));
      /* the view the address names, unless the user chose one while the
       * rest was read; shown again, so that its view is built now */
      var want = state.view, cur = T.current();
      var view = T.views[want] && cur === 'flat' ? want : cur;
      var st0 = {fn: state.fn, file: state.file, line: state.line};
      if (state.mode && ctree.radios && ctree.radios[state.mode]) ctree.mode = state.mode;
      bar.set(state);
      ready = true;
      T.show(view);
      if (st0.fn && view !== 'source') select(st0.fn);
      if (view === 'source')
        return loadSource().then(function (s) {
          if (!s) return;
          if (st0.file && st0.line) s.showLine(st0.file, st0.line);
          else if (st0.fn) s.showFunction(st0.fn);
        });
      return null;
    };
  }

  /* ---- diff ----------------------------------------------------------- */
  function diffPage(app, D) {
    var d = D.diff;
    app.appendChild(el('h1', {id: 'title', text: 'Diff of ' + sourcesText(d.base.sources)}));
    app.appendChild(el('p', {cls: 'facts'}, ['to ', el('b', {text: sourcesText(d.new.sources)})]));
    app.appendChild(el('p', {cls: 'facts', id: 'samples'}, ['Samples: ', el('b', {text: count(d.base.samples)}), ' before, ',
      el('b', {text: count(d.new.samples)}), ' after']));
    if (d.filters) {
      var fl = [];
      ['focus', 'ignore', 'hide'].forEach(function (f) { if (d.filters[f] !== null) fl.push(f + ' ' + d.filters[f]); });
      app.appendChild(el('p', {cls: 'facts', id: 'filters'}, ['Filters: ', el('b', {text: fl.join(', ')}),
        ' (the symbols they keep are tested; shares of all samples)']));
    }
    app.appendChild(el('p', {cls: 'facts', id: 'test'}, [d.exact
      ? 'Counts are exact (not samples): changes are shown without intervals or tests'
      : 'Test: two-proportion z-test, ' + (d.correction === 'holm' ? 'Holm' : 'Benjamini-Hochberg') + ' correction over ' +
        d.tested + ' symbols, ' + d.confidence + '% level; ' + d.significant + ' significant']));
    if (!d.exact)
      app.appendChild(el('p', {cls: 'facts', id: 'intervals'}, [d.intervals === 'simultaneous'
        ? d.confidence + '% simultaneous intervals (Bonferroni; a significant row\'s cut at 0)'
        : d.confidence + '% false-coverage-rate intervals (Benjamini-Yekutieli)',
        '; unchanged: the interval within \u00b1' + d.threshold_pp + ' pp; MDE at ' + d.power + '% power; unresolved (+N): about N more samples resolve it']));
    app.appendChild(el('p', {cls: 'facts'}, [el('span', {cls: 'swatch', style: 'background:var(--up)'}), 'slower (significant: larger share after)',
      el('span', {cls: 'swatch', style: 'background:var(--down)'}), 'faster (significant: smaller share after)',
      el('span', {cls: 'swatch', style: 'background:var(--ns)'}), 'not significant; ', el('b', {text: '*'}), ' significant']));
    var rows = d.rows || [];
    var maxc = 0;
    /* only significant changes are coloured: red slower, blue faster */
    function tone(r) { return !r ? 'ns' : !r.significant ? 'ns' : r.change_pp > 0 ? 'slower' : r.change_pp < 0 ? 'faster' : 'ns'; }
    rows.forEach(function (r) { maxc = Math.max(maxc, Math.abs(r.change_pp)); r._cls = r.significant ? 'sig ' + tone(r) : 'ns'; });
    function changeCell(td, r) {
      var c = r.change_pp, t = tone(r);
      td.className = 'num ' + (t === 'slower' ? 'up' : t === 'faster' ? 'down' : 'ns');
      td.textContent = (c > 0 ? '+' : '') + c.toFixed(2);
      td.setAttribute('data-v', String(c));
      if (maxc > 0 && c && t !== 'ns') td.style.background = (c > 0 ? 'rgba(198,40,40,' : 'rgba(30,95,184,') + (0.08 + 0.32 * Math.abs(c) / maxc).toFixed(3) + ')';
    }
    function ciEnd(v) { return v === 0 ? '0' : (v > 0 ? '+' : '') + fixed(v, 2); }
    var cols = [
      {key: 'symbol', label: 'symbol', cls: 'sym', value: function (r) { return r.symbol; }},
      {key: 'before_count', label: 'before', num: true, value: function (r) { return r.before_count; }, text: function (r) { return count(r.before_count); }},
      {key: 'before_percent', label: 'before %', num: true, value: function (r) { return r.before_percent; }, text: function (r) { return fixed(r.before_percent, 2); }},
      {key: 'after_count', label: 'after', num: true, value: function (r) { return r.after_count; }, text: function (r) { return count(r.after_count); }},
      {key: 'after_percent', label: 'after %', num: true, value: function (r) { return r.after_percent; }, text: function (r) { return fixed(r.after_percent, 2); }},
      {key: 'change_pp', label: 'change (pp)', num: true, value: function (r) { return r.change_pp; }, render: changeCell}];
    if (!d.exact) cols.push(
      {key: 'ci', label: d.confidence + '% interval (pp)', num: true, value: function (r) { return r.ci_low_pp; },
        text: function (r) { return '[' + ciEnd(r.ci_low_pp) + ', ' + ciEnd(r.ci_high_pp) + ']'; }},
      {key: 'p_adjusted', label: 'p adjusted', num: true, value: function (r) { return r.p_adjusted; },
        text: function (r) { return typeof r.p_adjusted === 'number' ? Number(r.p_adjusted.toPrecision(3)).toString() : ''; }},
      {key: 'mde_pp', label: 'MDE (pp)', num: true, value: function (r) { return r.mde_pp; }, text: function (r) { return fixed(r.mde_pp, 2); }},
      {key: 'significant', label: 'sig.', value: function (r) { return r.significant ? 1 : 0; }, sort: function (r) { return r.significant ? 1 : 0; },
        cls: 'sigmark', text: function (r) { return r.significant ? '*' : ''; }});
    cols.push({key: 'verdict', label: 'verdict', value: function (r) { return r.verdict; },
      text: function (r) { return r.verdict + (typeof r.more_samples === 'number' ? ' (+' + r.more_samples + ')' : ''); }});
    var table = new VTable(cols, rows, {id: 'diff-table'});
    var only = el('input', {type: 'checkbox', id: 'diff-significant'});
    var counter = el('span', {id: 'diff-count', cls: 'facts'});
    var fc = filterControls(table, 'diff', function (r) { return r.symbol; }, function (r) { return !only.checked || r.significant; }, counter);
    only.addEventListener('change', fc.apply);
    app.appendChild(el('div', {cls: 'controls'}, fc.nodes.concat([el('label', null, [only, ' only significant']), counter])));
    app.appendChild(table.box);
    fc.apply();
    diffIcicle(app, D, rows, tone);
    /* both flat profiles side by side */
    function side(f, err, title, id) {
      var box = el('div', null, [el('h2', {text: title})]);
      if (!f) { box.appendChild(el('p', {cls: 'note', text: err || 'not available'})); return box; }
      box.appendChild(el('p', {cls: 'facts', text: sourcesText(f.sources)}));
      var t = new VTable([
        {key: 'rank', label: 'rank', num: true, value: function (r) { return r.rank; }},
        {key: 'symbol', label: 'symbol', cls: 'sym', value: function (r) { return r.symbol; }},
        {key: 'count', label: 'count', num: true, value: function (r) { return r.count; }, text: function (r) { return count(r.count); }},
        {key: 'percent', label: 'percent', num: true, value: function (r) { return r.percent; }, text: function (r) { return fixed(r.percent, 2); }}],
        f.rows || [], {id: id, height: '40vh'});
      box.appendChild(t.box);
      return box;
    }
    app.appendChild(el('div', {cls: 'cols'}, [side(D.base_flat, D.base_flat_error, 'before', 'base-flat'),
      side(D.new_flat, D.new_flat_error, 'after', 'new-flat')]));
  }

  /* The diff's icicle: the call paths of the capture after (widths: its
   * inclusive values), each frame coloured by its function's row of the
   * diff table (tone: red slower, blue faster, grey not significant or
   * not tested); the capture before's value of the same path in the
   * frame's title.  One element per frame (#diff-flame .fr), so that
   * names stay text. */
  function diffIcicle(app, D, rows, tone) {
    var box = el('div', null, [el('h2', {text: 'Call paths: after, coloured by the change of each function'})]);
    app.appendChild(box);
    var FB = D.base_paths && D.base_paths.flame, FA = D.new_paths && D.new_paths.flame;
    if (!FA) {
      box.appendChild(el('p', {cls: 'note', text: 'No call paths: ' + ((D.new_paths && D.new_paths.flame_error) || 'not available')}));
      return;
    }
    box.appendChild(el('p', {cls: 'facts', id: 'diff-flame-label', text: (FA.estimate
      ? 'estimate: stacks derived from call counts (gprof\'s assumption)' : 'no call arcs: one frame per function, as measured') +
      '; widths: the capture after, inclusive ' + FA.unit + '; colour: the function\'s own change in the table above'}));
    var byName = new Map();
    rows.forEach(function (r) { byName.set(r.symbol, r); });
    var A = buildTree(FA), B = FB ? buildTree(FB) : null;
    var total = A.root.v, btotal = B ? B.root.v : 0;
    var wrap = el('div', {id: 'diff-flame', style: 'height:' + (A.maxDepth * 18) + 'px'});
    var shown = 0, hidden = 0;
    function find(kids, name) { for (var i = 0; i < kids.length; i++) if (kids[i].name === name) return kids[i]; return null; }
    (function walk(n, b) {
      for (var i = 0; i < n.kids.length; i++) {
        var c = n.kids[i], cb = b ? find(b.kids, c.name) : null;
        var w = total > 0 ? c.v / total : 0;
        if (w < 0.001) { hidden++; continue; }
        var r = byName.get(c.name), t = tone(r);
        var before = btotal > 0 && cb ? 100 * cb.v / btotal : 0;
        var f = el('div', {cls: 'fr ' + t, 'data-name': c.name, 'data-tone': t, 'data-depth': c.depth,
          title: c.name + ': ' + before.toFixed(2) + '% before, ' + (100 * w).toFixed(2) + '% after' + (r ? '; ' + r.verdict : '; not tested'),
          style: 'left:' + (100 * c.x / total) + '%;width:' + (100 * w) + '%;top:' + ((c.depth - 1) * 18) + 'px'}, [c.name]);
        wrap.appendChild(f);
        shown++;
        walk(c, cb);
      }
    })(A.root, B ? B.root : null);
    box.appendChild(wrap);
    if (hidden) box.appendChild(el('p', {cls: 'note', text: hidden + ' frames narrower than 0.1% not drawn'}));
  }

  /* Builds the first view; returns the function that completes the
   * page (null: nothing more to read). */
  function main() {
    var app = document.getElementById('app');
    app.textContent = '';
    var D = JSON.parse(document.getElementById('pc-data').textContent);
    var more = null;
    if (D.kind === 'diff') diffPage(app, D);
    else more = profilePage(app, D);
    app.appendChild(el('p', {cls: 'note', text: 'profcore ' + D.version}));
    app.appendChild(el('div', {id: 'pc-errors'}));
    if (errors.length) document.getElementById('pc-errors').textContent = errors.join('\n');
    return more;
  }
  function failed(e) {
    if (!document.getElementById('pc-errors')) document.body.appendChild(el('div', {id: 'pc-errors'}));
    noteError(e && e.stack ? e.stack : e);
  }
  function ms() { return String(Math.round(performance.now())); }
  /* done: data-pc-ms is the time from navigation start to the complete
   * page, data-pc-ready says it is complete (tests wait for it) */
  function done() {
    document.documentElement.setAttribute('data-pc-ms', ms());
    document.documentElement.setAttribute('data-pc-ready', errors.length ? 'error' : 'ok');
  }
  var more = null;
  try { more = main(); } catch (e) { failed(e); }
  /* the first view is on the screen after the next frame: its time
   * (the mark "pc-first-view", data-pc-view-ms) is the bench's; then
   * the rest of the data is read */
  /* #pc-data-rest: JSON, gzip'ed and base64'ed (formats/html.c
   * put_rest); a promise of the object */
  function readRest(rest) {
    if (rest.getAttribute('type') === 'application/json') return Promise.resolve(JSON.parse(rest.textContent));
    if (typeof DecompressionStream === 'undefined')
      return Promise.reject(new Error('this browser has no DecompressionStream: it cannot read the rest of the report'));
    var bin = atob(rest.textContent.replace(/\s+/g, ''));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text().then(JSON.parse);
  }
  function complete() {
    var rest = document.getElementById('pc-data-rest');
    if (!more) { done(); return; }
    var p;
    try {
      if (!rest) throw new Error('the page has no #pc-data-rest: it is incomplete');
      p = readRest(rest);
    } catch (e) { failed(e); done(); return; }
    p.then(function (R) { more(R); }).catch(failed).then(done);
  }
  function firstViewShown() {
    performance.mark('pc-first-view');
    document.documentElement.setAttribute('data-pc-view-ms', ms());
    /* #pc-data-rest follows this script: parsed when the document is */
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', complete);
    else complete();
  }
  /* a hidden page (a background tab) draws no frames: it goes on at once */
  if (document.hidden) setTimeout(firstViewShown, 0);
  else requestAnimationFrame(function () { setTimeout(firstViewShown, 0); });
})();
