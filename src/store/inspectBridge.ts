// The inspector's side of the training worker: asks for the latest step's inspection and for the
// attention of the chosen completion while the inspector is open, at most once per step and selection
// (one request of each kind in flight; a newer wish waits for the answer), and folds the answers into
// the store's inspect slice. Requests go through the training worker the run lives in (trainBridge).
import { chosenPrompt } from '../rl/inspection';
import type { RewardMethod } from '../rl/rewards';
import type { AttentionRequest, TrainEvent } from '../worker/protocol';
import type { InspectSelection } from './inspectSlice';
import { useStore } from './store';
import { onTrainEvents, sendTrainCommand } from './trainBridge';

let listening = false;
/** Key of the last request of each kind (at most one per step and selection), and whether one is in flight. */
let askedInspect = '';
let askedAttention = '';
let inspectInFlight = false;
let attentionInFlight = false;

/** The method the inspector shows: the chosen one if the run has it, else the run's first. */
export function inspectMethod(): RewardMethod | null {
  const s = useStore.getState();
  const m = s.inspect.sel.method;
  return m && s.metrics.methods.includes(m) ? m : (s.metrics.methods[0] ?? null);
}

/** The latest step of `method` the page has a record of (0 = none). */
function knownStep(method: RewardMethod): number {
  return useStore.getState().metrics.steps[method]?.at(-1)?.step ?? 0;
}

/** The attention request the selection asks for, clamped to the inspection's ranges (null: nothing to ask). */
export function attentionWish(): AttentionRequest | null {
  const { inspection, sel } = useStore.getState().inspect;
  if (!inspection || inspection.prompts.length === 0) return null;
  const n = Math.max(0, inspection.agents.indexOf(sel.agent ?? ''));
  const clamp = (v: number, hi: number) => Math.min(Math.max(0, Math.floor(v)), Math.max(0, hi - 1));
  return {
    type: 'attention',
    method: inspection.method,
    agent: inspection.agents[n],
    prompt: chosenPrompt(inspection, sel.prompt),
    sample: clamp(sel.sample, inspection.K),
    layer: clamp(sel.layer, inspection.shapes[n].layers),
  };
}

function ensureListening(): void {
  if (listening) return;
  listening = true;
  onTrainEvents(onEvents);
}

/** Ask for the latest inspection when the page knows of a step newer than the one shown. */
export function refreshInspection(): void {
  ensureListening();
  const s = useStore.getState();
  const runId = s.metrics.runId;
  const method = inspectMethod();
  if (!s.inspect.open || runId === 0 || !method || inspectInFlight) return;
  const known = knownStep(method);
  const shown =
    s.inspect.runId === runId && s.inspect.inspection?.method === method ? s.inspect.inspection.step : 0;
  const key = `${runId}|${method}|${known}`;
  if (known === 0 || known <= shown || key === askedInspect) return;
  askedInspect = key;
  inspectInFlight = true;
  sendTrainCommand({ type: 'inspect', method });
}

/** Ask for the attention of the selected completion, once per step and selection. */
export function refreshAttention(): void {
  ensureListening();
  const s = useStore.getState();
  const wish = attentionWish();
  if (!s.inspect.open || !wish || attentionInFlight) return;
  const key = `${s.metrics.runId}|${s.inspect.inspection!.step}|${JSON.stringify(wish)}`;
  if (key === askedAttention) return;
  askedAttention = key;
  attentionInFlight = true;
  sendTrainCommand(wish);
}

/** Open or close the inspector panel (opening fetches what it shows). */
export function setInspectorOpen(open: boolean): void {
  useStore.getState().setInspect({ open });
  if (open) {
    refreshInspection();
    refreshAttention();
  }
}

/** Change what the inspector shows, then fetch what that needs. */
export function chooseInspect(patch: Partial<InspectSelection>): void {
  useStore.getState().selectInspect(patch);
  refreshInspection();
  refreshAttention();
}

function onEvents(events: readonly TrainEvent[]): void {
  const st = useStore.getState();
  let stepped = false;
  for (const e of events) {
    switch (e.type) {
      case 'run':
        askedInspect = askedAttention = '';
        inspectInFlight = attentionInFlight = false;
        st.setInspect({ inspection: null, attention: null, runId: e.runId, error: '' });
        break;
      case 'step':
        stepped = true;
        break;
      case 'inspection':
        inspectInFlight = false;
        if (e.runId === useStore.getState().metrics.runId && e.method === inspectMethod())
          st.setInspect({ inspection: e.inspection, runId: e.runId, error: '' });
        break;
      case 'attention': {
        attentionInFlight = false;
        const { type: _t, ...data } = e;
        if (e.runId === useStore.getState().metrics.runId) st.setInspect({ attention: data });
        break;
      }
      case 'inspectError':
        if (e.request.type === 'inspect') inspectInFlight = false;
        else attentionInFlight = false;
        st.setInspect({ error: e.message });
        break;
    }
  }
  if (
    stepped ||
    events.some((e) => e.type === 'inspection' || e.type === 'attention' || e.type === 'inspectError')
  ) {
    refreshInspection();
    refreshAttention();
  }
}

/** Forget the request bookkeeping (tests). */
export function resetInspectBridge(): void {
  askedInspect = askedAttention = '';
  inspectInFlight = attentionInFlight = false;
}
