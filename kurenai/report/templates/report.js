// kurenai's report: charts, the record table (sort, filter, pages) and the aligned view.
// Every text from the data goes into the page as a text node, never as HTML.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const $ = (id) => document.getElementById(id);
  const N = D.count;
  const main = D.main;
  const others = D.baseline !== null ? [D.baseline] : D.systems.filter((s) => s !== main);
  const F = (system, k) => D.scores[system][k][2];  // per-record F of type k
  const fmt = (x) => (x === null || x === undefined ? "" : x.toFixed(4));

  // ---------------------------------------------------------------- charts
  const layout = (title, extra) => Object.assign(
    { title: { text: title }, margin: { t: 40, r: 10, b: 50, l: 50 }, barmode: "group" }, extra || {});
  const config = { displaylogo: false, responsive: true, modeBarButtonsToRemove: ["toImage"] };
  function charts() {
    const board = D.leaderboard;
    Plotly.newPlot("chart-intervals", D.types.map((t) => ({
      type: "scatter", mode: "markers", name: t,
      x: board.standings.map((s) => s.system),
      y: board.standings.map((s) => s.intervals[t][1]),
      error_y: { type: "data", symmetric: false,
        array: board.standings.map((s) => s.intervals[t][2] - s.intervals[t][1]),
        arrayminus: board.standings.map((s) => s.intervals[t][1] - s.intervals[t][0]) },
    })), layout("Mean F with bootstrap intervals", { yaxis: { title: { text: "F" } } }), config);
    const histograms = [];
    D.systems.forEach((s) => D.types.forEach((t, k) => histograms.push({
      type: "histogram", name: D.systems.length > 1 ? s + " " + t : t, x: F(s, k),
      xbins: { start: 0, end: 1.0001, size: 0.05 }, opacity: 0.6 })));
    Plotly.newPlot("chart-distributions", histograms,
      layout("F per record", { barmode: "overlay", xaxis: { title: { text: "F" } },
        yaxis: { title: { text: "records" } } }), config);
    for (const [key, title] of [["length", "Mean F by reference length (tokens)"],
                                ["ratio", "Mean F by length ratio (prediction / reference)"]]) {
      const b = D.buckets[key];
      const traces = [];
      D.systems.forEach((s) => D.types.forEach((t) => traces.push({
        type: "bar", name: D.systems.length > 1 ? s + " " + t : t, x: b.labels, y: b.means[s][t],
        customdata: b.counts[s], hovertemplate: "%{x}: %{y:.4f} (%{customdata} records)" })));
      Plotly.newPlot("chart-" + key, traces, layout(title, { yaxis: { title: { text: "F" } } }), config);
    }
  }

  // ---------------------------------------------------------------- table
  const columns = [{ key: "n", label: "#", value: (i) => i }, { key: "id", label: "id", text: true }];
  columns.push({ key: "target", label: "reference", text: true, wide: true });
  columns.push({ key: "prediction", label: main, text: true, wide: true });
  columns.push({ key: "length", label: "ref. tokens", value: (i) => D.lengths.target[i] });
  D.types.forEach((t, k) => {
    const f = F(main, k);
    columns.push({ key: "f" + k, label: t + " F", value: (i) => f[i], score: true });
    // One Δ column per type against the baseline (or the one other system): more
    // systems would crowd the table; the leaderboard compares them.
    if (others.length === 1) others.forEach((o) => {
      const g = F(o, k);
      // null: a record over a size limit, not scored
      const d = (i) => (f[i] === null || g[i] === null ? null : f[i] - g[i]);
      columns.push({ key: "d" + k + o, label: "Δ " + t + " vs " + o, value: d, score: true });
    });
  });
  const state = { order: null, sortKey: "n", descending: false, view: null, page: 0, size: 50, open: -1 };
  let haystack = null;  // lowercased id + texts, built on the first filter

  function head() {
    const row = $("table-head");
    row.textContent = "";
    for (const c of columns) {
      const th = document.createElement("th");
      th.textContent = c.label;
      th.dataset.key = c.key;
      th.className = c.wide ? "col-text" : c.key === "id" ? "col-id" : "col-num";
      if (c.key === state.sortKey) th.classList.add(state.descending ? "sorted-desc" : "sorted-asc");
      if (!c.text || c.key === "id") th.addEventListener("click", () => sortBy(c.key));
      row.appendChild(th);
    }
  }

  function sortBy(key) {
    state.descending = state.sortKey === key ? !state.descending : key !== "n";
    state.sortKey = key;
    const column = columns.find((c) => c.key === key);
    const order = new Uint32Array(N);
    for (let i = 0; i < N; i++) order[i] = i;
    if (key === "id") {
      const collator = new Intl.Collator(undefined, { numeric: true });
      const sorted = Array.from(order).sort((a, b) => collator.compare(D.ids[a], D.ids[b]) || a - b);
      order.set(sorted);
    } else {
      const v = new Float64Array(N);
      for (let i = 0; i < N; i++) {
        const x = column.value(i);
        v[i] = x === null ? -Infinity : x;  // not scored (over a size limit): lowest
      }
      order.sort((a, b) => v[a] - v[b] || a - b);
    }
    if (state.descending) order.reverse();
    state.order = order;
    refilter(true);
    head();
  }

  function refilter(keepPage) {
    const needle = $("filter").value.trim().toLowerCase();
    const k = Number($("type").value);
    const low = Number($("min").value || 0), high = Number($("max").value === "" ? 1 : $("max").value);
    const f = F(main, k);
    if (needle && haystack === null) buildHaystack();
    const order = state.order;
    const kept = new Uint32Array(N);
    let n = 0;
    for (let r = 0; r < N; r++) {
      const i = order === null ? r : order[r];
      if (f[i] < low || f[i] > high) continue;
      if (needle && haystack[i].indexOf(needle) < 0) continue;
      kept[n++] = i;
    }
    state.view = kept.subarray(0, n);
    if (!keepPage) state.page = 0;
    state.page = Math.min(state.page, Math.max(0, Math.ceil(n / state.size) - 1));
    render();
  }

  function buildHaystack() {
    haystack = new Array(N);
    for (let i = 0; i < N; i++) {
      haystack[i] = (D.ids[i] + "\u0000" + D.targets[i] + "\u0000" +
        D.systems.map((s) => D.predictions[s][i]).join("\u0000")).toLowerCase();
    }
  }

  function cell(row, text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
  }

  function render() {
    const body = $("rows");
    const view = state.view;
    const pages = Math.max(1, Math.ceil(view.length / state.size));
    const start = state.page * state.size;
    const fragment = document.createDocumentFragment();
    for (let r = start; r < Math.min(view.length, start + state.size); r++) {
      const i = view[r];
      const tr = document.createElement("tr");
      tr.dataset.i = String(i);
      if (i === state.open) tr.className = "open";
      for (const c of columns) {
        if (c.key === "id") cell(tr, D.ids[i]);
        else if (c.key === "target") cell(tr, D.targets[i].slice(0, 300), "text");
        else if (c.key === "prediction") cell(tr, D.predictions[main][i].slice(0, 300), "text");
        else if (c.score) cell(tr, fmt(c.value(i)), "num");
        else cell(tr, String(c.value(i)), "num");
      }
      fragment.appendChild(tr);
    }
    body.textContent = "";
    body.appendChild(fragment);
    $("page").textContent = "page " + (state.page + 1) + " of " + pages;
    $("shown").textContent = view.length + " of " + N + " records";
    $("prev").disabled = $("first").disabled = state.page === 0;
    $("next").disabled = $("last").disabled = state.page >= pages - 1;
  }

  function go(page) {
    state.page = Math.max(0, Math.min(page, Math.ceil(state.view.length / state.size) - 1));
    render();
  }

  // ---------------------------------------------------------------- aligned view
  let alignedType = 0;

  function marked(text, spans) {
    // spans: [start, end, ...] in UTF-16 units; overlapping ones are merged.
    const pairs = [];
    for (let k = 0; k < spans.length; k += 2) pairs.push([spans[k], spans[k + 1]]);
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const merged = [];
    for (const p of pairs) {
      const last = merged[merged.length - 1];
      if (last && p[0] < last[1]) last[1] = Math.max(last[1], p[1]);
      else merged.push(p.slice());
    }
    const box = document.createElement("div");
    box.className = "text";
    let at = 0;
    for (const [s, e] of merged) {
      if (s > at) box.appendChild(document.createTextNode(text.slice(at, s)));
      const mark = document.createElement("mark");
      mark.textContent = text.slice(s, e);
      box.appendChild(mark);
      at = e;
    }
    if (at < text.length) box.appendChild(document.createTextNode(text.slice(at)));
    return box;
  }

  function column(title, scoreLine, text, spans, id) {
    const div = document.createElement("div");
    div.id = id;
    const h = document.createElement("h3");
    h.textContent = title;
    div.appendChild(h);
    if (scoreLine) {
      const p = document.createElement("p");
      p.className = "score-line";
      p.textContent = scoreLine;
      div.appendChild(p);
    }
    div.appendChild(marked(text, spans));
    return div;
  }

  function openAligned(i) {
    state.open = i;
    const section = $("aligned");
    section.hidden = false;
    section.dataset.i = String(i);
    $("aligned-id").textContent = D.ids[i];
    const types = $("aligned-types");
    types.textContent = "";
    D.types.forEach((t, k) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = t;
      b.dataset.k = String(k);
      if (k === alignedType) b.className = "active";
      b.addEventListener("click", () => { alignedType = k; openAligned(i); });
      types.appendChild(b);
    });
    const t = D.types[alignedType];
    const found = D.highlights[String(i)];
    $("aligned-note").hidden = found !== undefined;
    $("aligned-costly").hidden = found !== null;
    const shown = [main, ...others];
    const columns = $("aligned-columns");
    columns.textContent = "";
    const spans = (s, side) => (found == null ? [] : found[s][t][side]);
    columns.appendChild(column("reference", "", D.targets[i], spans(main, 0), "aligned-target"));
    shown.forEach((s, n) => {
      const score = D.scores[s][alignedType];
      const line = t + ": P " + fmt(score[0][i]) + "  R " + fmt(score[1][i]) + "  F " + fmt(score[2][i]);
      columns.appendChild(column(s, line, D.predictions[s][i], spans(s, 1), "aligned-system-" + n));
    });
    render();
  }

  function extremes() {
    if (!D.comparison) return;
    const t = D.types[0];
    for (const key of ["improved", "regressed"]) {
      const list = $(key);
      const f = F(main, 0), g = F(D.baseline, 0);
      for (const i of D.comparison[t][key]) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.dataset.i = String(i);
        a.textContent = D.ids[i] + " (" + (f[i] - g[i] >= 0 ? "+" : "") + (f[i] - g[i]).toFixed(4) + ")";
        a.addEventListener("click", () => openAligned(i));
        li.appendChild(a);
        list.appendChild(li);
      }
    }
  }

  // ---------------------------------------------------------------- wiring
  let timer = 0;
  $("filter").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => refilter(false), 120); });
  for (const id of ["type", "min", "max"]) $(id).addEventListener("change", () => refilter(false));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.page - 1));
  $("next").addEventListener("click", () => go(state.page + 1));
  $("last").addEventListener("click", () => go(Infinity));
  $("page-size").addEventListener("change", () => { state.size = Number($("page-size").value); go(0); });
  $("rows").addEventListener("click", (event) => {
    const tr = event.target.closest("tr");
    if (tr) openAligned(Number(tr.dataset.i));
  });
  $("aligned-close").addEventListener("click", () => { $("aligned").hidden = true; state.open = -1; render(); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") $("aligned-close").click(); });

  head();
  refilter(false);
  extremes();
  charts();
  // Lowercase the texts for the filter once the page is drawn, not on the first keystroke.
  setTimeout(() => { if (haystack === null) buildHaystack(); }, 0);
  window.kurenaiReport = {
    data: D, state: state, open: openAligned, sortBy: sortBy, refilter: refilter,
    loadedAt: performance.now(),  // ms from the navigation's start to here
    ready: true,
  };
})();
