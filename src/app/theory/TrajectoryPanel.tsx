// Controls and read-out beside the portrait: K, a typed start (pA, pB) with Draw, and where the start ends.
import { useState, type FormEvent } from 'react';
import type { TheoryPoint } from '../../store/theorySlice';
import {
  K_OPTIONS,
  ODE_T_END,
  fmtP,
  fmtPair,
  parseProb,
  separatrixSide,
  type TrajectoryResult,
} from './theoryModel';

interface Props {
  K: number;
  onK(K: number): void;
  latest: TrajectoryResult | null;
  start: TheoryPoint;
  onDraw(p: TheoryPoint): void;
  onClear(): void;
  canClear: boolean;
}

/** The typed start; remounted (via `key`) whenever the current start changes, e.g. by a click. */
function StartForm({ start, onDraw }: { start: TheoryPoint; onDraw(p: TheoryPoint): void }) {
  const [a, setA] = useState(String(start.pA));
  const [b, setB] = useState(String(start.pB));
  const pA = parseProb(a);
  const pB = parseProb(b);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pA !== null && pB !== null) onDraw({ pA, pB });
  };
  return (
    <form className="start-form" onSubmit={submit}>
      <label>
        pA{' '}
        <input
          data-testid="input-pa"
          inputMode="decimal"
          value={a}
          onChange={(e) => setA(e.target.value)}
          aria-invalid={pA === null}
          size={5}
        />
      </label>
      <label>
        pB{' '}
        <input
          data-testid="input-pb"
          inputMode="decimal"
          value={b}
          onChange={(e) => setB(e.target.value)}
          aria-invalid={pB === null}
          size={5}
        />
      </label>
      <button type="submit" data-testid="draw" disabled={pA === null || pB === null}>
        Draw
      </button>
      {(pA === null || pB === null) && (
        <span className="error small">pA and pB must be numbers in [0, 1].</span>
      )}
    </form>
  );
}

function verdict(r: TrajectoryResult): string {
  const side = separatrixSide(r.start);
  const sum = (r.start.pA + r.start.pB).toFixed(2);
  if (r.K === 1)
    return 'With K = 1 a group holds one sample: its reward has no spread, GRPO gives no gradient, nothing moves.';
  if (side === 'above')
    return `pA + pB = ${sum} > 1: above the separatrix, so both agents learn the right answer.`;
  if (side === 'below')
    return `pA + pB = ${sum} < 1: below the separatrix, so both agents settle on the wrong answer.`;
  return `pA + pB = 1: on the separatrix, the trajectory runs into the saddle (½, ½).`;
}

export function TrajectoryPanel({ K, onK, latest, start, onDraw, onClear, canClear }: Props) {
  return (
    <div className="card trajectory-panel">
      <label className="k-control">
        K (samples per prompt){' '}
        <select data-testid="k-select" value={K} onChange={(e) => onK(Number(e.target.value))}>
          {K_OPTIONS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <h3>Start a trajectory</h3>
      <p className="small muted">Click the portrait, or type a start and press Draw.</p>
      <StartForm key={`${start.pA}|${start.pB}`} start={start} onDraw={onDraw} />
      {latest && (
        <dl className="readout" data-testid="traj-readout">
          <dt>Start (pA, pB)</dt>
          <dd data-testid="traj-start">{fmtPair(latest.start.pA, latest.start.pB, 2)}</dd>
          <dt>
            <span className="swatch line corl" /> Co-RL end (t = {ODE_T_END})
          </dt>
          <dd className="big" data-testid="traj-end">
            {fmtPair(...latest.coRlEnd)}
          </dd>
          <dt>
            <span className="swatch line self" /> Self-rewarding end, each agent alone
          </dt>
          <dd className="big" data-testid="self-end">
            {fmtPair(...latest.selfEnd)}
          </dd>
        </dl>
      )}
      {latest && (
        <p className="verdict" data-testid="traj-verdict">
          {verdict(latest)}
          {latest.K > 1 && (
            <>
              {' '}
              Alone, an agent only sharpens its own majority: A goes to {fmtP(latest.selfEnd[0], 2)}, B to{' '}
              {fmtP(latest.selfEnd[1], 2)}.
            </>
          )}
        </p>
      )}
      <button type="button" className="link-button" onClick={onClear} disabled={!canClear}>
        Clear older trajectories
      </button>
    </div>
  );
}
