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
  // A system's name, saying which one is the baseline unless its name does.
  const named = (s) => (s === D.baseline && !/baseline/i.test(s) ? s + " (baseline)" : s);
  const fmt = (x) => (x === null || x === undefined ? "" : x.toFixed(4));

  // ---------------------------------------------------------------- charts
  // The layout rule is kurenaiCharts' (charts.js: titles are the figures'
  // captions, outside the plot).  Each system keeps one colour on every
  // chart; one legend of the page names them.
  const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                   "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  const colour = (s) => PALETTE[D.systems.indexOf(s) % PALETTE.length];
  const { layout, config, intervals, text } = window.kurenaiCharts;
  const BIN = 0.05, BINS = 20;

  function legend(id) {
    const box = $(id);
    box.textContent = "";
    box.hidden = D.systems.length < 2;
    for (const s of D.systems) {
      const item = document.createElement("span");
      item.className = "legend-item";
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = colour(s);
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(named(s)));
      box.appendChild(item);
    }
  }

  function binCounts(values) {
    // Bins [0, 0.05), ..., [0.95, 1]: a perfect F counts in the last one.
    const counts = new Array(BINS).fill(0);
    for (const x of values) {
      if (x === null) continue;  // over a size limit: not scored
      counts[Math.min(BINS - 1, Math.max(0, Math.floor(x / BIN + 1e-9)))] += 1;
    }
    return counts;
  }

  function distributions() {
    // Small multiples: one chart per type, the systems side by side in each bin.
    const box = $("chart-distributions");
    box.textContent = "";
    // Rows of at most 4 charts (3 with several systems' bars), as even as they go.
    const widest = D.systems.length > 2 ? 3 : 4;
    const rows = Math.ceil(D.types.length / widest);
    box.style.setProperty("--columns", String(Math.ceil(D.types.length / rows)));
    const centres = Array.from({ length: BINS }, (_, b) => (b + 0.5) * BIN);
    const labels = centres.map((_, b) => (b * BIN).toFixed(2) + "–" + ((b + 1) * BIN).toFixed(2));
    const counts = D.types.map((t, k) => D.systems.map((s) => binCounts(F(s, k))));
    const top = Math.max(1, ...counts.flat(2));
    D.types.forEach((t, k) => {
      const figure = document.createElement("figure");
      figure.className = "figure distribution";
      figure.dataset.type = t;
      const caption = document.createElement("figcaption");
      caption.textContent = t;
      const chart = document.createElement("div");
      chart.className = "chart small";
      chart.id = "chart-distribution-" + k;
      figure.appendChild(caption);
      figure.appendChild(chart);
      box.appendChild(figure);
      const traces = D.systems.map((s, n) => ({
        type: "bar", name: text(s), x: centres, y: counts[k][n], customdata: labels,
        marker: { color: colour(s) }, width: BIN / Math.max(1, D.systems.length) * 0.9,
        hovertemplate: text(s) + "<br>F %{customdata}: %{y} records<extra></extra>",
      }));
      Plotly.newPlot(chart, traces, layout({
        showlegend: false, bargap: 0.08,
        xaxis: { title: { text: "F" }, range: [0, 1], dtick: 0.2 },
        yaxis: { title: { text: "records" }, range: [0, top * 1.08], rangemode: "tozero" },
      }), config);
    });
  }

  function buckets() {
    const k = Number($("bucket-type").value);
    const t = D.types[k];
    for (const key of ["length", "ratio"]) {
      const b = D.buckets[key];
      const traces = D.systems.map((s) => ({
        type: "bar", name: text(s), x: b.labels, y: b.means[s][t], marker: { color: colour(s) },
        customdata: b.counts[s], hovertemplate: text(s) + "<br>%{x}: " + t + " F %{y:.4f} (%{customdata} records)<extra></extra>",
      }));
      Plotly.react("chart-" + key, traces, layout({ showlegend: false,
        yaxis: { title: { text: t + " F" }, rangemode: "tozero" } }), config);
    }
  }

  function charts() {
    const board = D.leaderboard;
    // Types along the axis, one trace per system in its colour.
    Plotly.newPlot("chart-intervals", board.standings.map((s) => ({
      type: "scatter", mode: "markers", name: text(named(s.system)), marker: { color: colour(s.system), size: 9 },
      x: D.types, y: D.types.map((t) => s.intervals[t][1]),
      error_y: { type: "data", symmetric: false,
        array: D.types.map((t) => s.intervals[t][2] - s.intervals[t][1]),
        arrayminus: D.types.map((t) => s.intervals[t][1] - s.intervals[t][0]) },
      hovertemplate: text(s.system) + "<br>%{x}: %{y:.4f}<extra></extra>",
    })), intervals({ showlegend: D.systems.length > 1, yaxis: { title: { text: "mean F" } } }),
    config);
    legend("legend-distributions");
    legend("legend-buckets");
    distributions();
    buckets();
  }

  // ---------------------------------------------------------------- table
  // One type's scores at a time (the Type control): the first system's F, the
  // other systems' F (or the baseline's) and, against one other, the Δ.
  const compared = others.slice(0, 5);  // more would crowd the table; the leaderboard has them
  const longestId = D.ids.reduce((m, id) => Math.max(m, id.length), 2);
  // No ids given: they are the records' numbers, which the # column shows.
  const numbered = D.ids.every((id, i) => id === String(i));
  let columns = [];
  function buildColumns(k) {
    const t = D.types[k];
    const f = F(main, k);
    const found = [{ key: "n", label: "#", value: (i) => i, kind: "n" }];
    if (!numbered) found.push({ key: "id", label: "id", text: true, kind: "id" });
    found.push({ key: "target", label: "reference", text: true, wide: true, kind: "target" },
      { key: "prediction", label: main, text: true, wide: true, kind: "prediction" },
      { key: "length", label: "ref. tokens", value: (i) => D.lengths.target[i], kind: "length" });
    if (!others.length) {  // one system: every type's F fits
      D.types.forEach((u, j) => {
        const g = F(main, j);
        found.push({ key: "f" + j, label: u + " F", value: (i) => g[i], score: true, kind: "f" + j });
      });
      return found;
    }
    found.push({ key: "f" + k, label: t + " F", name: main, value: (i) => f[i], score: true, kind: "f" });
    for (const o of compared) {
      const g = F(o, k);
      found.push({ key: "g" + k + ":" + o, label: t + " F", name: o, value: (i) => g[i],
        score: true, kind: "g", other: o });
    }
    if (others.length === 1) {
      const o = others[0], g = F(o, k);
      // null: a record over a size limit, not scored (null - x would be -x)
      const d = (i) => (f[i] === null || g[i] === null ? null : f[i] - g[i]);
      found.push({ key: "d" + k + ":" + o, label: "Δ " + t + " F", name: main + " − " + o,
        value: d, score: true, signed: true, kind: "d", other: o });
    }
    return found;
  }
  const state = { order: null, sortKey: "n", descending: false, view: null, page: 0, size: 50, open: -1 };
  let haystack = null;  // lowercased id + texts, built on the first filter

  function head() {
    const row = $("table-head");
    row.textContent = "";
    for (const c of columns) {
      const th = document.createElement("th");
      th.dataset.key = c.key;
      const label = document.createElement("span");
      label.textContent = c.label;
      th.appendChild(label);
      if (c.name) {
        const name = document.createElement("span");
        name.className = "system-name";
        name.textContent = c.name;
        th.appendChild(name);
        th.title = c.label + " of " + c.name;
      }
      th.className = c.wide ? "col-text" : c.key === "id" ? "col-id" : c.key === "n" ? "col-n" : "col-num";
      if (c.key === "id") th.style.width = Math.min(longestId + 3, 30) + "ch";
      if (c.key === state.sortKey) th.classList.add(state.descending ? "sorted-desc" : "sorted-asc");
      if (!c.text || c.key === "id") th.addEventListener("click", () => sortBy(c.key));
      row.appendChild(th);
    }
  }

  function sortBy(key, keepDirection) {
    if (!keepDirection) state.descending = state.sortKey === key ? !state.descending : key !== "n";
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

  function chooseType() {
    // The score columns follow the Type control; a sort by a score column
    // moves to the same column of the new type.
    const old = columns.find((c) => c.key === state.sortKey);
    columns = buildColumns(Number($("type").value));
    const same = old && columns.find((c) => c.kind === old.kind && c.other === old.other);
    if (same && same.key !== old.key) sortBy(same.key, true);
    else { head(); refilter(false); }
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

  function cell(row, text, className, title) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    if (title) td.title = title;  // the whole text on hover
    row.appendChild(td);
  }
  const signed = (x) => (x === null || x === undefined ? "" : (x > 0 ? "+" : x < 0 ? "−" : "±") + Math.abs(x).toFixed(4));

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
        if (c.key === "id") cell(tr, D.ids[i], "id", D.ids[i]);
        else if (c.key === "target") cell(tr, D.targets[i].slice(0, 300), "text", D.targets[i].slice(0, 1000));
        else if (c.key === "prediction") cell(tr, D.predictions[main][i].slice(0, 300), "text", D.predictions[main][i].slice(0, 1000));
        else if (c.signed) {
          const x = c.value(i);
          cell(tr, signed(x), x > 0 ? "num delta wins" : x < 0 ? "num delta losses" : "num delta");
        }
        else if (c.score) cell(tr, fmt(c.value(i)), c.kind === "g" ? "num other" : "num");
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
    const opening = state.open < 0;
    state.open = i;
    const section = $("aligned");
    section.hidden = false;
    $("backdrop").hidden = false;  // the page behind is dimmed and takes no click
    document.body.classList.add("modal-open");
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
    const box = $("aligned-columns");
    box.textContent = "";
    const spans = (s, side) => (found == null ? [] : found[s][t][side]);
    box.appendChild(column("reference", "", D.targets[i], spans(main, 0), "aligned-target"));
    shown.forEach((s, n) => {
      const score = D.scores[s][alignedType];
      const line = t + ": P " + fmt(score[0][i]) + "  R " + fmt(score[1][i]) + "  F " + fmt(score[2][i]);
      box.appendChild(column(named(s), line,
        D.predictions[s][i], spans(s, 1), "aligned-system-" + n));
    });
    render();
    if (opening) $("aligned-close").focus();
  }

  function closeAligned() {
    $("aligned").hidden = true;
    $("backdrop").hidden = true;
    document.body.classList.remove("modal-open");
    state.open = -1;
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
  for (const id of ["min", "max"]) $(id).addEventListener("change", () => refilter(false));
  $("type").addEventListener("change", chooseType);
  $("bucket-type").addEventListener("change", buckets);
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.page - 1));
  $("next").addEventListener("click", () => go(state.page + 1));
  $("last").addEventListener("click", () => go(Infinity));
  $("page-size").addEventListener("change", () => { state.size = Number($("page-size").value); go(0); });
  $("rows").addEventListener("click", (event) => {
    const tr = event.target.closest("tr");
    if (tr) openAligned(Number(tr.dataset.i));
  });
  $("aligned-close").addEventListener("click", closeAligned);
  $("backdrop").addEventListener("click", closeAligned);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && state.open >= 0) closeAligned(); });

  columns = buildColumns(0);
  head();
  refilter(false);
  extremes();
  charts();
  if (D.leaderboard.rank_stability) {  // the rank stability's swap rates (charts.js)
    document.querySelectorAll(".chart.swaps").forEach(
      (div) => window.kurenaiCharts.swaps(div, D.leaderboard.rank_stability));
  }
  // Lowercase the texts for the filter once the page is drawn, not on the first keystroke.
  setTimeout(() => { if (haystack === null) buildHaystack(); }, 0);
  window.kurenaiReport = {
    data: D, state: state, open: openAligned, sortBy: sortBy, refilter: refilter,
    loadedAt: performance.now(),  // ms from the navigation's start to here
    ready: true,
  };
})();
