// The charts' one rule, for every page kurenai writes (the report and the
// correlation page): a chart's title is its figure's caption, outside the
// plot, so Plotly's toolbar (its modebar, top right of the plot) never covers
// it; a legend goes under the plot; and several series' values at one x (a
// system's intervals per type, a coefficient's per metric) stand side by
// side, never on one line where one would hide another.
"use strict";
window.kurenaiCharts = (function () {
  const layout = (extra) => Object.assign(
    { margin: { t: 34, r: 10, b: 48, l: 52 }, barmode: "group", font: { size: 12 } }, extra || {});
  const config = { displaylogo: false, responsive: true,
    modeBarButtonsToRemove: ["toImage", "select2d", "lasso2d", "autoScale2d", "zoomIn2d", "zoomOut2d"] };
  // Points with error bars, one trace per series, dodged at each x.
  const intervals = (extra) => layout(Object.assign({ scattermode: "group", scattergap: 0.5,
    legend: { orientation: "h", x: 0, y: -0.15 } }, extra || {}));
  // A name from the data as Plotly shows it, not as its pseudo-HTML: Plotly
  // reads "<b>" in a label or an axis title as markup, and "&lt;" as "<".
  const text = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  // A rank stability's swap rates (RankStability.as_dict()) as a heatmap in
  // \`div\`: rows and columns the systems in their observed order.
  const swaps = (div, S) => {
    const names = S.systems.map((r) => r.system), index = new Map(names.map((n, i) => [n, i]));
    const z = names.map(() => names.map(() => null));
    S.swaps.forEach((p) => {
      const a = index.get(p.above), b = index.get(p.below);
      z[a][b] = p.share; z[b][a] = p.share;
    });
    const shown = names.map(text);
    Plotly.newPlot(div, [{ type: "heatmap", x: shown, y: shown, z: z, zmin: 0, zmax: 0.5,
      colorscale: "Reds", hoverongaps: false, hovertemplate: "%{y} / %{x}: %{z:.1%}<extra></extra>" }],
    layout({ margin: { t: 34, r: 10, b: 90, l: 120 }, yaxis: { autorange: "reversed" } }), config);
  };
  return { layout: layout, config: config, intervals: intervals, text: text, swaps: swaps };
})();
