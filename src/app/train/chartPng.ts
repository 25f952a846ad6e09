// Every chart of the Train view in one PNG: each recharts SVG (inside data-testid="chart-<name>") is
// serialized, drawn onto a canvas in a grid with its title and legend, under a heading; canvas.toBlob
// makes the PNG. Pure DOM work on the page; nothing is fetched.

/** One chart as found on the page. */
interface ChartShot {
  title: string;
  svg: SVGSVGElement;
  width: number;
  height: number;
  legend: { label: string; colour: string; dash: string; opacity: number; off: boolean }[];
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const PAD = 16;
const TITLE_H = 24;
const LEGEND_ROW = 16;

/** The charts under `root` that have drawn an SVG. */
function findCharts(root: ParentNode): ChartShot[] {
  const out: ChartShot[] = [];
  for (const fig of root.querySelectorAll<HTMLElement>('[data-testid^="chart-"]')) {
    const svg = fig.querySelector<SVGSVGElement>('svg.recharts-surface');
    if (!svg) continue;
    const box = svg.getBoundingClientRect();
    const width = Math.round(box.width || Number(svg.getAttribute('width')) || 0);
    const height = Math.round(box.height || Number(svg.getAttribute('height')) || 0);
    if (width < 10 || height < 10) continue;
    const legend = [...fig.querySelectorAll<HTMLElement>('.series-legend button')].map((b) => {
      const line = b.querySelector('line');
      return {
        label: (b.textContent ?? '').trim(),
        colour: line?.getAttribute('stroke') ?? '#444',
        dash: line?.getAttribute('stroke-dasharray') ?? '',
        opacity: Number(line?.getAttribute('stroke-opacity') ?? 1),
        off: b.classList.contains('off'),
      };
    });
    out.push({
      title: (fig.querySelector('h3')?.textContent ?? fig.dataset.testid ?? '').trim(),
      svg,
      width,
      height,
      legend,
    });
  }
  return out;
}

/** The SVG as a standalone image (namespaces, size and a font, since page CSS does not reach an image). */
function svgImage(c: ChartShot): Promise<HTMLImageElement> {
  const clone = c.svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('xmlns:xlink', 'http://www.w3.org/1999/xlink');
  clone.setAttribute('width', String(c.width));
  clone.setAttribute('height', String(c.height));
  clone.setAttribute('font-family', FONT);
  const xml = new XMLSerializer().serializeToString(clone);
  const img = new Image(c.width, c.height);
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(xml)}`;
  return img.decode().then(() => img);
}

/** Legend entries laid out in rows within `width`: [x, y, entry] relative to the legend's top left. */
function legendLayout(
  ctx: CanvasRenderingContext2D,
  c: ChartShot,
  width: number,
): { at: [number, number]; i: number }[] {
  const out: { at: [number, number]; i: number }[] = [];
  let x = 0;
  let y = 0;
  c.legend.forEach((e, i) => {
    const w = 30 + ctx.measureText(e.label).width + 12;
    if (x > 0 && x + w > width) {
      x = 0;
      y += LEGEND_ROW;
    }
    out.push({ at: [x, y], i });
    x += w;
  });
  return out;
}

/**
 * One PNG of every chart under `root`, two per row, under `heading`. Rejects when there is no chart to
 * draw or the canvas cannot encode.
 */
export async function chartsToPng(root: ParentNode, heading: string, scale = 2): Promise<Blob> {
  const charts = findCharts(root);
  if (charts.length === 0) throw new Error('no chart has been drawn yet');
  const cols = Math.min(2, charts.length);
  const cellW = Math.max(...charts.map((c) => c.width));
  const measure = document.createElement('canvas').getContext('2d')!;
  measure.font = `12px ${FONT}`;
  const legendH = charts.map((c) => {
    const l = legendLayout(measure, c, cellW);
    return l.length ? l[l.length - 1].at[1] + LEGEND_ROW : 0;
  });
  const cellH = charts.map((c, i) => TITLE_H + c.height + legendH[i] + PAD);
  const rows = Math.ceil(charts.length / cols);
  const rowH = Array.from({ length: rows }, (_, r) => Math.max(...cellH.slice(r * cols, r * cols + cols)));
  const headH = 36;
  const W = PAD + cols * (cellW + PAD);
  const H = headH + rowH.reduce((a, b) => a + b, 0) + PAD;

  const canvas = document.createElement('canvas');
  canvas.width = Math.round(W * scale);
  canvas.height = Math.round(H * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gives no 2D canvas');
  ctx.scale(scale, scale);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#111827';
  ctx.font = `600 16px ${FONT}`;
  ctx.textBaseline = 'middle';
  ctx.fillText(heading, PAD, headH / 2 + 4, W - 2 * PAD);

  const images = await Promise.all(charts.map(svgImage));
  let y0 = headH;
  for (let r = 0; r < rows; r++) {
    for (let k = 0; k < cols; k++) {
      const i = r * cols + k;
      if (i >= charts.length) break;
      const c = charts[i];
      const x = PAD + k * (cellW + PAD);
      ctx.fillStyle = '#111827';
      ctx.font = `600 13px ${FONT}`;
      ctx.fillText(c.title, x, y0 + TITLE_H / 2, cellW);
      ctx.drawImage(images[i], x, y0 + TITLE_H, c.width, c.height);
      ctx.font = `12px ${FONT}`;
      const ly = y0 + TITLE_H + c.height + LEGEND_ROW / 2;
      for (const { at, i: j } of legendLayout(ctx, c, cellW)) {
        const e = c.legend[j];
        const [lx, lyOff] = [x + at[0], ly + at[1]];
        ctx.save();
        ctx.globalAlpha = e.off ? 0.3 : Math.max(0.15, Math.min(1, e.opacity));
        ctx.strokeStyle = e.colour;
        ctx.lineWidth = 2.5;
        ctx.setLineDash(
          e.dash
            ? e.dash
                .split(/[\s,]+/)
                .map(Number)
                .filter((v) => v >= 0)
            : [],
        );
        ctx.beginPath();
        ctx.moveTo(lx, lyOff);
        ctx.lineTo(lx + 24, lyOff);
        ctx.stroke();
        ctx.restore();
        ctx.fillStyle = e.off ? '#9ca3af' : '#374151';
        ctx.fillText(e.label, lx + 30, lyOff);
      }
    }
    y0 += rowH[r];
  }
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('the canvas could not be encoded as PNG'))),
      'image/png',
    ),
  );
}
