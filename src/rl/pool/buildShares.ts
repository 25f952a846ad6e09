// The share of a set of builds done, for a progress bar: each build counts 1/n, and within a build each rung of
// its corpus ladder counts 1/of of it by its own step count. Rungs may run side by side (src/rl/pool/poolBuilds.ts)
// and report in any order, so a rung's index says nothing of the work done: the share sums what every rung has
// done. It never goes back (a rung run again after its worker stopped restarts its step count) and a finished
// build counts whole (the ladder may stop before its last rung).
import type { PretrainProgress } from '../../cohort/pretrainSpec';

export class BuildShares {
  private readonly rungs: Map<number, number>[];
  private readonly shares: number[];
  private top = 0;

  constructor(builds: number) {
    this.rungs = Array.from({ length: builds }, () => new Map());
    this.shares = new Array<number>(builds).fill(0);
  }

  /** Take build `j`'s progress; returns the share of all the builds done, in [0, 1], never less than before. */
  update(j: number, p: PretrainProgress): number {
    const frac = p.maxSteps > 0 ? Math.min(1, Math.max(0, p.step / p.maxSteps)) : 0;
    let share: number;
    if (p.done) share = 1;
    else if (p.rung && p.rung.of > 0) {
      const r = this.rungs[j];
      r.set(p.rung.index, Math.max(r.get(p.rung.index) ?? 0, frac));
      share = [...r.values()].reduce((a, b) => a + b, 0) / p.rung.of;
    } else share = frac;
    this.shares[j] = Math.max(this.shares[j], Math.min(1, share));
    const n = this.shares.length;
    this.top = Math.max(this.top, n ? this.shares.reduce((a, b) => a + b, 0) / n : 0);
    return this.top;
  }
}
