// The real cohort's held-out problems as dots on the phase portrait's frame (src/app/theory/PhasePortrait):
// one dot per problem at (pA(x), pB(x)), coloured by the side of pA + pB = 1 it started on, moving between
// evaluations (a CSS transition), with optional trails through its earlier evaluations.
import { memo } from 'react';
import { toSvg, type Frame } from '../theory/portraitGeometry';
import { jitter, type PortraitSeries, type Side } from './portraitData';
import './lab.css';

/** Colour of a dot by the side it started on. */
export const SIDE_COLOUR: Record<Side, string> = { above: '#2563eb', below: '#dc2626', on: '#6b7280' };

/** p plus its jitter, mirrored back inside [0, 1] at the edges (so a dot at p = 0 or 1 stays in the frame). */
const inside = (p: number, j: number): number => (p + j < 0 || p + j > 1 ? p - j : p + j);

interface Props {
  frame: Frame;
  series: PortraitSeries;
  /** Index of the shown frame (evaluation). */
  at: number;
  trails: boolean;
}

function Trails({ frame, series, at }: Omit<Props, 'trails'>) {
  const upto = series.frames.slice(0, at + 1);
  return (
    <g className="dot-trails" data-testid="dot-trails">
      {series.startSide.map((side, i) => {
        const [jx, jy] = jitter(i, series.samples);
        const d = upto
          .map((f, k) => {
            const [x, y] = toSvg(frame, inside(f.dots[i].pA, jx), inside(f.dots[i].pB, jy));
            return `${k === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`;
          })
          .join(' ');
        return <path key={i} d={d} style={{ stroke: SIDE_COLOUR[side] }} />;
      })}
    </g>
  );
}

function PortraitDotsImpl({ frame, series, at, trails }: Props) {
  const f = series.frames[Math.min(at, series.frames.length - 1)];
  return (
    <g className="live-dots" data-testid="live-dots" data-dots={f.dots.length} data-step={f.step}>
      {trails && at > 0 && <Trails frame={frame} series={series} at={at} />}
      {f.dots.map((d) => {
        const [jx, jy] = jitter(d.problem, series.samples);
        const [x, y] = toSvg(frame, inside(d.pA, jx), inside(d.pB, jy));
        const side = series.startSide[d.problem];
        return (
          <circle
            key={d.problem}
            r={4}
            className={`live-dot ${side}`}
            data-pa={d.pA}
            data-pb={d.pB}
            style={{ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`, fill: SIDE_COLOUR[side] }}
          >
            <title>
              problem {d.problem + 1}: pA {d.pA.toFixed(3)}, pB {d.pB.toFixed(3)} (started {side} the line)
            </title>
          </circle>
        );
      })}
    </g>
  );
}

export const PortraitDots = memo(PortraitDotsImpl);
