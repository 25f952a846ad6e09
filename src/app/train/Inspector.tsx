// The inspector: the latest training step of one method in full. For a chosen prompt, the ground truth,
// each agent's own vote and the label it was trained on (Co-RL: its predecessor's vote; TTRL: its own
// vote; GT: the truth), and every one of its K completions with the extracted answer, the reward and a
// mark where the answer equals that label; below, the attention heatmap of a chosen completion.
// Data comes from the worker on demand (src/store/inspectBridge.ts), at most once per step while open.
import { useMemo } from 'react';
import { chosenPrompt, promptOrder, type InspectedAgent } from '../../rl/inspection';
import type { RewardMethod } from '../../rl/rewards';
import { chooseInspect, setInspectorOpen } from '../../store/inspectBridge';
import { useStore } from '../../store/store';
import { AttentionMap } from './AttentionMap';
import { METHOD_LABEL } from './chartData';
import './inspector.css';

/** Where an agent's label came from, in words. */
function labelSource(from: string | null, self: string): string {
  if (from === null) return 'no label: this method rewards without one';
  if (from === 'truth') return 'the ground truth';
  if (from === self) return 'its own vote';
  return `${from}'s vote`;
}

const fmtReward = (r: number): string => (Number.isInteger(r) ? String(r) : r.toFixed(3));
const pct = (x: number): string => `${Math.round(100 * x)}%`;

function AgentTable({
  a,
  from,
  truth,
  chosen,
  onPick,
}: {
  a: InspectedAgent;
  from: string | null;
  truth: string;
  chosen: number | null;
  onPick: (k: number) => void;
}) {
  return (
    <section
      className="inspector-agent"
      data-testid={`inspector-agent-${a.agent}`}
      data-vote={a.vote ?? ''}
      data-label={a.label ?? ''}
    >
      <h4>
        Agent {a.agent} <span className="muted small">reads</span> <code className="tok">{a.prompt}</code>
      </h4>
      <p className="small inspector-votes">
        Own vote <b>{a.vote ?? 'none'}</b>
        {a.vote !== null && <span className="muted"> ({pct(a.voteShare)} of its parseable answers)</span>}
        {' · '}trained on{' '}
        {from === null ? (
          <span className="muted">{labelSource(from, a.agent)}</span>
        ) : (
          <>
            <b>{a.label ?? 'nothing (unlabelled)'}</b>{' '}
            <span className="muted">({labelSource(from, a.agent)})</span>
          </>
        )}
      </p>
      <div className="inspector-scroll">
        <table className="inspector-table">
          <thead>
            <tr>
              <th>#</th>
              <th>completion</th>
              <th>answer</th>
              <th>reward</th>
              <th title="the answer equals the label this agent was trained on">= label</th>
            </tr>
          </thead>
          <tbody>
            {a.completions.map((c, k) => {
              const ans = a.answers[k];
              const match = a.label !== null && ans !== null && ans === a.label;
              return (
                <tr
                  key={k}
                  data-testid="inspector-row"
                  data-answer={ans ?? ''}
                  data-reward={String(a.rewards[k])}
                  data-label={a.label ?? ''}
                  className={chosen === k ? 'chosen' : undefined}
                  onClick={() => onPick(k)}
                  title="Click to draw this completion's attention below"
                >
                  <td className="muted">{k + 1}</td>
                  <td>
                    <code className="tok">{c}</code>
                    {!a.eos[k] && (
                      <span
                        className="muted small"
                        title="cut off at the slot limit (no end-of-sequence token)"
                      >
                        {' '}
                        ✂
                      </span>
                    )}
                  </td>
                  <td
                    className={ans !== null && ans === truth ? 'right' : undefined}
                    title={ans !== null && ans === truth ? 'equals the ground truth' : undefined}
                  >
                    {ans ?? <span className="muted">unparseable</span>}
                  </td>
                  <td className={a.rewards[k] > 0 ? 'pos' : undefined}>{fmtReward(a.rewards[k])}</td>
                  <td className="mark">
                    {a.label === null ? <span className="muted">–</span> : match ? '✓' : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function InspectorBody() {
  const methods = useStore((s) => s.metrics.methods);
  const runId = useStore((s) => s.metrics.runId);
  const sel = useStore((s) => s.inspect.sel);
  const ins = useStore((s) => s.inspect.inspection);
  const error = useStore((s) => s.inspect.error);
  const attention = useStore((s) => s.inspect.attention);
  const method: RewardMethod | null =
    sel.method && methods.includes(sel.method) ? sel.method : (methods[0] ?? null);
  const latest = useStore((s) => (method ? (s.metrics.steps[method]?.at(-1)?.step ?? 0) : 0));
  const shown = ins && ins.method === method ? ins : null;
  const order = useMemo(() => (shown ? promptOrder(shown).map((i) => shown.prompts[i]) : []), [shown]);
  const prompt = shown ? (shown.prompts[chosenPrompt(shown, sel.prompt)] ?? null) : null;
  const chosenAgent = shown ? (shown.agents.includes(sel.agent ?? '') ? sel.agent : shown.agents[0]) : null;

  if (runId === 0 || !method)
    return <p className="muted small">Start a run: the inspector shows its latest step.</p>;
  return (
    <div className="inspector-body">
      <div className="inspector-controls">
        <label className="field">
          <span>Method</span>
          <select
            data-testid="inspector-method"
            value={method}
            onChange={(e) => chooseInspect({ method: e.target.value as RewardMethod })}
          >
            {methods.map((m) => (
              <option key={m} value={m}>
                {METHOD_LABEL[m]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>
            Prompt{' '}
            {shown && (
              <span className="muted">
                ({order.filter((p) => p.disagree).length} of {shown.prompts.length} with disagreeing votes,
                listed first)
              </span>
            )}
          </span>
          <select
            data-testid="inspector-prompt"
            value={prompt?.index ?? 0}
            disabled={!shown}
            onChange={(e) => chooseInspect({ prompt: Number(e.target.value) })}
          >
            {order.map((p) => (
              <option key={p.index} value={p.index}>
                {`#${p.index + 1}: ${p.agents[0].prompt}${p.disagree ? ' · votes differ' : ''}`}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="small muted inspector-step" data-testid="inspector-step" data-step={shown?.step ?? 0}>
        {latest === 0
          ? 'No step yet: the inspector fills in after step 1.'
          : !shown
            ? `Fetching step ${latest}…`
            : `Step ${shown.step} of ${METHOD_LABEL[shown.method]}, K = ${shown.K} completions per agent and prompt${latest > shown.step ? ` (step ${latest} is on its way)` : ''}. Rewards are computed against the label shown; ✓ marks an answer equal to it.`}
      </p>
      {error && (
        <p className="field-help error" data-testid="inspector-error">
          {error}
        </p>
      )}
      {shown && prompt && (
        <>
          <div className="inspector-header" data-testid="inspector-header" data-truth={prompt.truth}>
            <span>
              Ground truth <b>{prompt.truth}</b>
            </span>
            {prompt.agents.map((a, n) => (
              <span key={a.agent}>
                {a.agent}: votes <b>{a.vote ?? 'none'}</b>, trained on{' '}
                <b>{shown.labelFrom[n] === null ? '—' : (a.label ?? 'nothing')}</b>
              </span>
            ))}
            {prompt.disagree && <span className="disagree">votes differ</span>}
          </div>
          <div className="inspector-agents">
            {prompt.agents.map((a, n) => (
              <AgentTable
                key={a.agent}
                a={a}
                from={shown.labelFrom[n]}
                truth={prompt.truth}
                chosen={a.agent === chosenAgent ? Math.min(sel.sample, shown.K - 1) : null}
                onPick={(k) => chooseInspect({ agent: a.agent, sample: k })}
              />
            ))}
          </div>
          <AttentionMap inspection={shown} sel={sel} attention={attention} />
        </>
      )}
    </div>
  );
}

export function Inspector() {
  const open = useStore((s) => s.inspect.open);
  return (
    <details
      className="panel inspector"
      data-testid="inspector"
      open={open}
      onToggle={(e) => setInspectorOpen(e.currentTarget.open)}
    >
      <summary data-testid="inspector-toggle">
        <strong>Inspector</strong>{' '}
        <span className="muted small">
          the latest step prompt by prompt: completions, answers, votes, labels, rewards, attention
        </span>
      </summary>
      {open && <InspectorBody />}
    </details>
  );
}
