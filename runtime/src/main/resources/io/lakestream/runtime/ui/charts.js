// A small SVG chart renderer for the query page: lines, bars and stacked bars over epochs.
// Built with DOM calls only (createElementNS, textContent): no text is parsed as markup.
// Every drawn value carries data-series, data-batch and data-value, and a <title> for hovering.
'use strict';

const LsCharts = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const W = 560, H = 230, L = 64, R = 12, T = 24, B = 28;
  const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
    '#7f7f7f', '#bcbd22', '#17becf'];

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (parent) parent.appendChild(e);
    return e;
  }

  function text(parent, x, y, content, attrs) {
    const t = el('text', Object.assign({x, y}, attrs || {}), parent);
    t.textContent = content;
    return t;
  }

  function format(v) {
    if (v === null || v === undefined || !isFinite(v)) return '-';
    const a = Math.abs(v);
    if (a >= 1e9) return (v / 1e9).toFixed(1) + 'G';
    if (a >= 1e6) return (v / 1e6).toFixed(1) + 'M';
    if (a >= 1e4) return (v / 1e3).toFixed(1) + 'k';
    return Number.isInteger(v) ? String(v) : v.toFixed(a < 10 ? 2 : 1);
  }

  // The highest value drawn: per epoch the sum of the series when stacked, else the largest one.
  function top(spec) {
    let max = 0;
    spec.xs.forEach((_, i) => {
      const vals = spec.series.map(s => s.values[i]).filter(v => typeof v === 'number' && isFinite(v));
      const v = spec.kind === 'stacked' ? vals.reduce((a, b) => a + b, 0) : Math.max(0, ...vals);
      max = Math.max(max, v);
    });
    return max > 0 ? max : 1;
  }

  function point(svg, series, batch, value, unit) {
    const title = el('title', {}, svg.lastChild);
    title.textContent = series + ' @ batch ' + batch + ': ' + format(value) + (unit ? ' ' + unit : '');
  }

  function axes(svg, spec, max) {
    const g = el('g', {class: 'axes'}, svg);
    el('line', {x1: L, y1: H - B, x2: W - R, y2: H - B}, g);
    el('line', {x1: L, y1: T, x2: L, y2: H - B}, g);
    text(g, L - 4, T + 8, format(max), {'text-anchor': 'end'});
    text(g, L - 4, H - B, '0', {'text-anchor': 'end'});
    if (spec.unit) text(g, 4, 12, spec.unit);
    if (spec.xs.length) {
      text(g, L, H - 8, 'batch ' + spec.xs[0]);
      text(g, W - R, H - 8, 'batch ' + spec.xs[spec.xs.length - 1], {'text-anchor': 'end'});
    }
  }

  function legend(container, spec) {
    const ul = document.createElement('ul');
    ul.className = 'legend';
    spec.series.forEach((s, i) => {
      if (!s.values.some(v => typeof v === 'number' && isFinite(v))) return;
      const li = document.createElement('li');
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = COLORS[i % COLORS.length];
      li.appendChild(swatch);
      li.appendChild(document.createTextNode(s.name));
      ul.appendChild(li);
    });
    container.appendChild(ul);
  }

  function drawLines(svg, spec, x, y) {
    spec.series.forEach((s, si) => {
      const color = COLORS[si % COLORS.length];
      const pts = [];
      spec.xs.forEach((b, i) => {
        const v = s.values[i];
        if (typeof v !== 'number' || !isFinite(v)) return;
        pts.push(x(i) + ',' + y(v));
        el('circle', {cx: x(i), cy: y(v), r: 3, fill: color, class: 'pt',
          'data-series': s.name, 'data-batch': b, 'data-value': v}, svg);
        point(svg, s.name, b, v, spec.unit);
      });
      if (pts.length > 1) {
        el('polyline', {points: pts.join(' '), fill: 'none', stroke: color, 'stroke-width': 1.5}, svg);
      }
    });
  }

  function drawBars(svg, spec, x, y, step) {
    const n = spec.kind === 'stacked' ? 1 : spec.series.length;
    const width = Math.max(1, step * 0.8 / n);
    spec.xs.forEach((b, i) => {
      let base = 0;
      spec.series.forEach((s, si) => {
        const v = s.values[i];
        if (typeof v !== 'number' || !isFinite(v)) return;
        const left = x(i) - step * 0.4 + (spec.kind === 'stacked' ? 0 : si * width);
        const y0 = y(base + v), y1 = y(base);
        el('rect', {x: left, y: y0, width, height: Math.max(0, y1 - y0),
          fill: COLORS[si % COLORS.length], class: 'pt',
          'data-series': s.name, 'data-batch': b, 'data-value': v}, svg);
        point(svg, s.name, b, v, spec.unit);
        if (spec.kind === 'stacked') base += v;
      });
    });
  }

  // Draws spec = {id, title, unit, kind: 'line'|'bars'|'stacked', xs: [batchId], series:
  // [{name, values: [number|null per x]}], note} into container (emptied first).
  function draw(container, spec) {
    container.textContent = '';
    const h = document.createElement('h3');
    h.textContent = spec.title;
    container.appendChild(h);
    const svg = el('svg', {viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img',
      'data-chart': spec.id, 'data-kind': spec.kind}, container);
    el('title', {}, svg).textContent = spec.title;
    const drawn = spec.series.some(s => s.values.some(v => typeof v === 'number' && isFinite(v)));
    if (!drawn) {
      text(svg, W / 2, H / 2, spec.note || 'nothing reported', {'text-anchor': 'middle', class: 'note'});
      svg.setAttribute('data-points', '0');
      return;
    }
    const max = top(spec);
    const n = spec.xs.length;
    const step = (W - L - R) / Math.max(1, n);
    const x = i => L + step * (i + 0.5);
    const y = v => H - B - (H - B - T) * (v / max);
    axes(svg, spec, max);
    if (spec.kind === 'line') drawLines(svg, spec, x, y); else drawBars(svg, spec, x, y, step);
    svg.setAttribute('data-points', String(svg.querySelectorAll('.pt').length));
    legend(container, spec);
  }

  return {draw, format};
})();
