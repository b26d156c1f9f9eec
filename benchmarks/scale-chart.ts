// The chart of `npm run bench:scale` (benchmarks/scale-curve.svg), written as SVG by hand (no
// plotting dependency): two panels side by side over documents on a log scale, each with one
// line per engine. Left, single-connection QPS (Folio over HTTP with `fields=id&typos=0`, FTS5 and
// Xapian in process); right, the time to import or build the index. Both y axes are
// logarithmic, since the engines differ by orders of magnitude.

export interface ChartSeries {
  name: string;
  colour: string;
  /** One value per x; null where not measured. */
  values: (number | null)[];
}

export interface ChartPanel {
  title: string;
  yLabel: string;
  series: ChartSeries[];
}

export interface ScaleChart {
  title: string;
  subtitle: string;
  /** Documents at each point, ascending. */
  sizes: number[];
  panels: ChartPanel[];
}

const PANEL_WIDTH = 440;
const PANEL_HEIGHT = 320;
const MARGIN = { top: 40, right: 20, bottom: 50, left: 64 };
const HEADER = 56;
const LEGEND = 28;

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** 10000 → "10k", 1000000 → "1M". */
export function shortCount(value: number): string {
  if (value >= 1e6 && value % 1e5 === 0) return `${value / 1e6}M`;
  if (value >= 1e3 && value % 100 === 0) return `${value / 1e3}k`;
  return String(value);
}

function tickLabel(value: number): string {
  if (value >= 1000) return shortCount(value);
  return value >= 1 ? String(value) : String(Number(value.toPrecision(1)));
}

interface LogScale {
  lo: number;
  hi: number;
  at: (value: number) => number;
}

/** Maps [lo, hi] (log) onto [from, to] pixels. */
function logScale(lo: number, hi: number, from: number, to: number): LogScale {
  const a = Math.log10(lo);
  const b = Math.log10(hi);
  return { lo, hi, at: (value) => from + ((Math.log10(value) - a) / (b - a)) * (to - from) };
}

/** Whole decades around the values; 1, 2 and 5 in each when there are few decades. */
function yDomain(values: number[]): { lo: number; hi: number; ticks: number[] } {
  // A little room, so that no point sits on the frame.
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)) - 0.05);
  let hi = 10 ** Math.ceil(Math.log10(Math.max(...values)) + 0.05);
  if (hi <= lo) hi = lo * 10;
  const decades = Math.round(Math.log10(hi / lo));
  const ticks: number[] = [];
  for (let decade = lo; decade <= hi * 1.0001; decade *= 10) {
    for (const step of decades <= 3 ? [1, 2, 5] : [1]) {
      const tick = Number((decade * step).toPrecision(2));
      if (tick <= hi * 1.0001) ticks.push(tick);
    }
  }
  return { lo, hi, ticks };
}

function panelSvg(panel: ChartPanel, sizes: number[], offsetX: number): string {
  const left = offsetX + MARGIN.left;
  const right = offsetX + PANEL_WIDTH - MARGIN.right;
  const top = HEADER + MARGIN.top;
  const bottom = HEADER + PANEL_HEIGHT - MARGIN.bottom;
  const parts: string[] = [];
  parts.push(`<text x="${(left + right) / 2}" y="${HEADER + 22}" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(panel.title)}</text>`);
  const values = panel.series.flatMap((s) => s.values.filter((v): v is number => v !== null && v > 0));
  parts.push(`<rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="none" stroke="#999"/>`);
  const x = logScale(sizes[0] / 2, sizes[sizes.length - 1] * 2, left, right);
  for (const size of sizes) {
    const px = x.at(size).toFixed(1);
    parts.push(`<line x1="${px}" y1="${top}" x2="${px}" y2="${bottom}" stroke="#eee"/>`);
    parts.push(`<text x="${px}" y="${bottom + 18}" text-anchor="middle" font-size="12">${shortCount(size)}</text>`);
  }
  parts.push(`<text x="${(left + right) / 2}" y="${bottom + 38}" text-anchor="middle" font-size="12">documents (log scale)</text>`);
  parts.push(`<text transform="translate(${offsetX + 16} ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escapeXml(panel.yLabel)}</text>`);
  if (values.length === 0) {
    parts.push(`<text x="${(left + right) / 2}" y="${(top + bottom) / 2}" text-anchor="middle" font-size="12" fill="#777">not measured</text>`);
    return parts.join('\n');
  }
  const domain = yDomain(values);
  const y = logScale(domain.lo, domain.hi, bottom, top);
  for (const tick of domain.ticks) {
    const py = y.at(tick).toFixed(1);
    parts.push(`<line x1="${left}" y1="${py}" x2="${right}" y2="${py}" stroke="#eee"/>`);
    parts.push(`<text x="${left - 6}" y="${py}" text-anchor="end" dominant-baseline="middle" font-size="11">${tickLabel(tick)}</text>`);
  }
  for (const series of panel.series) {
    const points = sizes
      .map((size, i) => ({ size, value: series.values[i] }))
      .filter((p): p is { size: number; value: number } => p.value !== null && p.value !== undefined && p.value > 0)
      .map((p) => ({ ...p, px: x.at(p.size).toFixed(1), py: y.at(p.value).toFixed(1) }));
    if (points.length > 1) {
      parts.push(`<polyline fill="none" stroke="${series.colour}" stroke-width="2" points="${points.map((p) => `${p.px},${p.py}`).join(' ')}"/>`);
    }
    for (const p of points) {
      parts.push(`<circle cx="${p.px}" cy="${p.py}" r="4" fill="${series.colour}"><title>${escapeXml(`${series.name}, ${shortCount(p.size)} docs: ${Number(p.value.toPrecision(3))}`)}</title></circle>`);
    }
  }
  return parts.join('\n');
}

/** The chart as an SVG document. */
export function scaleChartSvg(chart: ScaleChart): string {
  const width = PANEL_WIDTH * chart.panels.length;
  const height = HEADER + PANEL_HEIGHT + LEGEND;
  const allSeries = chart.panels.flatMap((p) => p.series);
  const measured = (name: string): boolean => allSeries.some((s) => s.name === name && s.values.some((v) => v !== null && v > 0));
  const names = [...new Map(allSeries.map((s) => [s.name, s.colour])).entries()].map(([name, colour]) => [measured(name) ? name : `${name}: not measured`, colour]);
  const legend = names
    .map(([name, colour], i) => {
      const lx = 20 + i * 230;
      const ly = HEADER + PANEL_HEIGHT + 10;
      return `<line x1="${lx}" y1="${ly}" x2="${lx + 24}" y2="${ly}" stroke="${colour}" stroke-width="2"/><circle cx="${lx + 12}" cy="${ly}" r="4" fill="${colour}"/>` +
        `<text x="${lx + 32}" y="${ly}" dominant-baseline="middle" font-size="12">${escapeXml(name)}</text>`;
    })
    .join('\n');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="20" y="24" font-size="16" font-weight="bold">${escapeXml(chart.title)}</text>`,
    `<text x="20" y="44" font-size="12" fill="#555">${escapeXml(chart.subtitle)}</text>`,
    ...chart.panels.map((panel, i) => panelSvg(panel, chart.sizes, i * PANEL_WIDTH)),
    legend,
    '</svg>',
    '',
  ].join('\n');
}
