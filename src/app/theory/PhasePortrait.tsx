// SVG phase portrait of two-agent Co-RL on [0,1]^2 (docs/method.md ("Theory")): field arrows, separatrix, trajectories.
import { memo, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import type { TheoryPoint } from '../../store/theorySlice';
import {
  FRAME,
  fieldArrows,
  frameSize,
  fromSvg,
  roundPoint,
  toSvg,
  trajectoryPath,
} from './portraitGeometry';
import type { TrajectoryResult } from './theoryModel';

/** Colour of the current trajectory, and muted colours of older ones. */
export const CURRENT_COLOUR = '#2563eb';
const OLDER_COLOURS = ['#0891b2', '#db2777', '#65a30d', '#b45309', '#475569'];

interface Props {
  K: number;
  trajectories: TrajectoryResult[];
  onPick(p: TheoryPoint): void;
  /** Drawn above the trajectories (the latest run's problems, src/app/lab/PortraitDots.tsx). */
  overlay?: ReactNode;
}

/** The frame every portrait uses (the live portrait draws in the same one). */
export const F = FRAME;
const { width: W, height: H } = frameSize(F);
const TICKS = [0, 0.25, 0.5, 0.75, 1];
const pt = (pA: number, pB: number) => toSvg(F, pA, pB);

/** The static layers: regions, grid, ticks, separatrix, fixed points. */
export const Background = memo(function Background() {
  const [x0, y0] = pt(0, 0);
  const [x1, y1] = pt(1, 1);
  const [sx, sy] = pt(0.5, 0.5);
  return (
    <g>
      <polygon points={`${x0},${y1} ${x1},${y1} ${x1},${y0}`} className="region-up" />
      <polygon points={`${x0},${y0} ${x0},${y1} ${x1},${y0}`} className="region-down" />
      {TICKS.map((v) => {
        const [gx] = pt(v, 0);
        const [, gy] = pt(0, v);
        return (
          <g key={v}>
            <line x1={gx} y1={y1} x2={gx} y2={y0} className="grid" />
            <line x1={x0} y1={gy} x2={x1} y2={gy} className="grid" />
            <text x={gx} y={y0 + 18} textAnchor="middle" className="tick">
              {v}
            </text>
            <text x={x0 - 8} y={gy + 4} textAnchor="end" className="tick">
              {v}
            </text>
          </g>
        );
      })}
      <rect x={x0} y={y1} width={F.plot} height={F.plot} className="frame" />
      <text x={(x0 + x1) / 2} y={y0 + 42} textAnchor="middle" className="axis-title">
        pA: agent A&apos;s p(correct)
      </text>
      <text
        x={18}
        y={(y0 + y1) / 2}
        textAnchor="middle"
        className="axis-title"
        transform={`rotate(-90 18 ${(y0 + y1) / 2})`}
      >
        pB: agent B&apos;s p(correct)
      </text>
      <line x1={x0} y1={y1} x2={x1} y2={y0} className="separatrix" />
      <SeparatrixLabel />
      <text x={x1 - 8} y={pt(0, 0.6)[1]} textAnchor="end" className="region-label up">
        above: both → 1
      </text>
      <text x={x0 + 8} y={pt(0, 0.4)[1]} dy="0.7em" className="region-label down">
        below: both → 0
      </text>
      <circle cx={sx} cy={sy} r={5} className="saddle" />
      <text x={sx + 9} y={sy + 16} className="point-label">
        saddle (½, ½)
      </text>
      <circle cx={x1} cy={y1} r={5} className="sink up" />
      <circle cx={x0} cy={y0} r={5} className="sink down" />
    </g>
  );
});

function SeparatrixLabel() {
  const [lx, ly] = pt(0.66, 0.34);
  return (
    <text
      x={lx}
      y={ly}
      dy="1.5em"
      textAnchor="middle"
      className="separatrix-label"
      transform={`rotate(45 ${lx} ${ly})`}
    >
      separatrix pA + pB = 1
    </text>
  );
}

/** Field arrows for one K (recomputed only when K changes). */
export const Field = memo(function Field({ K }: { K: number }) {
  const arrows = useMemo(() => fieldArrows(F, K, 15), [K]);
  return (
    <g className="field" data-testid="field" data-arrows={arrows.length}>
      {arrows.map((a, i) => (
        <line
          key={i}
          x1={a.x1}
          y1={a.y1}
          x2={a.x2}
          y2={a.y2}
          markerEnd="url(#arrowhead)"
          style={{ opacity: 0.3 + 0.6 * Math.sqrt(a.speed) }}
        />
      ))}
    </g>
  );
});

function Trajectories({ trajectories }: { trajectories: TrajectoryResult[] }) {
  const n = trajectories.length;
  return (
    <g>
      {trajectories.map((tr, i) => {
        const latest = i === n - 1;
        const colour = latest ? CURRENT_COLOUR : OLDER_COLOURS[i % OLDER_COLOURS.length];
        const [sx, sy] = pt(tr.start.pA, tr.start.pB);
        const [ex, ey] = pt(...tr.coRlEnd);
        const [fx, fy] = pt(...tr.selfEnd);
        return (
          <g
            key={`${tr.start.pA}|${tr.start.pB}|${i}`}
            style={{ opacity: latest ? 1 : 0.55 }}
            data-testid={latest ? 'traj-latest' : undefined}
          >
            {latest && (
              <>
                <path d={trajectoryPath(F, tr.self.y)} className="self-path" />
                <rect x={fx - 5} y={fy - 5} width={10} height={10} className="self-end" />
              </>
            )}
            <path
              d={trajectoryPath(F, tr.coRl.y)}
              className="traj"
              style={{ stroke: colour, strokeWidth: latest ? 3 : 2 }}
            />
            <circle cx={sx} cy={sy} r={latest ? 6 : 4.5} className="traj-start" style={{ stroke: colour }} />
            <circle cx={ex} cy={ey} r={latest ? 6 : 4.5} style={{ fill: colour }} className="traj-end-dot" />
          </g>
        );
      })}
    </g>
  );
}

/** The phase portrait: click a point to draw its trajectory. */
/** The arrowhead marker the field arrows use (one per SVG). */
export function ArrowheadDefs() {
  return (
    <defs>
      <marker
        id="arrowhead"
        viewBox="0 0 10 10"
        refX="8"
        refY="5"
        markerWidth="5"
        markerHeight="5"
        orient="auto-start-reverse"
      >
        <path d="M0,0 L10,5 L0,10 z" className="arrowhead" />
      </marker>
    </defs>
  );
}

export function PhasePortrait({ K, trajectories, onPick, overlay }: Props) {
  const [hover, setHover] = useState<TheoryPoint | null>(null);
  const locate = (e: MouseEvent<SVGSVGElement>): TheoryPoint | null => {
    const svg = e.currentTarget;
    const m = svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const q = fromSvg(F, p.x, p.y);
    return q && roundPoint(q);
  };
  return (
    <svg
      className="portrait"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`Phase portrait of two-agent Co-RL with K = ${K}: pA on the horizontal axis, pB on the vertical axis. Click a point to draw its trajectory.`}
      data-testid="portrait"
      data-plot={`${F.left},${F.top},${F.plot}`}
      onClick={(e) => {
        const p = locate(e);
        if (p) onPick(p);
      }}
      onMouseMove={(e) => setHover(locate(e))}
      onMouseLeave={() => setHover(null)}
    >
      <ArrowheadDefs />
      <Background />
      <Field K={K} />
      <Trajectories trajectories={trajectories} />
      {overlay}
      {hover && (
        <text x={F.left + 8} y={F.top + 18} className="hover-readout">
          ({hover.pA.toFixed(2)}, {hover.pB.toFixed(2)}): click to draw
        </text>
      )}
    </svg>
  );
}
