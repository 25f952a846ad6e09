// The Train view's error-overlap panel (docs/method.md ("Diversity and error overlap")): for every pair of agents, where their greedy
// held-out answers are right and wrong (both right / only A / only B / both wrong) with Cohen's kappa,
// c, u and w, for the base agents (step 0) beside the latest evaluation of a chosen method.
import { useMemo, useState } from 'react';
import type { RewardMethod } from '../../rl/rewards';
import { useStore } from '../../store/store';
import { METHOD_COLOUR, METHOD_LABEL } from './chartData';
import { overlapViewData, type OverlapPair, type OverlapSnapshot, type SnapshotResult } from './overlapData';
import './overlap.css';

const f2 = (x: number): string => x.toFixed(2);
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;

const HELP: { sym: string; text: string }[] = [
  {
    sym: 'κ',
    text: "Cohen's kappa on right/wrong: 1 = right and wrong on exactly the same problems, 0 = no more alike than chance; lower = more decoupled errors (the paper: different families ≤ 0.42, same family or seed only ≥ 0.51).",
  },
  {
    sym: 'c',
    text: 'complementarity: share of problems where exactly one of the two is right (where one can correct the other).',
  },
  { sym: 'u', text: 'oracle accuracy: share where at least one is right (the ceiling of the pair).' },
  {
    sym: 'w',
    text: 'wrong agreement: share where both are wrong with the same answer (an error a shared vote would reinforce).',
  },
];

function PairCard({ p, before }: { p: OverlapPair; before?: OverlapPair }) {
  const o = p.overlap;
  const { bothRight, onlyA, onlyB, bothWrong } = o.counts;
  const same = Math.round(o.w * o.n);
  const delta = (now: number, then: number | undefined) =>
    then === undefined ? null : <span className="overlap-delta">({signed(now - then)})</span>;
  const b = before?.overlap;
  return (
    <div
      className="overlap-pair"
      data-testid="overlap-pair"
      data-pair={`${p.a}-${p.b}`}
      data-kappa={o.kappa.toFixed(4)}
      data-cells={`${bothRight},${onlyA},${onlyB},${bothWrong}`}
    >
      <div className="overlap-pair-title">
        <strong>{p.a}</strong> × <strong>{p.b}</strong>{' '}
        <span className="muted small">
          ({(o.accA * 100).toFixed(0)}% / {(o.accB * 100).toFixed(0)}% right)
        </span>
      </div>
      <table className="overlap-cells" aria-label={`${p.a} and ${p.b}: problems by who is right`}>
        <thead>
          <tr>
            <td />
            <th scope="col">{p.b} right</th>
            <th scope="col">{p.b} wrong</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{p.a} right</th>
            <td className="cell both-right" title="both right">
              {bothRight}
            </td>
            <td className="cell only-one" title={`only ${p.a} right`}>
              {onlyA}
            </td>
          </tr>
          <tr>
            <th scope="row">{p.a} wrong</th>
            <td className="cell only-one" title={`only ${p.b} right`}>
              {onlyB}
            </td>
            <td className="cell both-wrong" title={`both wrong; ${same} of them with the same answer`}>
              {bothWrong}
              {bothWrong > 0 && <span className="same-wrong"> ({same} same)</span>}
            </td>
          </tr>
        </tbody>
      </table>
      <div className="overlap-stats">
        <span
          title={
            o.kappaDegenerate ? 'both always right or both always wrong: kappa is 1 by convention' : undefined
          }
        >
          κ{' '}
          <strong>
            {f2(o.kappa)}
            {o.kappaDegenerate ? '*' : ''}
          </strong>{' '}
          {delta(o.kappa, b?.kappa)}
        </span>
        <span>
          c <strong>{f2(o.c)}</strong> {delta(o.c, b?.c)}
        </span>
        <span>
          u <strong>{f2(o.u)}</strong> {delta(o.u, b?.u)}
        </span>
        <span>
          w <strong>{f2(o.w)}</strong> {delta(o.w, b?.w)}
        </span>
      </div>
    </div>
  );
}

function Column({
  testId,
  title,
  result,
  empty,
  base,
}: {
  testId: string;
  title: string;
  result: SnapshotResult | null;
  empty: string;
  base?: OverlapSnapshot;
}) {
  const snap = result?.ok ? result.snapshot : null;
  return (
    <div
      className="overlap-col"
      data-testid={testId}
      data-step={snap?.step ?? ''}
      data-problems={snap?.problems ?? ''}
      data-kappa={snap ? snap.pairs.map((p) => p.overlap.kappa.toFixed(4)).join(',') : ''}
    >
      <h4>{title}</h4>
      {!result && <p className="muted small">{empty}</p>}
      {result && !result.ok && <p className="field-help error">{result.reason}</p>}
      {snap && (
        <div className="overlap-pairs">
          {snap.pairs.map((p) => (
            <PairCard
              key={`${p.a}-${p.b}`}
              p={p}
              before={base?.pairs.find((q) => q.a === p.a && q.b === p.b)}
            />
          ))}
        </div>
      )}
    </div>
  );
}

export function OverlapView() {
  const metrics = useStore((s) => s.metrics);
  const [chosen, setChosen] = useState<RewardMethod | null>(null);
  const d = useMemo(() => overlapViewData(metrics, chosen), [metrics, chosen]);
  const before = d.before?.ok ? d.before.snapshot : undefined;
  const now = d.now?.ok ? d.now.snapshot : undefined;
  const nowTitle = now ? `Now (step ${now.step}, ${METHOD_LABEL[now.method]})` : 'Now';
  const problems = before?.problems ?? now?.problems;

  return (
    <section className="panel overlap-view" data-testid="overlap-view">
      <div className="overlap-head">
        <h3>Error overlap of each pair</h3>
        <label className="overlap-method">
          Method{' '}
          <select
            data-testid="overlap-method"
            value={d.method ?? ''}
            disabled={d.methods.length < 2}
            onChange={(e) => setChosen(e.target.value as RewardMethod)}
          >
            {d.methods.length === 0 && <option value="">—</option>}
            {d.methods.map((m) => (
              <option key={m} value={m}>
                {METHOD_LABEL[m]}
              </option>
            ))}
          </select>
          {d.method && <span className="method-dot" style={{ background: METHOD_COLOUR[d.method] }} />}
        </label>
      </div>
      <p className="caption">
        Each agent answers the {problems ?? ''} held-out problems greedily; every problem falls in one cell of
        the pair's 2×2 table. Diverse cohorts have low κ and high c; the figures in brackets are the change
        since step 0.
      </p>
      <div className="overlap-cols">
        <Column
          testId="overlap-before"
          title="Before training (step 0)"
          result={d.before}
          empty="Appears after the step-0 evaluation of the base agents."
        />
        <Column
          testId="overlap-now"
          title={nowTitle}
          result={d.now}
          empty="Appears after the first evaluation."
          base={before}
        />
      </div>
      <dl className="overlap-help">
        {HELP.map((h) => (
          <div key={h.sym}>
            <dt>{h.sym}</dt>
            <dd>{h.text}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
