// A registered sweep's keys (docs/sweeps.md, "Registered sweeps"): `prereg` (the committed
// pre-registration file, checked against git by prereg.ts before any cell runs), `registered`, the
// primary `endpoint` and the regime `gates` per preset; and which preset and base seed a cell belongs
// to. Pure (the page's report builder reads it too): the git checks live in prereg.ts.
import * as v from 'valibot';
import { stable } from '../../rl/canonical';
import { isObj, problemsWith, show } from '../../schema';
import { resolveCohortRef } from '../../rl/cohortEnv';
import type { ExperimentConfig } from '../../rl/config';

/** The sweep config keys of a registration (not experiment fields). */
export const REGISTRATION_KEYS = ['prereg', 'registered', 'endpoint', 'gates'];
/** Endpoints: mean over agents of greedy accuracy, or of sampled accuracy at the eval temperature (avg@E). */
export const ENDPOINTS = ['greedy', 'sampled'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];
/** Headings a pre-registration file must have. */
export const PREREG_HEADINGS = [
  'Endpoint',
  'Presets',
  'Seeds',
  'Steps',
  'Recipe',
  'Analysis',
  'Thresholds',
] as const;

/** What a cell record and the report cite of the pre-registration (prereg.ts checks it). */
export interface PreregStamp {
  path: string;
  /** The commit that last changed the file (`git log -1 --format=%H -- PATH`). */
  commit: string;
  /** Its content's git blob hash (`git hash-object PATH`). */
  blob: string;
}

export interface GateResult {
  pass: boolean;
  note?: string;
}

export interface Registration {
  /** The pre-registration file, relative to the repository root; null when none is named. */
  prereg: string | null;
  registered: boolean;
  /** The primary endpoint (a registered sweep must name it); the other one is reported as secondary. */
  endpoint: Endpoint | null;
  /** Per preset label, whether its base agents passed the regime gates (measured on validation before). */
  gates: Record<string, GateResult>;
}

/** Which preset and base seed a cell is: its cohort without the agents' seeds, and those seeds. */
export interface CellPreset {
  /** Equal for cells equal but for the RL seed, the methods, the name and the agents' seeds. */
  key: string;
  label: string;
  /** The agents' seed (`cohort.agents[*].seed`, resolved through a preset); "1/2" when they differ. */
  baseSeed: string;
}

type Issue = v.BaseIssue<unknown>;

/** `prereg`: a path inside the repository. */
const PREREG = v.pipe(
  v.string(preregMsg),
  v.check((p) => p.trim() !== '' && !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), preregMsg),
);
function preregMsg(i: Issue): string {
  return `must be the pre-registration file's path relative to the repository root, e.g. "experiments/regime/PREREG.md", got ${show(i.input)}`;
}

const REGISTERED = v.boolean((i) => `must be true or false, got ${show(i.input)}`);

const ENDPOINT = v.picklist(
  ENDPOINTS,
  (i) => `must be one of ${ENDPOINTS.join(', ')} (the registered primary endpoint), got ${show(i.input)}`,
);

const GATES = v.custom<Record<string, unknown>>(
  isObj,
  (i) => `must be an object { "<preset>": { "pass": true | false, "note": "..." } }, got ${show(i.input)}`,
);

/** One preset's gate result. */
const GATE = v.pipe(
  v.custom<Record<string, unknown>>(isObj),
  v.looseObject({ pass: v.boolean(), note: v.optional(v.string()) }),
);

/** The registration keys of a raw sweep config, checking their shape; problems pushed to `errs`. */
export function parseRegistration(raw: Record<string, unknown>, errs: string[]): Registration {
  const reg: Registration = { prereg: null, registered: false, endpoint: null, gates: {} };
  if (raw.prereg !== undefined) {
    const p = problemsWith(PREREG, raw.prereg, 'prereg');
    if (p.length) errs.push(...p);
    else reg.prereg = raw.prereg as string;
  }
  if (raw.registered !== undefined) errs.push(...problemsWith(REGISTERED, raw.registered, 'registered'));
  reg.registered = raw.registered === true;
  if (raw.endpoint !== undefined) {
    const p = problemsWith(ENDPOINT, raw.endpoint, 'endpoint');
    if (p.length) errs.push(...p);
    else reg.endpoint = raw.endpoint as Endpoint;
  } else if (reg.registered)
    errs.push(
      `endpoint: a registered sweep must name its primary endpoint, "greedy" or "sampled" (as its pre-registration states)`,
    );
  if (raw.gates !== undefined) {
    const p = problemsWith(GATES, raw.gates, 'gates');
    if (p.length) errs.push(...p);
    else
      for (const [k, g] of Object.entries(raw.gates as Record<string, unknown>)) {
        const r = v.safeParse(GATE, g);
        if (!r.success)
          errs.push(`gates.${k}: must be { "pass": true | false, "note": "..." }, got ${show(g)}`);
        else
          reg.gates[k] = {
            pass: r.output.pass,
            ...(r.output.note !== undefined ? { note: r.output.note } : {}),
          };
      }
  }
  return reg;
}

/** The preset and base seed of a cell from its resolved config and grid assignment. */
export function cellPreset(config: ExperimentConfig, assign: Record<string, unknown>): CellPreset {
  const res = resolveCohortRef(config.cohort);
  const specs = 'specs' in res ? res.specs : [];
  const seeds = [...new Set(specs.map((s) => s.seed))];
  const cohort =
    'preset' in config.cohort
      ? config.cohort
      : { agents: config.cohort.agents.map(({ seed: _s, checkpoint: _c, ...rest }) => rest) };
  const name =
    'preset' in config.cohort
      ? config.cohort.preset
      : config.cohort.agents.map((a) => `${a.id}:${a.family}${a.size ? `.${a.size}` : ''}`).join('+');
  const rest = Object.entries(assign)
    .filter(([p]) => p !== 'seed' && p !== 'methods' && p !== 'name' && !p.startsWith('cohort'))
    .map(([p, x]) => `${p}=${typeof x === 'string' ? x : show(x)}`);
  return {
    key: stable({ ...config, seed: 0, methods: [], name: '', cohort }),
    label: [name, ...rest].join(', '),
    baseSeed: seeds.join('/'),
  };
}

/** The preset of every cell (by position), labels made unique where two presets would share one. */
export function cellPresets(
  cells: { config: ExperimentConfig; assign: Record<string, unknown> }[],
): CellPreset[] {
  const raw = cells.map((c) => cellPreset(c.config, c.assign));
  const labelOf = new Map<string, string>();
  const taken = new Map<string, number>();
  return raw.map((p) => {
    if (!labelOf.has(p.key)) {
      const k = (taken.get(p.label) ?? 0) + 1;
      taken.set(p.label, k);
      labelOf.set(p.key, k === 1 ? p.label : `${p.label} #${k}`);
    }
    return { ...p, label: labelOf.get(p.key)! };
  });
}

/** The checks of a registration that need the cells: the test split needs a prereg; gates per preset. */
export function checkRegistration(
  reg: Registration,
  cells: { index: number; config: ExperimentConfig; assign: Record<string, unknown> }[],
  errs: string[],
): void {
  if (!reg.registered) return;
  const onTest = cells.filter((c) => (c.config.eval.split ?? 'test') === 'test');
  if (onTest.length && !reg.prereg)
    errs.push(
      `prereg: a registered sweep whose cells evaluate on the test split (eval.split absent or "test": ${onTest.length === cells.length ? 'every cell' : `cells ${onTest.map((c) => c.index).join(', ')}`}) must name its committed pre-registration, e.g. "prereg": "experiments/regime/PREREG.md"`,
    );
  const presets = [...new Set(cellPresets(cells).map((p) => p.label))];
  const missing = presets.filter((p) => !(p in reg.gates));
  if (missing.length)
    errs.push(
      `gates: a registered sweep states each preset's regime gates before it runs; missing ${missing.map((p) => JSON.stringify(p)).join(', ')} (add e.g. "gates": { ${JSON.stringify(missing[0])}: { "pass": true, "note": "A1-A5 and B on validation, <commit>" } })`,
    );
  for (const k of Object.keys(reg.gates))
    if (!presets.includes(k))
      errs.push(
        `gates.${k}: no cell of the sweep is this preset (its presets: ${presets.map((p) => JSON.stringify(p)).join(', ')})`,
      );
}
