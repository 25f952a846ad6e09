// A small HTML legend for the theory charts (wraps cleanly on phones, unlike an in-chart legend).

export interface LegendItem {
  label: string;
  colour: string;
  /** 'solid' line, 'dashed' line, or 'dotted' line with dots. */
  style: 'solid' | 'dashed' | 'dotted';
}

export function ChartLegend({ items }: { items: LegendItem[] }) {
  return (
    <ul className="legend chart-legend">
      {items.map((it) => (
        <li key={it.label}>
          <span className="swatch" style={{ borderTop: `3px ${it.style} ${it.colour}` }} /> {it.label}
        </li>
      ))}
    </ul>
  );
}

/** Evenly spaced axis ticks 0, h/n, ..., h (rounded to 2 decimals). */
export function evenTicks(h: number, n = 4): number[] {
  return Array.from({ length: n + 1 }, (_, i) => Math.round((h * i * 100) / n) / 100);
}
