// A small SVG line chart (axes, grid, legend, lines with optional min-max bands) as a string, and its
// rendering to PNG in headless Chromium. Used by `npm run plot` for docs/img/*.png.
import { chromium } from '@playwright/test';

/** One line of a chart. */
export interface Series {
  name: string;
  color: string;
  /** (x, y) points in order; y may be null (a gap). */
  points: [number, number | null][];
  /** Optional shaded band: (x, low, high). */
  band?: [number, number, number][];
  dash?: boolean;
  width?: number;
  /** Draw a dot at every point (scatter plots); `line: false` leaves the line out. */
  markers?: boolean;
  line?: boolean;
}

export interface ChartSpec {
  title: string;
  /** A second, smaller title line. */
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Fixed y range; default from the data. */
  yMin?: number;
  yMax?: number;
  /** Fixed x range and x tick values (e.g. categories 1..n); default from the data. */
  xMin?: number;
  xMax?: number;
  xTicks?: number[];
  /** A horizontal reference line. */
  hLine?: number;
  width?: number;
  height?: number;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** "Nice" tick values covering [lo, hi]. */
export function ticks(lo: number, hi: number, n = 5): number[] {
  const span = hi - lo || 1;
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= n) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step) out.push(+v.toFixed(10));
  return out;
}

/** The chart as an SVG document. */
export function lineChartSvg(c: ChartSpec): string {
  const W = c.width ?? 860;
  const H = c.height ?? 440;
  const m = { l: 64, r: 170, t: c.subtitle ? 58 : 40, b: 52 };
  const xs = c.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = c.series.flatMap((s) => [
    ...s.points.map((p) => p[1]).filter((y): y is number => y !== null),
    ...(s.band ?? []).flatMap((b) => [b[1], b[2]]),
  ]);
  if (c.hLine !== undefined) ys.push(c.hLine);
  const x0 = c.xMin ?? Math.min(...xs);
  const x1 = c.xMax ?? Math.max(...xs);
  let y0 = c.yMin ?? Math.min(...ys);
  let y1 = c.yMax ?? Math.max(...ys);
  if (c.yMin === undefined || c.yMax === undefined) {
    const pad = (y1 - y0) * 0.05 || 0.05;
    if (c.yMin === undefined) y0 -= pad;
    if (c.yMax === undefined) y1 += pad;
  }
  const X = (x: number): number => m.l + ((x - x0) / (x1 - x0 || 1)) * (W - m.l - m.r);
  const Y = (y: number): number => H - m.b - ((y - y0) / (y1 - y0 || 1)) * (H - m.t - m.b);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${(m.l + W - m.r) / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${esc(c.title)}</text>`,
  ];
  if (c.subtitle)
    parts.push(
      `<text x="${(m.l + W - m.r) / 2}" y="44" text-anchor="middle" font-size="12" fill="#444">${esc(c.subtitle)}</text>`,
    );
  for (const t of ticks(y0, y1)) {
    parts.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${Y(t)}" y2="${Y(t)}" stroke="#e5e5e5"/>`);
    parts.push(
      `<text x="${m.l - 6}" y="${Y(t) + 4}" text-anchor="end" font-size="12" fill="#444">${t}</text>`,
    );
  }
  for (const t of c.xTicks ?? ticks(x0, x1, 8)) {
    parts.push(`<line x1="${X(t)}" x2="${X(t)}" y1="${H - m.b}" y2="${H - m.b + 4}" stroke="#444"/>`);
    parts.push(
      `<text x="${X(t)}" y="${H - m.b + 18}" text-anchor="middle" font-size="12" fill="#444">${t}</text>`,
    );
  }
  parts.push(
    `<rect x="${m.l}" y="${m.t}" width="${W - m.l - m.r}" height="${H - m.t - m.b}" fill="none" stroke="#888"/>`,
  );
  parts.push(
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 12}" text-anchor="middle" font-size="13">${esc(c.xLabel)}</text>`,
  );
  parts.push(
    `<text transform="translate(16 ${(m.t + H - m.b) / 2}) rotate(-90)" text-anchor="middle" font-size="13">${esc(c.yLabel)}</text>`,
  );
  if (c.hLine !== undefined)
    parts.push(
      `<line x1="${m.l}" x2="${W - m.r}" y1="${Y(c.hLine)}" y2="${Y(c.hLine)}" stroke="#999" stroke-dasharray="2 3"/>`,
    );
  for (const s of c.series) {
    if (s.band && s.band.length > 1) {
      const top = s.band.map((b) => `${X(b[0])},${Y(b[2])}`);
      const bot = [...s.band].reverse().map((b) => `${X(b[0])},${Y(b[1])}`);
      parts.push(
        `<polygon points="${[...top, ...bot].join(' ')}" fill="${s.color}" fill-opacity="0.15" stroke="none"/>`,
      );
    }
    let d = '';
    let pen = false;
    for (const [x, y] of s.points) {
      if (y === null) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${X(x).toFixed(1)},${Y(y).toFixed(1)}`;
      pen = true;
    }
    if (s.line !== false)
      parts.push(
        `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="${s.width ?? 2}"${s.dash ? ' stroke-dasharray="6 4"' : ''}/>`,
      );
    if (s.markers)
      for (const [x, y] of s.points)
        if (y !== null)
          parts.push(
            `<circle cx="${X(x).toFixed(1)}" cy="${Y(y).toFixed(1)}" r="4.5" fill="${s.color}" fill-opacity="0.8"/>`,
          );
  }
  c.series.forEach((s, i) => {
    const y = m.t + 10 + i * 18;
    const x = W - m.r + 12;
    if (s.line !== false)
      parts.push(
        `<line x1="${x}" x2="${x + 22}" y1="${y}" y2="${y}" stroke="${s.color}" stroke-width="${s.width ?? 2}"${s.dash ? ' stroke-dasharray="6 4"' : ''}/>`,
      );
    if (s.markers) parts.push(`<circle cx="${x + 11}" cy="${y}" r="4.5" fill="${s.color}"/>`);
    parts.push(`<text x="${x + 28}" y="${y + 4}" font-size="12">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** Render SVG documents to PNG files with headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium). */
export async function svgsToPngs(items: { svg: string; file: string }[]): Promise<void> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 2 });
    for (const it of items) {
      await page.setContent(`<html><body style="margin:0">${it.svg}</body></html>`);
      const el = await page.$('svg');
      await el!.screenshot({ path: it.file });
    }
  } finally {
    await browser.close();
  }
}
