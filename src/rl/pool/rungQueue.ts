// Which rung of which build a free builder takes next (./poolBuilds.ts; docs/architecture-runtime.md, "Rungs in
// parallel"). A build is a ladder of independent rungs whose kept rung is decided in ladder order
// (src/cohort/ladder.ts keptRung): rung i is needed for sure once every rung before it has finished out of
// band, and may be needed while some still run. A free builder takes sure work first; else the rung with
// the fewest of its build's rungs still running before it (work ahead of need, on a core that would idle);
// ties to the earlier build, so one builder runs the builds one after the other as before. Once a build is
// decided its rungs still running are cancelled and none of its rungs starts again.
import { keptRung, type RungFigures } from '../../cohort/ladder';

type Status = 'todo' | 'running' | 'done';

interface BuildState {
  status: Status[];
  results: (RungFigures | undefined)[];
  kept?: number;
}

/** A rung to run: build `build`'s rung `index`. */
export interface RungRef {
  build: number;
  index: number;
}

export class RungQueue {
  private readonly builds: BuildState[];

  /** `rungs[j]`: the rungs of build j (at least 1). */
  constructor(rungs: readonly number[]) {
    this.builds = rungs.map((n) => {
      if (!Number.isInteger(n) || n < 1) throw new Error(`RungQueue: a build has ${n} rungs`);
      return { status: new Array<Status>(n).fill('todo'), results: new Array(n).fill(undefined) };
    });
  }

  /** The next rung to start (marked running), or null when none may start now; `allowed` filters builds. */
  next(allowed: (build: number) => boolean = () => true): RungRef | null {
    let pick: RungRef | null = null;
    let pickAhead = Infinity;
    for (const [build, b] of this.builds.entries()) {
      if (b.kept !== undefined || !allowed(build)) continue;
      const index = b.status.indexOf('todo');
      if (index < 0) continue;
      let ahead = 0; // rungs before it still running: 0 = needed for sure
      for (let i = 0; i < index; i++) if (b.status[i] === 'running') ahead++;
      if (ahead < pickAhead) [pick, pickAhead] = [{ build, index }, ahead];
    }
    if (pick) this.builds[pick.build].status[pick.index] = 'running';
    return pick;
  }

  /**
   * Rung `index` of `build` finished with `figures`. Returns the kept rung when this decides the build (and
   * the rungs of it still running, to cancel), else undefined. A result for a decided build is ignored.
   */
  finished(
    build: number,
    index: number,
    figures: RungFigures,
  ): { kept: number; cancel: number[] } | undefined {
    const b = this.builds[build];
    if (b.kept !== undefined) return undefined;
    b.status[index] = 'done';
    b.results[index] = figures;
    const kept = keptRung(b.results, b.status.length);
    if (kept === undefined) return undefined;
    b.kept = kept;
    const cancel = b.status.flatMap((s, i) => (s === 'running' ? [i] : []));
    return { kept, cancel };
  }

  /** Rung `index` of `build` did not finish (its worker stopped): it is to run again. */
  retry(build: number, index: number): void {
    const b = this.builds[build];
    if (b.kept === undefined && b.status[index] === 'running') b.status[index] = 'todo';
  }

  /** Start `build` again from its first rung (every result dropped; its running rungs are the caller's to cancel). */
  restart(build: number): number[] {
    const b = this.builds[build];
    const running = b.status.flatMap((s, i) => (s === 'running' ? [i] : []));
    b.status.fill('todo');
    b.results.fill(undefined);
    return running;
  }

  /** Build j's kept rung, once decided. */
  kept(build: number): number | undefined {
    return this.builds[build].kept;
  }

  /** The rungs of `build` that have run to the end, in ladder order, up to the kept one (what its meta records). */
  recorded(build: number): number[] {
    const b = this.builds[build];
    if (b.kept === undefined) return [];
    const last = b.results[b.kept]!.inBand ? b.kept : b.status.length - 1;
    return Array.from({ length: last + 1 }, (_, i) => i);
  }

  /** Every build decided. */
  get done(): boolean {
    return this.builds.every((b) => b.kept !== undefined);
  }
}
