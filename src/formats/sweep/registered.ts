// The registered part of a sweep report (docs/sweeps.md, "Registered sweeps"): the pre-registration
// the cells ran under (path, commit, blob, and any cell that ran under another or none), and for a
// registered sweep the per-preset verdict (verdict.ts) from the cells' evaluations: preset = the cohort
// without its agents' seeds, base seed = the agents' seed, RL seed = `seed`; base = the step-0
// evaluation, final = the last one, in the primary endpoint (and the secondary beside it).
import type { EvalRecord } from '../../rl/records';
import {
  cellPresets,
  ENDPOINTS,
  parseRegistration,
  type Endpoint,
  type GateResult,
  type PreregStamp,
} from './registration';
import type { CellRecord, SweepManifest } from './records';
import { presetFigures, verdicts, type PresetFigures, type PresetVerdict, type VerdictRun } from './verdict';

export interface PreregCitation extends PreregStamp {
  /** Done cells whose record carries this stamp. */
  cells: number;
  /** Cells (index) whose record carries another stamp or none: they did not run under this file. */
  others: { index: number; commit: string | null; blob: string | null }[];
}

export interface RegisteredVerdict extends PresetVerdict {
  gate: GateResult | null;
  /** The same figures in the secondary endpoint (no verdict of its own). */
  secondary: PresetFigures;
}

export interface RegisteredSection {
  endpoint: Endpoint;
  secondary: Endpoint;
  verdicts: RegisteredVerdict[];
  /** What the verdict could not read (cells not done, a method without a step-0 evaluation, duplicates). */
  problems: string[];
}

const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** An evaluation's accuracy in an endpoint: mean over agents of greedy, or of sampled accuracy. */
export function endpointAccuracy(e: EvalRecord, endpoint: Endpoint): number {
  if (endpoint === 'greedy') return e.meanGreedyAccuracy;
  return e.agents.reduce((a, x) => a + x.sampledAccuracy, 0) / e.agents.length;
}

/** Done records of the manifest's cells, in the manifest's order. */
function doneRecords(manifest: SweepManifest, records: readonly CellRecord[]): CellRecord[] {
  const by = new Map(records.map((r) => [r.id, r]));
  return manifest.cells
    .map((c) => by.get(c.id))
    .filter((r): r is CellRecord => r?.status === 'done' && !!r.result);
}

/** The pre-registration the sweep names, as its cells cite it; null when it names none. */
export function preregCitation(
  manifest: SweepManifest,
  records: readonly CellRecord[],
): PreregCitation | null {
  const reg = isObj(manifest.config) ? parseRegistration(manifest.config, []) : null;
  if (!reg?.prereg) return null;
  const done = doneRecords(manifest, records);
  const counts = new Map<string, { stamp: PreregStamp; n: number }>();
  for (const r of done)
    if (r.prereg && r.prereg.path === reg.prereg) {
      const k = `${r.prereg.commit} ${r.prereg.blob}`;
      counts.set(k, { stamp: r.prereg, n: (counts.get(k)?.n ?? 0) + 1 });
    }
  // the stamp most cells carry (the first in sweep order on a tie) is the sweep's
  const main = [...counts.values()].sort((a, b) => b.n - a.n)[0];
  const same = (r: CellRecord) =>
    !!main && r.prereg?.commit === main.stamp.commit && r.prereg?.blob === main.stamp.blob;
  return {
    path: reg.prereg,
    commit: main?.stamp.commit ?? '',
    blob: main?.stamp.blob ?? '',
    cells: main?.n ?? 0,
    others: done
      .filter((r) => !same(r))
      .map((r) => ({ index: r.index, commit: r.prereg?.commit ?? null, blob: r.prereg?.blob ?? null })),
  };
}

/** The verdict inputs of the done cells in both endpoints, with what could not be read. */
export function verdictRuns(
  manifest: SweepManifest,
  records: readonly CellRecord[],
): { runs: Record<Endpoint, VerdictRun[]>; problems: string[] } {
  const done = doneRecords(manifest, records);
  const problems: string[] = [];
  const notDone = manifest.cells.length - done.length;
  if (notDone)
    problems.push(`${notDone} of ${manifest.cells.length} cells are not done: the verdicts read the others`);
  const presets = cellPresets(done.map((r) => ({ config: r.result!.config, assign: r.assign })));
  const runs: Record<Endpoint, VerdictRun[]> = { greedy: [], sampled: [] };
  const first = new Map<string, number>();
  done.forEach((r, i) => {
    const { label, baseSeed } = presets[i];
    const rlSeed = r.result!.config.seed;
    for (const method of r.result!.config.methods) {
      const k = JSON.stringify([label, baseSeed, rlSeed, method]);
      if (first.has(k)) {
        problems.push(
          `cell ${r.index}: ${method} on ${label}, base seed ${baseSeed}, RL seed ${rlSeed} ran in cell ${first.get(k)} too; the first is used`,
        );
        continue;
      }
      const ev = r.result!.evals.filter((e) => e.method === method).sort((a, b) => a.step - b.step);
      if (ev[0]?.step !== 0 || ev.length < 2) {
        problems.push(`cell ${r.index}: ${method} has no step-0 and final evaluation; left out`);
        continue;
      }
      first.set(k, r.index);
      for (const ep of ENDPOINTS)
        runs[ep].push({
          preset: label,
          baseSeed,
          rlSeed,
          method,
          base: endpointAccuracy(ev[0], ep),
          final: endpointAccuracy(ev[ev.length - 1], ep),
        });
    }
  });
  return { runs, problems };
}

/** The verdict section of a registered sweep's report; null when the sweep is not registered. */
export function registeredSection(
  manifest: SweepManifest,
  records: readonly CellRecord[],
): RegisteredSection | null {
  const reg = isObj(manifest.config) ? parseRegistration(manifest.config, []) : null;
  if (!reg?.registered) return null;
  const endpoint = reg.endpoint ?? 'greedy';
  const secondary = ENDPOINTS.find((e) => e !== endpoint)!;
  const { runs, problems } = verdictRuns(manifest, records);
  const failed = new Set(
    Object.entries(reg.gates)
      .filter(([, g]) => !g.pass)
      .map(([p]) => p),
  );
  const vs = verdicts(runs[endpoint], failed).map((v) => ({
    ...v,
    gate: reg.gates[v.preset] ?? null,
    secondary: presetFigures(v.preset, runs[secondary]),
  }));
  return { endpoint, secondary, verdicts: vs, problems };
}
