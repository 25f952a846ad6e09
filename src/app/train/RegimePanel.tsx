// The Train view's regime check (docs/method.md, "The regime"): before Start, "Check the regime" measures
// the cohort's base agents in the training worker on validation problems at the run's K and rollout
// temperature, and shows gates A1-A5 with their measured values, the sentence of what follows, the
// per-agent table and the pair table (each figure with its 95% interval). A run's own step-0 report (the
// run file's `regime`) shows here when the panel has none.
import { useStore } from '../../store/store';
import { checkRegime } from '../../store/regimeBridge';
import { regimeKey } from '../../store/regimeSlice';
import { changeSettings } from '../../store/trainBridge';
import type { Estimate } from '../../rl/regime/stats';
import type { AgentRegime } from '../../rl/regime/figures';
import type { RegimeReport } from '../../rl/regime/measure';
import { useState } from 'react';
import './regime.css';

/** Three decimals, or "n/a" for a figure with no data (NaN, or null after a JSON round trip). */
export const f3 = (x: number | null): string =>
  typeof x !== 'number' || Number.isNaN(x) ? 'n/a' : x.toFixed(3);

/** The per-agent figures, one row each (agents are the columns: a phone fits them). */
const COLUMNS: { key: keyof Omit<AgentRegime, 'id'>; label: string; title: string }[] = [
  { key: 'greedy', label: 'greedy', title: 'greedy accuracy (gate A1: in [0.30, 0.70])' },
  { key: 'sampled', label: 'sampled', title: 'mean share of the K rollout samples that are right' },
  { key: 'majK', label: 'maj@K', title: 'accuracy of the majority vote of K samples' },
  { key: 'majMinusGreedy', label: 'maj@K − greedy', title: 'gate A2: >= 0' },
  { key: 'passK', label: 'pass@K', title: 'at least one of the K samples right' },
  {
    key: 'spread',
    label: 'spread',
    title: 'gate A4: share of problems with 0 < p(x) < 1 from S samples, >= 0.4',
  },
  { key: 'voteAuroc', label: 'vote AUROC', title: "how well the vote's share tells right votes from wrong" },
  {
    key: 'zeroStd',
    label: 'zero-std',
    title: 'share of rollout groups with all K ground-truth rewards equal',
  },
  {
    key: 'voteIsGreedy',
    label: 'vote = greedy',
    title: 'share of problems where the vote is the greedy answer',
  },
  {
    key: 'seedOnlyKappa',
    label: 'seed-only κ',
    title: 'gate A5: one checkpoint sampled twice at T = 0.8, in [0.45, 0.65]',
  },
];

function Cell({ e, id }: { e: Estimate | null; id: string }) {
  if (!e)
    return (
      <td data-testid={id} data-value="">
        not measurable
      </td>
    );
  const ci = typeof e.lo === 'number' && !Number.isNaN(e.lo);
  return (
    <td data-testid={id} data-value={f3(e.value)}>
      <span className="regime-value">{f3(e.value)}</span>
      {ci && (
        <span className="regime-ci">
          [{f3(e.lo)}, {f3(e.hi)}]
        </span>
      )}
    </td>
  );
}

function Report({ r }: { r: RegimeReport }) {
  const f = r.figures;
  return (
    <>
      <p
        className={`regime-sentence ${r.verdict.inRegime ? 'in' : 'out'}`}
        data-testid="regime-sentence"
        data-in-regime={String(r.verdict.inRegime)}
      >
        {r.verdict.sentence}
      </p>
      <ul className="regime-gates" data-testid="regime-gates">
        {r.verdict.gates.map((g) => (
          <li
            key={g.id}
            className={`regime-gate ${g.status.replace(' ', '-')}`}
            data-testid={`regime-gate-${g.id}`}
            data-status={g.status}
          >
            <span className="regime-gate-id">{g.id}</span>
            <span className="regime-gate-status">{g.status}</span>
            <span className="regime-gate-what">{g.what}</span>
            <span className="regime-gate-detail" data-testid={`regime-gate-${g.id}-detail`}>
              {g.detail}
            </span>
          </li>
        ))}
      </ul>
      <p className="muted small" data-testid="regime-settings">
        {r.split} split, {r.problems} problems; rollout K = {r.K} at T = {r.temperature}; spread from S ={' '}
        {r.spreadSamples} samples; seed-only pair at T = {r.seedOnlyTemperature}; seed {r.seed}. Intervals are
        95%.
      </p>
      <table className="regime-table regime-agents" data-testid="regime-agents">
        <thead>
          <tr>
            <th>figure</th>
            {f.agents.map((a) => (
              <th key={a.id} data-testid={`regime-agent-${a.id}`}>
                {a.id}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {COLUMNS.map((c) => (
            <tr key={c.key}>
              <th title={c.title}>{c.label}</th>
              {f.agents.map((a) => (
                <Cell key={a.id} e={a[c.key]} id={`regime-${a.id}-${c.key}`} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {f.pairs.length > 0 && (
        <div>
          <table className="regime-table regime-pairs" data-testid="regime-pairs">
            <thead>
              <tr>
                <th title="the learner, trained on the peer's votes">learner ← peer</th>
                <th title="gate A3: mean >= 0.15 over the training pairs">reach (A3)</th>
                <th title="problems where the peer's vote is right and the learner's own vote wrong (>= 100 to measure)">
                  n
                </th>
                <th title="share of the learner's groups with all K rewards equal under the peer's vote">
                  zero-std
                </th>
                <th title="Cohen's kappa of the two agents' greedy answers">κ greedy</th>
                <th title="Cohen's kappa of one sample each at T = 0.8">κ T=0.8</th>
              </tr>
            </thead>
            <tbody>
              {f.pairs.map((p) => {
                const id = `regime-pair-${p.learner}-${p.peer}`;
                return (
                  <tr key={id} data-testid={id}>
                    <th>
                      {p.learner} ← {p.peer}
                    </th>
                    <Cell e={p.reach} id={`${id}-reach`} />
                    <td data-testid={`${id}-qualifying`}>
                      {p.reachProblems}
                      {!p.reachMeasurable && <span className="regime-ci">too few</span>}
                    </td>
                    <Cell e={p.peerZeroStd} id={`${id}-zeroStd`} />
                    <td>{f3(p.kappaGreedy)}</td>
                    <td>{f3(p.kappaSampled)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="muted small">
            n: problems where the peer&apos;s vote is right and the learner&apos;s own vote wrong (reach is
            measured from 100); zero-std: the learner&apos;s groups with all K rewards equal under the
            peer&apos;s vote.
          </p>
        </div>
      )}
    </>
  );
}

/** What eval.regime accepts (src/rl/config.ts): 0, or 10 to 100,000 problems. */
const okCount = (n: number): boolean => n === 0 || (Number.isInteger(n) && n >= 10 && n <= 100000);

export function RegimePanel() {
  const check = useStore((s) => s.regimeCheck);
  const settings = useStore((s) => s.runSettings);
  const runRegime = useStore((s) => s.metrics.regime);
  const [refused, setRefused] = useState('');
  const running = check.phase === 'running';
  const stale = check.report !== null && check.key !== regimeKey(settings);
  const shown = check.report ?? runRegime ?? null;
  return (
    <section className="regime-panel" data-testid="regime-panel" data-phase={check.phase}>
      <div className="regime-head">
        <h3>The regime of the base agents</h3>
        <label className="regime-count">
          validation problems
          <input
            type="number"
            min={0}
            step={100}
            value={settings.regimeProblems}
            data-testid="regime-problems"
            onChange={(e) => changeSettings({ regimeProblems: Number(e.target.value) })}
          />
        </label>
        <button
          type="button"
          data-testid="regime-check"
          disabled={running}
          onClick={() => setRefused(checkRegime())}
        >
          {running ? 'Checking…' : 'Check the regime'}
        </button>
      </div>
      <p className="muted small">
        Gates A1–A5 on {settings.regimeProblems} validation problems at the run&apos;s K = {settings.samples}{' '}
        and T = {settings.temperature}, before any RL: where a gate fails, label-free RL can only distil. A
        run keeps this check in its run file (measured at step 0 when the panel&apos;s does not match; 0
        problems: none).
      </p>
      {!okCount(settings.regimeProblems) && (
        <p className="error" data-testid="regime-problems-error">
          validation problems: must be 0 (no check at step 0) or an integer in [10, 100000], got{' '}
          {String(settings.regimeProblems)}
        </p>
      )}
      {refused && (
        <p className="error" data-testid="regime-refused">
          {refused}
        </p>
      )}
      {check.message && (
        <p className={check.phase === 'error' ? 'error' : 'muted small'} data-testid="regime-status">
          {check.message}
        </p>
      )}
      {stale && (
        <p className="muted small" data-testid="regime-stale">
          The settings changed since this check (cohort, K, T, problems or engine): check again before Start.
        </p>
      )}
      {!check.report && runRegime && (
        <p className="muted small" data-testid="regime-from-run">
          The run&apos;s own check at step 0:
        </p>
      )}
      {shown && <Report r={shown} />}
    </section>
  );
}
