// The query page: the list of queries, and per query Spark's Streaming tab charts over epochs.
// Reads api/queries and api/query?key=K from the page's own server; renders text with textContent.
'use strict';

(() => {
  const LIVE_POLL_MS = 1000, IDLE_POLL_MS = 10000;
  const DURATION_ORDER = ['latestOffset', 'queryPlanning', 'getBatch', 'addBatch', 'commitOffsets',
    'walCommit'];
  const BACKLOG_METRICS = ['numFilesOutstanding', 'numBytesOutstanding', 'avgOffsetsBehindLatest',
    'maxOffsetsBehindLatest', 'minOffsetsBehindLatest', 'approximateQueueSize'];
  let timer = null;

  const $ = id => document.getElementById(id);
  const num = v => (typeof v === 'number' && isFinite(v) ? v : null);
  const time = t => (typeof t === 'string' ? Date.parse(t) : NaN);

  function node(tag, content, attrs) {
    const e = document.createElement(tag);
    if (content !== undefined && content !== null) e.textContent = String(content);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    return e;
  }

  async function getJson(path) {
    const r = await fetch(path, {cache: 'no-store'});
    if (!r.ok) throw new Error(path + ': ' + r.status + ' ' + (await r.text()));
    return r.json();
  }

  function schedule(fn, ms) {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  }

  function loaded(view, active) {
    document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
    document.body.dataset.view = view;
    document.body.dataset.active = String(active);
    document.body.dataset.state = 'loaded';
  }

  function failed(e) {
    $('error').textContent = String(e && e.message ? e.message : e);
    document.body.dataset.state = 'error';
  }

  // ---- the list ----
  async function showList() {
    try {
      const data = await getJson('api/queries');
      $('detail').hidden = true;
      $('list').hidden = false;
      const body = $('queries');
      body.textContent = '';
      data.queries.forEach(q => {
        const p = q.latest || {};
        const tr = document.createElement('tr');
        tr.dataset.key = q.key;
        const name = node('td');
        name.appendChild(node('a', q.name || '(unnamed)', {href: '#q=' + encodeURIComponent(q.key)}));
        tr.appendChild(name);
        tr.appendChild(node('td', q.active ? 'running' : 'finished', {class: q.active ? 'on' : 'off'}));
        tr.appendChild(node('td', p.batchId === undefined ? '-' : p.batchId));
        tr.appendChild(node('td', LsCharts.format(num(p.inputRowsPerSecond))));
        tr.appendChild(node('td', LsCharts.format(num(p.processedRowsPerSecond))));
        tr.appendChild(node('td', p.timestamp || '-'));
        tr.appendChild(node('td', q.location));
        body.appendChild(tr);
      });
      $('none').hidden = data.queries.length > 0;
      loaded('list', data.queries.some(q => q.active));
      schedule(route, LIVE_POLL_MS * 2);
    } catch (e) {
      failed(e);
      schedule(route, IDLE_POLL_MS);
    }
  }

  // ---- one query ----
  function series(progress, name, value) {
    return {name, values: progress.map(value)};
  }

  function union(progress, list) {
    const names = [];
    progress.forEach(p => list(p).forEach(n => { if (!names.includes(n)) names.push(n); }));
    return names;
  }

  function durationNames(progress) {
    const all = union(progress, p => Object.keys(p.durationMs || {}))
      .filter(n => n !== 'triggerExecution');
    const known = DURATION_ORDER.filter(n => all.includes(n));
    return known.concat(all.filter(n => !known.includes(n)));
  }

  function operators(progress) {
    return union(progress, p => (p.stateOperators || []).map(o => o.operatorName));
  }

  function operator(p, name) {
    return (p.stateOperators || []).find(o => o.operatorName === name) || {};
  }

  function sum(offsets) {
    if (!offsets || typeof offsets !== 'object') return null;
    const vals = Object.values(offsets);
    return vals.length && vals.every(v => typeof v === 'number') ? vals.reduce((a, b) => a + b, 0) : null;
  }

  // Per source: the backlog metrics it reports, else its offsets behind latest (latest - end).
  function backlog(progress) {
    const out = [];
    const sources = union(progress, p => (p.sources || []).map(s => s.description));
    sources.forEach(d => {
      const of = p => (p.sources || []).find(s => s.description === d) || {};
      const metrics = BACKLOG_METRICS.filter(m => progress.some(p => num((of(p).metrics || {})[m]) !== null));
      metrics.forEach(m => out.push(series(progress, d + ' ' + m, p => num((of(p).metrics || {})[m]))));
      if (!metrics.length) {
        out.push(series(progress, d + ' offsetsBehindLatest', p => {
          const latest = sum(of(p).latestOffset), end = sum(of(p).endOffset);
          return latest === null || end === null ? null : Math.max(0, latest - end);
        }));
      }
    });
    return out;
  }

  function charts(progress) {
    const xs = progress.map(p => p.batchId);
    const ops = operators(progress);
    return [
      {id: 'inputRate', title: 'Input rate vs process rate', unit: 'rows/s', kind: 'line', series: [
        series(progress, 'inputRowsPerSecond', p => num(p.inputRowsPerSecond)),
        series(progress, 'processedRowsPerSecond', p => num(p.processedRowsPerSecond))]},
      {id: 'inputRows', title: 'Input rows', unit: 'rows', kind: 'bars', series: [
        series(progress, 'numInputRows', p => num(p.numInputRows))]},
      {id: 'batchDuration', title: 'Batch duration', unit: 'ms', kind: 'line', series: [
        series(progress, 'batchDuration', p => num(p.batchDuration))]},
      {id: 'operationDuration', title: 'Operation duration (durationMs)', unit: 'ms', kind: 'stacked',
        series: durationNames(progress).map(n =>
          series(progress, n, p => num((p.durationMs || {})[n])))},
      {id: 'stateRows', title: 'State rows per operator', unit: 'rows', kind: 'line',
        note: 'no stateful operators', series: ops.map(n =>
          series(progress, n, p => num(operator(p, n).numRowsTotal)))},
      {id: 'stateMemory', title: 'State memory per operator', unit: 'bytes', kind: 'line',
        note: 'no stateful operators', series: ops.map(n =>
          series(progress, n, p => num(operator(p, n).memoryUsedBytes)))},
      {id: 'watermark', title: 'Watermark gap and event-time lag (behind the batch start)',
        unit: 'ms', kind: 'line', note: 'no watermark', series: [
          series(progress, 'watermarkGap', p => gap(p, (p.eventTime || {}).watermark)),
          series(progress, 'eventTimeLag', p => gap(p, (p.eventTime || {}).max))]},
      {id: 'backlog', title: 'Source backlog', unit: 'files / bytes / offsets', kind: 'line',
        note: 'the sources report no backlog', series: backlog(progress)},
    ].map(c => Object.assign({xs}, c));
  }

  function gap(p, instant) {
    const d = time(p.timestamp) - time(instant);
    return isFinite(d) ? d : null;
  }

  function facts(q) {
    const dl = $('facts');
    dl.textContent = '';
    [['query', q.name], ['id', q.id], ['run id', q.runId], ['app id', q.appId],
      ['trigger', q.trigger || 'not recorded in the checkpoint location'],
      ['status', q.active ? 'running' : 'finished'], ['checkpoint location', q.location],
      ['created', q.createdAt]].forEach(([k, v]) => {
      dl.appendChild(node('dt', k));
      dl.appendChild(node('dd', v === undefined || v === null ? '-' : v, {'data-fact': k}));
    });
  }

  async function showQuery(key) {
    try {
      const q = await getJson('api/query?key=' + encodeURIComponent(key));
      $('list').hidden = true;
      $('detail').hidden = false;
      $('title').textContent = q.name || '(unnamed)';
      document.title = (q.name || 'query') + ' - lakestream';
      facts(q);
      const box = $('charts');
      box.textContent = '';
      charts(q.progress).forEach(spec => {
        const div = node('div', null, {class: 'chart'});
        box.appendChild(div);
        LsCharts.draw(div, spec);
      });
      const latest = q.progress.length ? q.progress[q.progress.length - 1] : null;
      $('latest').textContent = latest ? JSON.stringify(latest, null, 2) : 'no progress reported yet';
      $('fingerprint').textContent = q.fingerprint ? JSON.stringify(q.fingerprint, null, 2) : '-';
      $('detail').dataset.batches = q.progress.map(p => p.batchId).join(',');
      loaded('query', q.active);
      schedule(route, q.active ? LIVE_POLL_MS : IDLE_POLL_MS);
    } catch (e) {
      failed(e);
      schedule(route, IDLE_POLL_MS);
    }
  }

  function route() {
    const m = /^#q=([0-9a-f]+)$/.exec(location.hash);
    if (m) showQuery(m[1]); else showList();
  }

  window.addEventListener('hashchange', route);
  document.addEventListener('DOMContentLoaded', route);
})();
