// The attention heatmap of one completion: for a chosen agent, completion, block and head, the T×T
// probabilities with which each query position (row) attends to each earlier key position (column),
// drawn on a canvas with the tokens along both axes, a colour scale and the value under the pointer.
// Above the diagonal is masked (causal attention); a line marks where the completion begins.
import { useEffect, useMemo, useRef, useState } from 'react';
import { chosenPrompt, type StepInspection } from '../../rl/inspection';
import { chooseInspect } from '../../store/inspectBridge';
import type { AttentionData, InspectSelection } from '../../store/inspectSlice';

const LOW = [255, 255, 255];
const HIGH = [29, 78, 216]; // the app's blue (#1d4ed8)
const MASKED = '#f3f4f6';
const BOUNDARY = '#ea580c';

/** Colour of a value in [0, 1] on the white-to-blue scale. */
function colour(u: number): string {
  const c = LOW.map((lo, i) => Math.round(lo + (HIGH[i] - lo) * Math.min(1, Math.max(0, u))));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** A token as it is drawn (a space is shown as a visible mark). */
const show = (t: string): string => (t === ' ' ? '␣' : t === '' ? '·' : t);

interface Hover {
  q: number;
  k: number;
  v: number;
}

function Heatmap({ a, head }: { a: AttentionData; head: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const T = a.tokens.length;
  const cell = Math.max(8, Math.min(28, Math.floor(440 / Math.max(1, T))));
  const margin = 16;
  const size = margin + T * cell;
  const h = Math.min(head, a.heads - 1);
  const max = useMemo(() => {
    let m = 0;
    for (let i = h * T * T; i < (h + 1) * T * T; i++) m = Math.max(m, a.probs[i]);
    return m || 1;
  }, [a, h, T]);

  useEffect(() => {
    const cv = ref.current;
    const ctx = cv?.getContext('2d');
    if (!cv || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    cv.width = Math.round(size * dpr);
    cv.height = Math.round(size * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size, size);
    for (let q = 0; q < T; q++)
      for (let k = 0; k < T; k++) {
        ctx.fillStyle = k > q ? MASKED : colour(a.probs[(h * T + q) * T + k] / max);
        ctx.fillRect(margin + k * cell, margin + q * cell, cell, cell);
      }
    // token labels: keys along the top, queries down the left
    ctx.fillStyle = '#374151';
    ctx.font = `${Math.min(12, cell + 1)}px ui-monospace, monospace`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < T; i++) {
      ctx.fillText(show(a.tokens[i]), margin + i * cell + cell / 2, margin / 2);
      ctx.fillText(show(a.tokens[i]), margin / 2, margin + i * cell + cell / 2);
    }
    // where the completion begins
    if (a.promptTokens > 0 && a.promptTokens < T) {
      const x = margin + a.promptTokens * cell;
      ctx.strokeStyle = BOUNDARY;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x, margin);
      ctx.lineTo(x, size);
      ctx.moveTo(margin, x);
      ctx.lineTo(size, x);
      ctx.stroke();
    }
  }, [a, h, T, cell, size, max]);

  const onMove = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const scale = size / r.width;
    const k = Math.floor(((e.clientX - r.left) * scale - margin) / cell);
    const q = Math.floor(((e.clientY - r.top) * scale - margin) / cell);
    if (q < 0 || k < 0 || q >= T || k >= T) setHover(null);
    else setHover({ q, k, v: a.probs[(h * T + q) * T + k] });
  };

  return (
    <div className="attention-canvas-wrap">
      <canvas
        ref={ref}
        className="attention-canvas"
        style={{ width: size, maxWidth: '100%' }}
        role="img"
        aria-label={`Attention of head ${h} over ${T} tokens`}
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
      />
      <div className="attention-side">
        <div className="attention-scale">
          <span className="small">0</span>
          <span
            className="attention-bar"
            style={{ background: `linear-gradient(to right, ${colour(0)}, ${colour(1)})` }}
          />
          <span className="small">{max.toFixed(2)}</span>
        </div>
        <p className="small" data-testid="attention-hover">
          {hover
            ? hover.k > hover.q
              ? `query ${hover.q} '${show(a.tokens[hover.q])}' cannot see key ${hover.k} (causal mask)`
              : `query ${hover.q} '${show(a.tokens[hover.q])}' → key ${hover.k} '${show(a.tokens[hover.k])}': ${hover.v.toFixed(3)}`
            : 'Point at a cell: row = the position attending (query), column = the position attended to (key).'}
        </p>
        <p className="small muted">
          Each row sums to 1. Colour runs from 0 to the head's largest value; grey cells lie above the
          diagonal (a position never sees later ones); the orange line marks where the completion begins.
        </p>
      </div>
    </div>
  );
}

export function AttentionMap({
  inspection,
  sel,
  attention,
}: {
  inspection: StepInspection;
  sel: InspectSelection;
  attention: AttentionData | null;
}) {
  const n = Math.max(0, inspection.agents.indexOf(sel.agent ?? ''));
  const agent = inspection.agents[n];
  const { layers, heads } = inspection.shapes[n];
  const layer = Math.min(sel.layer, layers - 1);
  const head = Math.min(sel.head, heads - 1);
  const sample = Math.min(sel.sample, inspection.K - 1);
  const prompt = chosenPrompt(inspection, sel.prompt);
  const current =
    attention &&
    attention.method === inspection.method &&
    attention.agent === agent &&
    attention.prompt === prompt &&
    attention.sample === sample &&
    attention.layer === layer &&
    attention.step === inspection.step;
  const pick = (
    label: string,
    testid: string,
    value: number,
    count: number,
    onChange: (v: number) => void,
    name: (i: number) => string,
  ) => (
    <label className="field">
      <span>{label}</span>
      <select data-testid={testid} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {Array.from({ length: count }, (_, i) => (
          <option key={i} value={i}>
            {name(i)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section className="attention" aria-label="Attention heatmap">
      <h4>Attention</h4>
      <div className="inspector-controls">
        <label className="field">
          <span>Agent</span>
          <select
            data-testid="attention-agent"
            value={agent}
            onChange={(e) => chooseInspect({ agent: e.target.value })}
          >
            {inspection.agents.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        {pick(
          'Completion',
          'attention-sample',
          sample,
          inspection.K,
          (v) => chooseInspect({ sample: v }),
          (i) => `${i + 1}`,
        )}
        {pick(
          'Block (layer)',
          'attention-layer',
          layer,
          layers,
          (v) => chooseInspect({ layer: v }),
          (i) => `${i}`,
        )}
        {pick(
          'Head',
          'attention-head',
          head,
          heads,
          (v) => chooseInspect({ head: v }),
          (i) => `${i}`,
        )}
      </div>
      {attention ? (
        <div
          className={`attention-map${current ? '' : ' stale'}`}
          data-testid="attention-map"
          data-heads={attention.heads}
          data-tokens={attention.tokens.length}
          data-current={current ? 'true' : 'false'}
          data-agent={attention.agent}
          data-layer={attention.layer}
        >
          <p className="small muted">
            Agent {attention.agent}, prompt #{attention.prompt + 1}, completion {attention.sample + 1}, block{' '}
            {attention.layer}, head {head}, through its model after step {attention.step}
            {current ? '' : ' (updating…)'}
          </p>
          <Heatmap a={attention} head={head} />
        </div>
      ) : (
        <p className="small muted">Fetching the attention…</p>
      )}
    </section>
  );
}
