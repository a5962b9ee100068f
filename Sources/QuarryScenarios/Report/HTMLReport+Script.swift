import Quarry
extension HTMLReport {
  /// The page's script: filters the summary (also from `?area=A&status=S&q=TEXT`) and draws the
  /// chosen scenario's timelines (`#ID`, or `#all` for every scenario) as inline SVG, from the JSON in `#quarry-data`. It writes only
  /// with `textContent` and attributes, never markup. On `<body>` it records
  /// `data-rendered` (scenarios drawn), `data-errors` (errors caught by `window.onerror` and
  /// unhandled rejections) and `data-ready`, which `Scripts/html-report-check.sh` reads.
  static let script = #"""
    (function () {
      'use strict';
      var body = document.body;
      var errors = 0;
      function recordError() { errors += 1; body.setAttribute('data-errors', String(errors)); }
      window.onerror = function () { recordError(); return false; };
      window.addEventListener('unhandledrejection', recordError);
      body.setAttribute('data-errors', '0');

      var data = JSON.parse(document.getElementById('quarry-data').textContent);
      var byId = {};
      data.scenarios.forEach(function (s) { byId[s.id] = s; });
      // The SVG namespace, read from the legend's inline SVG (the page names no URL).
      var SVG = document.querySelector('.legend svg').namespaceURI;
      var LANE = 24, TOP = 20, LABEL = 200;

      function el(name, cls, text) {
        var node = document.createElement(name);
        if (cls) node.className = cls;
        if (text !== undefined) node.textContent = text;
        return node;
      }
      function svg(name, attrs, parent) {
        var node = document.createElementNS(SVG, name);
        for (var k in attrs) node.setAttribute(k, String(attrs[k]));
        if (parent) parent.appendChild(node);
        return node;
      }
      function token(value) { return String(value).replace(/[^A-Za-z0-9_-]/g, ''); }
      function title(node, text) { svg('title', {}, node).textContent = text; }

      // Short scenarios are stretched to the page's width (at most 5 times); long ones scroll.
      function scaleOf(s) {
        var room = (detail.clientWidth || 1200) - LABEL - 60;
        return Math.max(1, Math.min(5, room / s.axis.w));
      }

      function drawSide(s, side) {
        var wrap = el('div', 'timeline');
        var k = scaleOf(s);
        function X(x) { return LABEL + x * k; }
        var width = X(s.axis.w) + 10, height = TOP + side.lanes.length * LANE + 6;
        var root = svg('svg', { width: width, height: height, role: 'img' }, wrap);
        title(root, s.id + ': ' + side.name);
        var lastX = -1e9;
        s.axis.marks.forEach(function (m) {
          var x = X(m[0]);
          if (x - lastX < 40) return;
          lastX = x;
          svg('line', { x1: x, x2: x, y1: TOP - 4, y2: height, 'class': 'grid' }, root);
          svg('text', { x: x + 2, y: 12, 'class': 'axis-label' }, root).textContent = 't=' + m[1];
        });
        side.lanes.forEach(function (lane, i) {
          var y = TOP + i * LANE;
          svg('rect', { x: 0, y: y, width: width, height: LANE, 'class': 'lane-bg' + (i % 2 ? ' odd' : '') }, root);
          var name = lane.k === 'steps' ? 'steps' : lane.k + ' ' + lane.n;
          var label = svg('text', { x: 4, y: y + 15, 'class': 'lane-label' }, root);
          label.textContent = name.length > 30 ? name.slice(0, 29) + '\u2026' : name;
          title(label, name);
          lane.b.forEach(function (b) {
            var w = Math.max((b[1] - b[0]) * k, 1);
            var top = svg('rect', { x: X(b[0]), y: y + 4, width: w, height: 9, 'class': 'st st-' + token(b[2]) }, root);
            title(top, name + ': ' + b[2] + ' / ' + b[3]);
            svg('rect', { x: X(b[0]), y: y + 14, width: w, height: 5, 'class': 'ac ac-' + token(b[3]) }, root);
          });
          lane.e.forEach(function (e) {
            var x = X(e[0]), node;
            if (e[2] === 'check') {
              node = svg('path', { d: 'M' + x + ' ' + (y + 4) + ' l6 8 l-6 8 l-6 -8 z', 'class': 'check' + (e[5] ? ' failed' : '') }, root);
            } else {
              node = svg('line', { x1: x, x2: x, y1: y + 2, y2: y + LANE - 2, 'class': 'tk tk-' + token(e[2]) + (e[5] ? ' failed' : '') }, root);
            }
            if (s.diff && e[1] === s.diff.line) {
              svg('circle', { cx: x, cy: y + LANE / 2, r: 7, 'class': 'diffmark' }, root);
            }
            title(node, (e[1] ? 'line ' + e[1] + ': ' : '') + e[3] + '\n' + e[4]);
          });
        });
        if (s.diff) {
          var dx = X(s.diff.x);
          var line = svg('line', { x1: dx, x2: dx, y1: TOP - 6, y2: height, 'class': 'diffline' }, root);
          title(line, 'first difference: line ' + s.diff.line);
        }
        return wrap;
      }

      function drawWindow(s) {
        var table = el('table', 'window');
        var head = el('tr');
        head.appendChild(el('th', 'n', 'line'));
        head.appendChild(el('th', null, 'TanStack'));
        head.appendChild(el('th', null, 'Swift'));
        table.appendChild(head);
        var count = Math.max(s.window.swift.length, s.window.tanstack.length);
        for (var i = 0; i < count; i++) {
          var n = s.window.from + i;
          var row = el('tr', n === s.diff.line ? 'first' : null);
          row.appendChild(el('td', 'n', String(n)));
          row.appendChild(el('td', null, i < s.window.tanstack.length ? s.window.tanstack[i] : '(end of trace)'));
          row.appendChild(el('td', null, i < s.window.swift.length ? s.window.swift[i] : '(end of trace)'));
          table.appendChild(row);
        }
        return table;
      }

      function drawScenario(s, single) {
        var section = el('section', 'scenario');
        section.setAttribute('data-id', s.id);
        var h = el('h2');
        h.appendChild(document.createTextNode(s.id + ' '));
        h.appendChild(el('span', 'badge c-' + token(s.category), s.category));
        h.appendChild(document.createTextNode(' ' + s.label + ' \u00b7 ' + s.title));
        section.appendChild(h);
        if (s.note) section.appendChild(el('p', 'hint', s.note));
        if (s.details.length) section.appendChild(el('div', 'details mono', s.details.join('\n')));
        if (s.diff) {
          var d = el('div', 'diff');
          d.appendChild(el('strong', null, 'First difference at line ' + s.diff.line + (s.diff.t !== undefined ? ' (t=' + s.diff.t + ')' : '')));
          d.appendChild(el('div', 'mono', 'TanStack: ' + (s.diff.tanstack !== undefined ? s.diff.tanstack : '(end of trace)')));
          d.appendChild(el('div', 'mono', 'Swift:    ' + (s.diff.swift !== undefined ? s.diff.swift : '(end of trace)')));
          section.appendChild(d);
        }
        if (s.window) section.appendChild(drawWindow(s));
        s.sides.forEach(function (side) {
          section.appendChild(el('h3', null, side.name + ' \u00b7 ' + side.events + ' trace lines'));
          if (side.omitted) section.appendChild(el('p', 'omitted', side.omitted + ' later lines not drawn'));
          section.appendChild(drawSide(s, side));
          section.appendChild(drawTrace(s, side, single && !s.diff));
        });
        return section;
      }

      // The trace lines drawn, in order (every line is a tick on a lane, an observer's cache event on two), folded.
      function drawTrace(s, side, open) {
        var lines = [], seen = {};
        side.lanes.forEach(function (lane) {
          lane.e.forEach(function (e) {
            if (e[1] > 0 && !seen[e[1]]) { seen[e[1]] = true; lines.push(e); }
          });
        });
        lines.sort(function (a, b) { return a[1] - b[1]; });
        var box = el('details', 'trace');
        if (open) box.open = true;
        box.appendChild(el('summary', null, side.name + ' trace'));
        var table = el('table', 'window');
        lines.forEach(function (e) {
          var row = el('tr', s.diff && e[1] === s.diff.line ? 'first' : null);
          row.appendChild(el('td', 'n', String(e[1])));
          row.appendChild(el('td', null, e[4]));
          table.appendChild(row);
        });
        box.appendChild(table);
        return box;
      }

      var detail = document.getElementById('detail');
      var rows = Array.prototype.slice.call(document.querySelectorAll('#summary tbody tr'));
      function show() {
        var wanted = decodeURIComponent(location.hash.slice(1));
        var list = wanted === 'all' ? data.scenarios : (byId[wanted] ? [byId[wanted]] : []);
        while (detail.firstChild) detail.removeChild(detail.firstChild);
        list.forEach(function (s) { detail.appendChild(drawScenario(s, list.length === 1)); });
        if (!list.length) detail.appendChild(el('p', 'hint', 'Choose a scenario in the table to see its timeline.'));
        rows.forEach(function (r) {
          var selected = r.getAttribute('data-id') === wanted;
          r.classList.toggle('selected', selected);
          if (selected) r.parentNode.parentNode.parentNode.scrollTop = Math.max(0, r.offsetTop - 60);
        });
        body.setAttribute('data-rendered', String(list.length));
      }
      rows.forEach(function (r) {
        r.addEventListener('click', function () { location.hash = encodeURIComponent(r.getAttribute('data-id')); });
      });

      var area = document.getElementById('filter-area');
      var status = document.getElementById('filter-status');
      var text = document.getElementById('filter-text');
      var count = document.getElementById('filter-count');
      function filter() {
        var shown = 0, q = text.value.toLowerCase();
        rows.forEach(function (r) {
          var ok = (!area.value || r.getAttribute('data-area') === area.value)
            && (!status.value || r.getAttribute('data-status') === status.value)
            && (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
          r.hidden = !ok;
          if (ok) shown += 1;
        });
        count.textContent = shown + ' of ' + rows.length + ' shown';
      }
      [area, status, text].forEach(function (c) { c.addEventListener('input', filter); c.addEventListener('change', filter); });
      // `?area=A&status=S&q=TEXT` sets the filters on load, so a filtered view can be linked.
      var params = new URLSearchParams(location.search);
      if (params.has('area')) area.value = params.get('area');
      if (params.has('status')) status.value = params.get('status');
      if (params.has('q')) text.value = params.get('q');
      window.addEventListener('hashchange', show);
      filter();
      show();
      body.setAttribute('data-ready', '1');
    })();
    """#
}
