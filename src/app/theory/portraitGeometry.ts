// Pure geometry of the phase portrait: (pA, pB) <-> SVG coordinates, vector-field arrows, trajectory paths.
import { coRlVectorField } from '../../analysis/theory';
import type { TheoryPoint } from '../../store/theorySlice';

/** The portrait's frame in SVG user units: a square plot of side `plot` with margins around it. */
export interface Frame {
  left: number;
  top: number;
  plot: number;
  right: number;
  bottom: number;
}

/** Default frame: a 440-unit plot with room for tick labels and axis titles. */
export const FRAME: Frame = { left: 72, top: 16, plot: 440, right: 20, bottom: 52 };

/** Total width and height of the SVG viewBox of a frame. */
export const frameSize = (f: Frame): { width: number; height: number } => ({
  width: f.left + f.plot + f.right,
  height: f.top + f.plot + f.bottom,
});

/** SVG point of (pA, pB): pA grows to the right, pB grows upwards. */
export function toSvg(f: Frame, pA: number, pB: number): [number, number] {
  return [f.left + pA * f.plot, f.top + (1 - pB) * f.plot];
}

/** (pA, pB) of an SVG point, or null when it lies outside the plot square (a few units of slack). */
export function fromSvg(f: Frame, x: number, y: number, slack = 4): TheoryPoint | null {
  const pA = (x - f.left) / f.plot;
  const pB = 1 - (y - f.top) / f.plot;
  const s = slack / f.plot;
  if (pA < -s || pA > 1 + s || pB < -s || pB > 1 + s) return null;
  const c = (v: number) => Math.min(1, Math.max(0, v));
  return { pA: c(pA), pB: c(pB) };
}

/** Round a start to 2 decimals, as picked by a click (so typed and clicked starts look alike). */
export const roundPoint = (p: TheoryPoint): TheoryPoint => ({
  pA: Math.round(p.pA * 100) / 100,
  pB: Math.round(p.pB * 100) / 100,
});

/** One arrow of the vector field in SVG units; `speed` is the field's magnitude relative to the largest. */
export interface Arrow {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  speed: number;
}

/**
 * Arrows of the Co-RL field on an n x n grid (cell centres). Direction is the field's; length grows with
 * the square root of the speed (from 30% to 80% of a cell) so slow regions stay visible. Cells where the
 * field vanishes (K = 1, or exactly at a fixed point) get no arrow.
 */
export function fieldArrows(f: Frame, K: number, n: number): Arrow[] {
  const field = coRlVectorField(n, K);
  const maxMag = Math.max(...field.map((v) => Math.hypot(v.dA, v.dB)));
  if (!(maxMag > 0)) return [];
  const cell = f.plot / n;
  const out: Arrow[] = [];
  for (const v of field) {
    const mag = Math.hypot(v.dA, v.dB);
    if (mag < 1e-12 * maxMag) continue;
    const speed = mag / maxMag;
    const len = cell * (0.3 + 0.5 * Math.sqrt(speed));
    const [cx, cy] = toSvg(f, v.pA, v.pB);
    const ux = v.dA / mag;
    const uy = -v.dB / mag; // SVG y points down
    out.push({
      x1: cx - (ux * len) / 2,
      y1: cy - (uy * len) / 2,
      x2: cx + (ux * len) / 2,
      y2: cy + (uy * len) / 2,
      speed,
    });
  }
  return out;
}

/**
 * SVG path data through the states of a two-agent trajectory (at most `maxPoints` vertices, always
 * keeping the first and last; consecutive duplicates dropped).
 */
export function trajectoryPath(f: Frame, ys: readonly (readonly number[])[], maxPoints = 400): string {
  if (ys.length === 0) return '';
  const stride = Math.max(1, Math.ceil(ys.length / maxPoints));
  const parts: string[] = [];
  let last = '';
  for (let i = 0; i < ys.length; i += stride) add(i);
  if ((ys.length - 1) % stride !== 0) add(ys.length - 1);
  function add(i: number): void {
    const [x, y] = toSvg(f, ys[i][0], ys[i][1]);
    const xy = `${x.toFixed(1)},${y.toFixed(1)}`;
    if (xy === last) return;
    parts.push(`${parts.length === 0 ? 'M' : 'L'}${xy}`);
    last = xy;
  }
  return parts.join(' ');
}
