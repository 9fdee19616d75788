// kurenai's correlation page: the intervals per level and a scatter per metric.
// Every text from the data goes into the charts as data, never as HTML.  The
// charts follow kurenaiCharts' rule (charts.js): their titles are the
// figures' captions, clear of Plotly's toolbar, and the coefficients'
// intervals at one metric stand side by side.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const { layout, config, intervals, text, swaps } = window.kurenaiCharts;
  const coefficients = [...new Set(D.correlations.map((c) => c.coefficient))];

  document.querySelectorAll(".chart.intervals").forEach((div) => {
    const criterion = div.dataset.criterion, level = div.dataset.level;
    const traces = coefficients.map((coefficient) => {
      const rows = D.correlations.filter((c) => c.criterion === criterion &&
        c.level === level && c.coefficient === coefficient);
      const has = (c) => c.interval && c.interval.low !== null && c.value !== null;
      return {
        type: "scatter", mode: "markers", name: coefficient, marker: { size: 9 },
        x: rows.map((c) => text(c.metric)), y: rows.map((c) => c.value),
        error_y: { type: "data", symmetric: false,
          array: rows.map((c) => (has(c) ? c.interval.high - c.value : 0)),
          arrayminus: rows.map((c) => (has(c) ? c.value - c.interval.low : 0)) },
      };
    });
    Plotly.newPlot(div, traces, intervals({ margin: { t: 34, r: 10, b: 60, l: 52 },
      yaxis: { title: { text: "correlation" }, range: [-1, 1] } }), config);
  });

  document.querySelectorAll(".chart.scatter").forEach((div) => {
    const criterion = div.dataset.criterion, metric = div.dataset.metric;
    const S = D.scatter[criterion], M = S.metrics[metric];
    Plotly.newPlot(div, [
      { type: "scattergl", mode: "markers", name: "summaries", x: M.summaries, y: S.summaries,
        text: S.summary_systems.map((i) => text(D.systems[i])), hoverinfo: "x+y+text",
        marker: { size: 4, opacity: 0.25 } },
      { type: "scatter", mode: "markers", name: "systems (means)", x: M.system_means,
        y: S.system_means, text: D.systems.map(text), hoverinfo: "x+y+text",
        marker: { size: 9 } },
    ], layout({ xaxis: { title: { text: text(metric) } },
      yaxis: { title: { text: text(criterion) } }, showlegend: false }), config);
  });
  document.querySelectorAll(".chart.swaps").forEach((div) => swaps(div, D.rank_stability));
  window.kurenaiReport = { ready: true };  // what the browser tests wait for
})();
