// The run file: one training run as plain JSON data — what "Export run" writes, what "Import run" reads,
// and what IndexedDB keeps so a reload resumes. Validation (parseRunFile) lives next to the type so every
// way a run enters the app goes through the same checks.
import { parseExperimentConfig, REWARD_METHODS, type ExperimentConfig } from '../rl/config';
import type { RunMetrics } from './runMetrics';
import { toExperimentConfig, type RunSettings } from './runSettings';
import { resolveSettings, SETTINGS_KEYS } from './urlConfig';
import type { RegimeReport } from '../rl/regime/measure';
import { checkRegimeReport, reviveRegime } from './runFileRegime';
import type { CarriedTaskFile } from '../tasks/file/carried';
import { checkRunTaskFile, embeddedTaskFile } from './runFileTask';
import type { KeptTaskFile } from './taskFileTask';
import { checkEvalRecord, checkPerMethod, checkStepRecord, isObject, Problems, shown } from './runFileChecks';

export const RUN_FILE_FORMAT = 'co-rl-playground-run';
export const RUN_FILE_VERSION = 1;

/** A trainer's resumable state after `step` lock steps, per method (see CohortTrainer.snapshot). */
export interface RunSnapshotRef {
  /** Lock steps completed when the snapshot was taken. */
  step: number;
  /** Key of the snapshot bytes in IndexedDB (not embedded in exported JSON files). */
  key: string;
}

export interface RunFile {
  format: typeof RUN_FILE_FORMAT;
  version: typeof RUN_FILE_VERSION;
  /** Display name (user text: always rendered as text). */
  name: string;
  /** ISO time of the save or export. */
  savedAt: string;
  /** The UI settings the run was started from (they restore the controls). */
  settings: RunSettings;
  /** The experiment config the worker ran (live changes included). */
  config: ExperimentConfig;
  /** Every record so far. */
  metrics: Omit<RunMetrics, 'runId'>;
  /** Lock steps completed. */
  step: number;
  /** Where training can resume from (IndexedDB only). */
  snapshot?: RunSnapshotRef;
  /** What the run was doing when saved (IndexedDB saves): a reload resumes loading/running/paused runs. */
  phase?: SavedPhase;
  /** The regime check of the base agents at step 0 (the Regime panel's, or config.eval.regime > 0; docs/run-file.md). */
  regime?: RegimeReport;
  /** A file task's file: its text and options (runFileTask.ts); absent for the built-in tasks. */
  taskFile?: CarriedTaskFile;
}

/** Phases a saved run can be in (TrainPhase of src/worker/protocol.ts). */
export const SAVED_PHASES = ['idle', 'loading', 'running', 'paused', 'done', 'error'] as const;
export type SavedPhase = (typeof SAVED_PHASES)[number];

// ---------------------------------------------------------------------------------------------------
// Building and reading run files. Reading checks everything (format, version, settings with the URL
// codec's checks, the config with parseExperimentConfig, every record's shape) and returns every problem
// found instead of throwing, so a refused file never changes what is loaded.

/** Every top-level field of a run file (a compile error here means a RunFile field is missing). */
const RUN_FILE_FIELDS = {
  format: true,
  version: true,
  name: true,
  savedAt: true,
  settings: true,
  config: true,
  metrics: true,
  step: true,
  snapshot: true,
  phase: true,
  regime: true,
  taskFile: true,
} satisfies Record<keyof RunFile, true>;

/** What a run file is built from: the store's run settings, status and records. */
export interface RunFileSource {
  runSettings: RunSettings;
  runStatus: { step: number; config: ExperimentConfig | null };
  metrics: RunMetrics;
  /** Texts of the task files loaded in the page (a file task's run embeds its file). */
  taskFiles?: Readonly<Record<string, KeptTaskFile>>;
}

/** The run file of the current run: `config` is the one the run started with (or the settings' own). */
export function buildRunFile(state: RunFileSource, name: string, savedAt: Date = new Date()): RunFile {
  const { methods, steps, evals } = state.metrics;
  const config = state.runStatus.config ?? toExperimentConfig(state.runSettings);
  return {
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    name,
    savedAt: savedAt.toISOString(),
    settings: state.runSettings,
    config,
    metrics: { methods, steps, evals },
    step: state.runStatus.step,
    ...(state.metrics.regime ? { regime: state.metrics.regime } : {}),
    ...embeddedTaskFile(config, state.taskFiles),
  };
}

/** The longest name a run file may carry. */
export const RUN_NAME_MAX = 200;
const WANT = `this app reads ${RUN_FILE_FORMAT} version ${RUN_FILE_VERSION} files (exported by "Export run (JSON)")`;

/**
 * Check a parsed run file (any value) completely. Returns the run (settings with defaults for fields the
 * file predates) or every problem found, each naming its field. Never throws.
 */
export function validateRunFile(raw: unknown): { ok: true; run: RunFile } | { ok: false; errors: string[] } {
  if (!isObject(raw))
    return {
      ok: false,
      errors: [
        `not a run file: the file holds ${Array.isArray(raw) ? 'a JSON array' : `the JSON value ${shown(raw)}`}, not an object; ${WANT}`,
      ],
    };
  if (raw.format !== RUN_FILE_FORMAT || raw.version !== RUN_FILE_VERSION) {
    if (typeof raw.format !== 'string')
      return {
        ok: false,
        errors: [
          `not a run file of this app (it has no "format" field; its fields are ${shown(Object.keys(raw).slice(0, 8))}); ${WANT}`,
        ],
      };
    return {
      ok: false,
      errors: [`this file is a ${shown(raw.format).slice(0, 60)} version ${shown(raw.version)}; ${WANT}`],
    };
  }
  const p = new Problems();
  for (const k of Object.keys(raw))
    if (!(k in RUN_FILE_FIELDS))
      p.add(`${k}: unknown field (a run file has ${Object.keys(RUN_FILE_FIELDS).join(', ')})`);

  if (typeof raw.name !== 'string') p.add(`name: must be a string, got ${shown(raw.name)}`);
  else if (raw.name.length > RUN_NAME_MAX)
    p.add(`name: at most ${RUN_NAME_MAX} characters, got ${raw.name.length}`);
  if (typeof raw.savedAt !== 'string' || Number.isNaN(Date.parse(raw.savedAt)))
    p.add(`savedAt: must be an ISO date string, got ${shown(raw.savedAt)}`);

  // a file task's file first: its rows must be registered before the settings and the config are read
  const fileMissing = checkRunTaskFile(p, raw);

  // settings: the URL codec's checks; missing fields (added after the file was written) take their defaults
  let settings: RunSettings | null = null;
  if (!isObject(raw.settings)) p.add(`settings: must be an object, got ${shown(raw.settings)}`);
  else {
    const given: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw.settings)) {
      if (!(SETTINGS_KEYS as readonly string[]).includes(k))
        p.add(`settings.${k}: unknown setting (settings are ${SETTINGS_KEYS.join(', ')})`);
      else given[k] = v;
    }
    const r = resolveSettings(given);
    for (const i of r.ignored) p.add(`settings.${i.key}: ${i.reason}`);
    settings = r.settings;
  }

  let config: ExperimentConfig | null = null;
  const c = parseExperimentConfig(raw.config);
  if (raw.config === undefined) p.add('config: missing (the experiment config the run ran)');
  else if (!c.ok) {
    for (const e of c.errors) if (!(fileMissing && e.startsWith('task'))) p.add(`config: ${e}`);
  } else config = c.config;
  const maxStep = config ? config.steps : null;

  const m = raw.metrics;
  let methods: string[] = [];
  if (!isObject(m)) p.add(`metrics: must be an object { methods, steps, evals }, got ${shown(m)}`);
  else {
    for (const k of Object.keys(m))
      if (!['methods', 'steps', 'evals'].includes(k))
        p.add(`metrics.${k}: unknown field (metrics has methods, steps, evals)`);
    if (!Array.isArray(m.methods))
      p.add(`metrics.methods: must be an array of method names, got ${shown(m.methods)}`);
    else {
      const list: unknown[] = m.methods;
      list.forEach((x, i) => {
        if (!(REWARD_METHODS as readonly unknown[]).includes(x))
          p.add(`metrics.methods[${i}]: unknown method ${shown(x)} (allowed: ${REWARD_METHODS.join(', ')})`);
        else if (list.indexOf(x) !== i) p.add(`metrics.methods[${i}]: ${shown(x)} listed twice`);
      });
      methods = list.filter((x): x is string => typeof x === 'string');
    }
    checkPerMethod(p, 'metrics.steps', m.steps, methods, maxStep, checkStepRecord);
    checkPerMethod(p, 'metrics.evals', m.evals, methods, maxStep, checkEvalRecord);
  }

  if (!(typeof raw.step === 'number' && Number.isInteger(raw.step) && raw.step >= 0))
    p.add(`step: must be an integer >= 0, got ${shown(raw.step)}`);
  else if (maxStep !== null && raw.step > maxStep)
    p.add(`step: ${raw.step} is beyond the config's ${maxStep} steps`);

  if (raw.snapshot !== undefined) {
    const s = raw.snapshot;
    if (
      !isObject(s) ||
      !(typeof s.step === 'number' && Number.isInteger(s.step) && s.step >= 0) ||
      typeof s.key !== 'string'
    )
      p.add(`snapshot: must be { step: integer >= 0, key: string }, got ${shown(s)}`);
  }
  if (raw.phase !== undefined && !(SAVED_PHASES as readonly unknown[]).includes(raw.phase))
    p.add(`phase: must be one of ${SAVED_PHASES.join(', ')}, got ${shown(raw.phase)}`);

  if (raw.regime !== undefined) checkRegimeReport(p, 'regime', raw.regime);

  if (p.count) return { ok: false, errors: p.result() };
  const run = { ...(raw as unknown as RunFile), settings: settings!, config: config! };
  if (run.regime) run.regime = reviveRegime(run.regime);
  return { ok: true, run };
}

/** The longest run file read (bytes of text). */
export const RUN_FILE_MAX_CHARS = 200 * 1024 * 1024;

/** What a binary file is, from its first bytes (null: none we know). */
function binaryKind(b: Uint8Array): string | null {
  const starts = (sig: readonly number[]) => sig.every((v, i) => b[i] === v);
  const ascii = (s: string) => starts([...s].map((c) => c.charCodeAt(0)));
  if (starts([0x89, 0x50, 0x4e, 0x47])) return 'a PNG image';
  if (starts([0xff, 0xd8, 0xff])) return 'a JPEG image';
  if (ascii('GIF8')) return 'a GIF image';
  if (ascii('%PDF')) return 'a PDF document';
  if (ascii('PK\x03\x04')) return 'a ZIP archive';
  if (ascii('CORLCKPT')) return 'a Co-RL checkpoint (.ckpt: import it as an agent in the cohort composer)';
  return null;
}

/** Read a run file's bytes: known binary formats and non-UTF-8 data are named, then {@link parseRunFile}. */
export function parseRunFileBytes(
  bytes: Uint8Array,
): { ok: true; run: RunFile } | { ok: false; errors: string[] } {
  if (bytes.length > RUN_FILE_MAX_CHARS)
    return {
      ok: false,
      errors: [
        `the file is ${(bytes.length / 1048576).toFixed(0)} MB, more than a run file can be (${RUN_FILE_MAX_CHARS / 1048576} MB)`,
      ],
    };
  const kind = binaryKind(bytes);
  if (kind) return { ok: false, errors: [`this file is ${kind}, not a run; ${WANT}`] };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, errors: [`this file is binary data, not JSON text; ${WANT}`] };
  }
  return parseRunFile(text);
}

/** Read a run file's text: JSON, then {@link validateRunFile}. Never throws. */
export function parseRunFile(text: string): { ok: true; run: RunFile } | { ok: false; errors: string[] } {
  if (typeof text !== 'string') return { ok: false, errors: [`not text; ${WANT}`] };
  if (text.length > RUN_FILE_MAX_CHARS)
    return {
      ok: false,
      errors: [
        `the file is ${(text.length / 1048576).toFixed(0)} MB, more than a run file can be (${RUN_FILE_MAX_CHARS / 1048576} MB)`,
      ],
    };
  if (text.trim() === '') return { ok: false, errors: [`the file is empty; ${WANT}`] };
  if (/^[\x89\ufffd]PNG/.test(text))
    return { ok: false, errors: [`this file is a PNG image, not a run; ${WANT}`] };
  let raw: unknown;
  try {
    raw = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    return { ok: false, errors: [`not JSON (${e instanceof Error ? e.message : String(e)}); ${WANT}`] };
  }
  return validateRunFile(raw);
}
