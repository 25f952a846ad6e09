// "Keep and share" glue between the store and the browser: the run settings mirrored into the URL (read
// once when the Train view first shows, written with history.replaceState as they change), downloads of the
// run file and the metrics CSVs, the shareable link, and importing a run file (checked completely first;
// a refused file changes nothing). No network calls: everything stays in the page.
import { NATURAL_PRESET_NAMES } from '../cohort/naturalPresets';
import { evalsCsv, pairsCsv, stepsCsv } from '../rl/csv';
import type { EvalRecord, StepRecord } from '../rl/records';
import type { RunMetrics } from '../formats/runMetrics';
import { DEFAULT_RUN_SETTINGS, type RunSettings } from '../formats/runSettings';
import { keptOfRun } from '../formats/runFileTask';
import {
  buildRunFile,
  parseRunFileBytes,
  RUN_FILE_MAX_CHARS,
  RUN_NAME_MAX,
  type RunFile,
} from '../formats/runFile';
import { IDLE_STATUS } from './runStatusSlice';
import { useStore, type AppState } from './store';
import { pauseTraining } from './trainBridge';
import { formatIgnored, linkFor, mergeQuery, settingsFromQuery } from '../formats/urlConfig';

let urlRead = false;
let presetFromUrl = false;
let started = false;

/** Read the run settings from the URL (once, the first time the Train view shows) and report what was ignored. */
function readUrlOnce(): void {
  if (urlRead || useStore.getState().view !== 'train') return;
  urlRead = true;
  const q = new URLSearchParams(location.search);
  if (q.has('autostart')) return; // an engine-demo link: its steps= and backend= are the demo's
  const r = settingsFromQuery(location.search);
  if (r.used.length === 0 && r.ignored.length === 0) return;
  presetFromUrl = r.used.includes('preset');
  useStore.setState({ runSettings: r.settings, urlNotice: r.ignored.map(formatIgnored) });
}

/** Mirror the settings into the URL query (fields that differ from the defaults) while the Train view shows. */
function writeUrl(): void {
  const s = useStore.getState();
  if (!urlRead || s.view !== 'train') return;
  const search = mergeQuery(location.search, s.runSettings);
  if (search !== location.search)
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
}

/** A preset named by the link that the checkpoint manifest does not list falls back to the default one. */
function checkPreset(s: AppState): void {
  if (!presetFromUrl || s.presets.length === 0) return;
  presetFromUrl = false;
  const names = [...s.presets.map((p) => p.name), ...NATURAL_PRESET_NAMES];
  if (names.includes(s.runSettings.preset)) return;
  const fallback = names.includes(DEFAULT_RUN_SETTINGS.preset) ? DEFAULT_RUN_SETTINGS.preset : names[0];
  const line = formatIgnored({
    key: 'preset',
    value: s.runSettings.preset,
    reason: `unknown preset; available: ${names.join(', ')}`,
  });
  useStore.setState({
    runSettings: { ...s.runSettings, preset: fallback },
    urlNotice: [...s.urlNotice, line],
  });
}

/**
 * Start "Keep and share": call once before the first render. Reads the link's run settings when the page
 * opens on the Train view (or when it first shows), then keeps the URL in step with the settings.
 */
export function initShare(): void {
  if (started) return;
  started = true;
  readUrlOnce();
  writeUrl();
  useStore.subscribe((s, prev) => {
    if (s.view !== prev.view) readUrlOnce();
    if (s.runSettings !== prev.runSettings || s.view !== prev.view) writeUrl();
    if (s.presets !== prev.presets) checkPreset(s);
  });
}

/** The link that reproduces the current settings on the Train view. */
export function shareLink(settings: RunSettings = useStore.getState().runSettings): string {
  return linkFor(settings, location);
}

/** Copy the link to the clipboard; says how it went. */
export async function copyLink(): Promise<string> {
  const link = shareLink();
  try {
    await navigator.clipboard.writeText(link);
    return 'Link copied.';
  } catch (e) {
    return `Could not copy (${e instanceof Error ? e.message : String(e)}): select the link and copy it.`;
  }
}

/** A name made from the settings, for runs the user did not name. */
export function defaultRunName(s: RunSettings): string {
  return `${s.preset} ${s.methods.join('+')} seed ${s.seed}`;
}

/** The imported run on screen, if the records shown are its. */
export function shownImport(s: Pick<AppState, 'imported' | 'metrics'>) {
  return s.imported && s.imported.runId === s.metrics.runId ? s.imported : null;
}

/** The name exports carry: the one typed, else the imported run's, else one made from the settings. */
export function exportName(s: AppState = useStore.getState()): string {
  return (s.runName.trim() || shownImport(s)?.name || defaultRunName(s.runSettings)).slice(0, RUN_NAME_MAX);
}

/** A file-name-safe form of `name`. */
export const fileSlug = (name: string): string =>
  name
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'run';

/** Download `blob` as `filename` (a blob URL and an <a download> click; nothing leaves the page). */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** The current run as a run file (an imported run keeps the config it ran). */
export function currentRunFile(s: AppState = useStore.getState()): RunFile {
  const imp = shownImport(s);
  const runStatus = imp ? { step: s.runStatus.step, config: imp.config } : s.runStatus;
  return buildRunFile(
    { runSettings: s.runSettings, runStatus, metrics: s.metrics, taskFiles: s.taskFiles },
    exportName(s),
  );
}

/** Whether the store holds any record to export. */
export const hasRecords = (m: RunMetrics): boolean =>
  Object.values(m.steps).some((r) => r && r.length > 0) ||
  Object.values(m.evals).some((r) => r && r.length > 0);

/** Download the current run as JSON (co-rl-playground-run version 1). */
export function exportRunJson(): void {
  const f = currentRunFile();
  downloadBlob(
    new Blob([JSON.stringify(f)], { type: 'application/json' }),
    `co-rl-run-${fileSlug(f.name)}-step${f.step}.json`,
  );
}

/** The kinds of metrics CSV: training steps per agent, pairwise agreement, evaluations. */
export type CsvKind = 'steps' | 'pairs' | 'evals';

/** The CSV of one kind for `m`, methods in display order. */
export function metricsCsv(m: RunMetrics, kind: CsvKind): string {
  const steps: StepRecord[] = m.methods.flatMap((x) => m.steps[x] ?? []);
  const evals: EvalRecord[] = m.methods.flatMap((x) => m.evals[x] ?? []);
  return kind === 'steps' ? stepsCsv(steps) : kind === 'pairs' ? pairsCsv(steps) : evalsCsv(evals);
}

/** Download one metrics CSV of the current run. */
export function exportMetricsCsv(kind: CsvKind): void {
  const s = useStore.getState();
  downloadBlob(
    new Blob([metricsCsv(s.metrics, kind)], { type: 'text/csv' }),
    `co-rl-${fileSlug(exportName(s))}-${kind}.csv`,
  );
}

let importIds = 0;

/** Show `run` (checked by parseRunFile): its settings, records and a status that says it is imported. */
export function loadRun(run: RunFile, file: string): void {
  const s = useStore.getState();
  if (s.runStatus.phase === 'running' || s.runStatus.phase === 'loading') pauseTraining(); // its later events no longer show
  const runId = -++importIds; // never a worker run id: late events of an earlier run are dropped
  const { methods, steps, evals } = run.metrics;
  useStore.setState({
    runSettings: run.settings,
    taskFiles: { ...s.taskFiles, ...keptOfRun(run) }, // a file task's run brings its file's text
    metrics: { runId, methods: [...methods], steps, evals, ...(run.regime ? { regime: run.regime } : {}) },
    runStatus: {
      ...IDLE_STATUS,
      runId,
      step: run.step,
      totalSteps: run.config.steps,
      message: `Imported run “${run.name}” at step ${run.step} of ${run.config.steps}. Start runs its config again from step 0.`,
    },
    imported: { runId, name: run.name, step: run.step, savedAt: run.savedAt, file, config: run.config },
    importError: null,
    runName: '', // exports of the imported run carry its name; a later run gets its own
  });
}

/** Import a run file chosen by the user. */
export async function importRunFile(f: File): Promise<boolean> {
  const refuse = (errors: string[]) => {
    useStore.getState().setImportError({ file: f.name, errors });
    return false;
  };
  if (f.size > RUN_FILE_MAX_CHARS)
    return refuse([
      `the file is ${(f.size / 1048576).toFixed(0)} MB, more than a run file can be (${RUN_FILE_MAX_CHARS / 1048576} MB)`,
    ]);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await f.arrayBuffer());
  } catch (e) {
    return refuse([`could not read the file: ${e instanceof Error ? e.message : String(e)}`]);
  }
  const r = parseRunFileBytes(bytes);
  if (!r.ok) return refuse(r.errors);
  loadRun(r.run, f.name);
  return true;
}
