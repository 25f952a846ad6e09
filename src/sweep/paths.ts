// Paths into an experiment config ("train.lr", "cohort.agents[0].seed", "cohort.agents.0.seed"): parse,
// read, write (on a deep copy) and list the leaf paths of a resolved config. The spelling matches the
// experiment validator's field names (src/rl/config.ts), so its "unknown field" errors name the same path.

/** One step of a path: an object key or an array index. */
export type PathStep = string | number;

/** Parse a dotted path with optional [i] or .i array indices; throws on an empty or malformed path. */
export function parsePath(path: string): PathStep[] {
  if (typeof path !== 'string' || path.trim() === '')
    throw new Error(`a grid path must be a non-empty string, got ${JSON.stringify(path)}`);
  const steps: PathStep[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m || (m[1] === '' && m[2] === ''))
      throw new Error(
        `malformed grid path ${JSON.stringify(path)} (write e.g. train.lr or cohort.agents[0].seed)`,
      );
    if (m[1] !== '') steps.push(/^\d+$/.test(m[1]) && steps.length > 0 ? Number(m[1]) : m[1]);
    for (const idx of m[2].match(/\d+/g) ?? []) steps.push(Number(idx));
  }
  return steps;
}

/** The canonical spelling of a path: keys joined by dots, indices in brackets (the validator's form). */
export function formatPath(steps: readonly PathStep[]): string {
  return steps.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A deep copy of `root` with `value` at `steps` (missing objects are made on the way). Returns null
 * when the path runs through a value that is neither an object nor an array (e.g. "seed.x").
 */
export function setAt<T>(root: T, steps: readonly PathStep[], value: unknown): T | null {
  const out = structuredClone(root) as unknown;
  let cur = out as Record<string | number, unknown>;
  for (let i = 0; i < steps.length - 1; i++) {
    const s = steps[i];
    let next = cur[s];
    if (next === undefined || next === null) next = cur[s] = typeof steps[i + 1] === 'number' ? [] : {};
    if (typeof next !== 'object') return null;
    cur = next as Record<string | number, unknown>;
  }
  cur[steps[steps.length - 1]] = structuredClone(value);
  return out as T;
}

/** Every path of `root` down to its leaves (arrays of non-objects are leaves), intermediate ones included. */
export function listPaths(root: unknown, prefix: PathStep[] = []): string[] {
  const out: string[] = [];
  if (isObj(root)) {
    for (const [k, v] of Object.entries(root)) {
      out.push(formatPath([...prefix, k]));
      out.push(...listPaths(v, [...prefix, k]));
    }
  } else if (Array.isArray(root) && root.some((x) => isObj(x) || Array.isArray(x))) {
    root.forEach((v, i) => {
      out.push(formatPath([...prefix, i]));
      out.push(...listPaths(v, [...prefix, i]));
    });
  }
  return out;
}
