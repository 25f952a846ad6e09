// A sweep folder's records as the CLI writes them (src/sweep/store.ts) and the page reads them
// (sweepFromCells.ts): DIR/sweep.json (the manifest: the sweep config and its cells) and DIR/cells/<id>.json
// (one cell's result), and the short label of a grid value a cell's label is made of. docs/sweeps.md.
import type { ExperimentResult } from '../../rl/experiment';
import { isObj, show } from '../../schema';
import type { CompactInfo } from './compact';
import type { PreregStamp } from './registration';

export const SWEEP_FORMAT = 'co-rl-sweep/1';
export const CELL_FORMAT = 'co-rl-sweep-cell/1';

/** What DIR/sweep.json holds. */
export interface SweepManifest {
  format: string;
  name: string;
  hash: string;
  config: unknown;
  axes: string[];
  cells: { index: number; id: string; label: string; assign: Record<string, unknown> }[];
}

/** The result of one cell: done (the experiment ran to its end) or failed (with the error). */
export interface CellRecord {
  format: string;
  sweep: string;
  index: number;
  id: string;
  label: string;
  assign: Record<string, unknown>;
  status: 'done' | 'failed';
  error: string | null;
  host: string;
  startedAt: string;
  seconds: number;
  /** The experiment's result (also the partial one of a run that stopped early); null if none. */
  result: ExperimentResult | null;
  /** The pre-registration the cell ran under (a sweep naming `prereg`; checked by `--cell` first). */
  prereg?: PreregStamp;
  /** Set in a compact record (DIR/cells): what the thinning of `result` dropped (compact.ts). */
  compact?: CompactInfo;
}

/** A short label of a value: strings as they are, agent lists by id:family.size, others as JSON. */
export function valueLabel(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((a) => isObj(a) && typeof a.id === 'string')) {
    return v
      .map(
        (a) =>
          `${a.id}:${a.family ?? '?'}${a.size ? `.${a.size}` : ''}${a.seed !== undefined ? `.s${a.seed}` : ''}`,
      )
      .join('+');
  }
  if (Array.isArray(v) && v.every((a) => typeof a !== 'object' || a === null)) return v.join('+');
  const j = show(v);
  return j.length > 48 ? `${j.slice(0, 45)}...` : j;
}
