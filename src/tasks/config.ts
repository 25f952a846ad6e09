// Task configuration types, defaults and validation (errors name the field and its allowed values).
import * as v from 'valibot';
import { int, reasonWith, show } from '../schema';
import {
  EVAL_FRACTION,
  fileTaskConfigErrors,
  resolveFileTaskConfig,
  type FileTaskConfig,
  type ResolvedFileTaskConfig,
} from './file/config';

/** Names of all task kinds written in code (a task from a file has the kind 'file': src/tasks/file/). */
export const TASK_KINDS = ['add', 'mod', 'muladd', 'sort', 'count', 'addw', 'muladdw', 'mulw'] as const;
/** A task kind: one written in code, or 'file' (a task read from a file of rows). */
export type TaskKind = (typeof TASK_KINDS)[number] | 'file';

/** Operators of the `mod` task. */
export const MOD_OPS = ['+', '*'] as const;
/** `mod` operator: `(a + b) mod m` or `(a * b) mod m`. */
export type ModOp = (typeof MOD_OPS)[number];

/** Default share of the problem space reserved for evaluation. */
export const DEFAULT_EVAL_FRACTION = 0.2;

interface Common {
  /** Share of the problem space held out for evaluation, in (0, 1). Default 0.2. */
  evalFraction?: number;
}
/** `add`: a + b with two `digits`-digit operands (zero-padded). */
export interface AddConfig extends Common {
  kind: 'add';
  /** Digits per operand, 1..7 (default 2). */
  digits?: number;
}
/** `mod`: (a op b) mod m with two `digits`-digit operands. */
export interface ModConfig extends Common {
  kind: 'mod';
  /** Digits per operand, 1..6 (default 2). */
  digits?: number;
  /** Modulus m, 2..999 (default 7). */
  modulus?: number;
  /** Operator, '+' or '*' (default '+'). */
  op?: ModOp;
}
/** `muladd`: a * b + c, a two-step problem. */
export interface MulAddConfig extends Common {
  kind: 'muladd';
  /** Digits of a, 1..4 (default 2). */
  aDigits?: number;
  /** Digits of b, 1..4 (default 1). */
  bDigits?: number;
  /** Digits of c, 1..4 (default 2). */
  cDigits?: number;
}
/** `sort`: sort a list of `length` decimal digits ascending. */
export interface SortConfig extends Common {
  kind: 'sort';
  /** List length, 2..12 (default 5). */
  length?: number;
}
/** `count`: how many times a target digit occurs in a list of `length` digits. */
export interface CountConfig extends Common {
  kind: 'count';
  /** List length, 2..12 (default 6). */
  length?: number;
}
/** `addw`: a + b with two `digits`-digit operands, the completion writing the carry chain column by column. */
export interface AddWorkConfig extends Common {
  kind: 'addw';
  /** Digits per operand, 2..6 (default 3). */
  digits?: number;
  /**
   * How the operands are drawn (default 'uniform': each uniformly over its digits-digit range). 'digits':
   * the problem's length d uniformly from 1 to digits first, then a with exactly d significant digits and
   * b below 10^d, so short sums are as common as long ones (graded difficulty; written zero-padded as
   * always). Absent when 'uniform', so older configs, their splits' order and their build keys are unchanged.
   */
  grade?: 'uniform' | 'digits';
}
/** `muladdw`: a * b + c (b one digit), the completion writing the column products with carries, then the sum. */
export interface MulAddWorkConfig extends Common {
  kind: 'muladdw';
  /** Digits of a, 1..4 (default 2). */
  aDigits?: number;
  /** Digits of c, 1..4 (default 2). */
  cDigits?: number;
  /**
   * How a is drawn (default 'uniform': uniformly over its aDigits-digit range). 'digits': its number of
   * significant digits uniformly from 1 to aDigits first, so short multiplicands are as common as long
   * ones (graded difficulty, written zero-padded as always). Absent when 'uniform', so older configs,
   * their splits' order and their build keys are unchanged.
   */
  aGrade?: 'uniform' | 'digits';
}
/** `mulw`: a * b (b of bDigits digits), the completion writing one row of column products per digit of b, then their sum. */
export interface MulWorkConfig extends Common {
  kind: 'mulw';
  /** Digits of a, 1..3 (default 2). */
  aDigits?: number;
  /** Digits of b, 1..2 (default 2). */
  bDigits?: number;
  /** How a is drawn, as for muladdw (default 'uniform'; 'digits': a's number of significant digits uniform first). */
  aGrade?: 'uniform' | 'digits';
}
/** A task configuration: a plain object with the kind and optional knobs. */
export type TaskConfig =
  | AddConfig
  | ModConfig
  | MulAddConfig
  | SortConfig
  | CountConfig
  | AddWorkConfig
  | MulAddWorkConfig
  | MulWorkConfig
  | FileTaskConfig;

/** A config with every default filled in (what problems carry). */
export type ResolvedTaskConfig =
  | Required<AddConfig>
  | Required<ModConfig>
  | Required<MulAddConfig>
  | Required<SortConfig>
  | Required<CountConfig>
  | (Required<Omit<AddWorkConfig, 'grade'>> & Pick<AddWorkConfig, 'grade'>)
  | (Required<Omit<MulAddWorkConfig, 'aGrade'>> & Pick<MulAddWorkConfig, 'aGrade'>)
  | (Required<Omit<MulWorkConfig, 'aGrade'>> & Pick<MulWorkConfig, 'aGrade'>)
  | ResolvedFileTaskConfig;

/** A knob; `omitDefault`: left out of the resolved config at its default (a knob added later, so older configs resolve as before). */
type KnobSpec = { omitDefault?: true } & (
  | { name: string; type: 'int'; min: number; max: number; def: number }
  | { name: string; type: 'enum'; values: readonly string[]; def: string }
);

const EVAL_KNOB = 'evalFraction';

/** Knob specs per kind (evalFraction is common to all). */
const KNOBS: Record<TaskKind, readonly KnobSpec[]> = {
  add: [{ name: 'digits', type: 'int', min: 1, max: 7, def: 2 }],
  mod: [
    { name: 'digits', type: 'int', min: 1, max: 6, def: 2 },
    { name: 'modulus', type: 'int', min: 2, max: 999, def: 7 },
    { name: 'op', type: 'enum', values: MOD_OPS, def: '+' },
  ],
  muladd: [
    { name: 'aDigits', type: 'int', min: 1, max: 4, def: 2 },
    { name: 'bDigits', type: 'int', min: 1, max: 4, def: 1 },
    { name: 'cDigits', type: 'int', min: 1, max: 4, def: 2 },
  ],
  sort: [{ name: 'length', type: 'int', min: 2, max: 12, def: 5 }],
  count: [{ name: 'length', type: 'int', min: 2, max: 12, def: 6 }],
  addw: [
    { name: 'digits', type: 'int', min: 2, max: 6, def: 3 },
    { name: 'grade', type: 'enum', values: ['uniform', 'digits'], def: 'uniform', omitDefault: true },
  ],
  muladdw: [
    { name: 'aDigits', type: 'int', min: 1, max: 4, def: 2 },
    { name: 'cDigits', type: 'int', min: 1, max: 4, def: 2 },
    { name: 'aGrade', type: 'enum', values: ['uniform', 'digits'], def: 'uniform', omitDefault: true },
  ],
  mulw: [
    { name: 'aDigits', type: 'int', min: 1, max: 3, def: 2 },
    { name: 'bDigits', type: 'int', min: 1, max: 2, def: 2 },
    { name: 'aGrade', type: 'enum', values: ['uniform', 'digits'], def: 'uniform', omitDefault: true },
  ],
  file: [], // its fields are checked by src/tasks/file/config.ts
};

/** A knob's rule (schema layer): an integer in its range, or one of its names. */
function knobSchema(spec: KnobSpec): v.GenericSchema {
  if (spec.type === 'int') return int(spec.min, spec.max);
  return v.picklist(
    spec.values,
    (i) => `must be one of ${spec.values.map((x) => `'${x}'`).join(', ')}, got ${show(i.input)}`,
  );
}

/** Error thrown for an invalid task config, view or split request; `messages` lists every problem found. */
export class TaskConfigError extends Error {
  readonly messages: readonly string[];
  constructor(messages: readonly string[]) {
    super(messages.join('; '));
    this.name = 'TaskConfigError';
    this.messages = messages;
  }
}

/** True if `name` is a task kind. */
export function isTaskKind(name: unknown): name is TaskKind {
  return typeof name === 'string' && (TASK_KINDS as readonly string[]).includes(name);
}

/** The knob names (besides `kind` and `evalFraction`) a kind accepts, with their allowed values in words. */
export function describeKnobs(kind: TaskKind): { name: string; allowed: string; default: number | string }[] {
  return KNOBS[kind].map((k) => ({
    name: k.name,
    allowed:
      k.type === 'int'
        ? `integer in [${k.min}, ${k.max}]`
        : `one of ${k.values.map((v) => `'${v}'`).join(', ')}`,
    default: k.def,
  }));
}

/**
 * Check a task config (any value, e.g. parsed JSON). Returns a list of error messages, empty when valid.
 * Each message names the field and its allowed values; unknown kinds list the valid kinds.
 */
export function validateTaskConfig(config: unknown): string[] {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return [`task config must be an object with a "kind" field (one of: ${TASK_KINDS.join(', ')})`];
  }
  const obj = config as Record<string, unknown>;
  if (obj.kind === 'file') return fileTaskConfigErrors(obj);
  if (!isTaskKind(obj.kind)) {
    return [`unknown task kind ${JSON.stringify(obj.kind)}; valid kinds: ${TASK_KINDS.join(', ')}, file`];
  }
  const kind = obj.kind;
  const errors: string[] = [];
  const specs = KNOBS[kind];
  const known = new Set(['kind', EVAL_KNOB, ...specs.map((s) => s.name)]);
  for (const field of Object.keys(obj)) {
    if (!known.has(field)) {
      errors.push(`unknown field "${field}" for task kind "${kind}"; valid fields: ${[...known].join(', ')}`);
    }
  }
  for (const spec of specs) {
    const v = obj[spec.name];
    const why = v === undefined ? null : reasonWith(knobSchema(spec), v);
    if (why) errors.push(`${kind}.${spec.name} ${why}`);
  }
  const ef = obj[EVAL_KNOB];
  const why = ef === undefined ? null : reasonWith(EVAL_FRACTION, ef);
  if (why) errors.push(`${kind}.${EVAL_KNOB} ${why}`);
  return errors;
}

/** Validate and fill defaults. Throws `TaskConfigError` (listing every problem) when invalid. */
export function resolveTaskConfig(config: TaskConfig): ResolvedTaskConfig {
  const errors = validateTaskConfig(config);
  if (errors.length > 0) throw new TaskConfigError(errors);
  if (config.kind === 'file') return resolveFileTaskConfig(config);
  const out: Record<string, unknown> = { kind: config.kind };
  const obj = config as unknown as Record<string, unknown>;
  for (const spec of KNOBS[config.kind]) {
    const value = obj[spec.name] ?? spec.def;
    if (!(spec.omitDefault && value === spec.def)) out[spec.name] = value;
  }
  out[EVAL_KNOB] = config.evalFraction ?? DEFAULT_EVAL_FRACTION;
  return out as unknown as ResolvedTaskConfig;
}

/** The default config of a kind, all knobs filled. */
export function defaultTaskConfig(kind: TaskKind): ResolvedTaskConfig {
  return resolveTaskConfig({ kind } as TaskConfig);
}
