// The sweep's progress bar on stderr: cells done, running, failed, elapsed and ETA. Redrawn in place on
// a terminal; a line per change of the counts (and every 30 s) otherwise (logs, CI, Slurm output files).

export interface SweepProgress {
  total: number;
  done: number;
  running: number;
  failed: number;
  /** Cells found done in DIR and skipped. */
  skipped: number;
  /** Seconds left, or null when not known yet. */
  etaS: number | null;
}

const fmt = (s: number): string =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`
      : `${s.toFixed(0)}s`;

/** One line of the bar. */
export function progressLine(p: SweepProgress, elapsedS: number): string {
  const w = 30;
  const fin = p.done + p.failed;
  const frac = p.total ? fin / p.total : 1;
  const bar = '#'.repeat(Math.round(frac * w)).padEnd(w, '.');
  const skipped = p.skipped ? ` (${p.skipped} already done)` : '';
  const eta = p.etaS === null ? '?' : fmt(p.etaS);
  return `[${bar}] ${p.done}/${p.total} done${skipped}, ${p.running} running, ${p.failed} failed, ${fmt(elapsedS)} elapsed, ETA ${eta}`;
}

/** A bar writing to stderr; call with the current counts, and `end()` once at the end. */
export function progressBar(out: NodeJS.WriteStream = process.stderr): {
  update(p: SweepProgress): void;
  end(): void;
} {
  const t0 = performance.now();
  let last = '';
  let key = '';
  let printed = 0;
  return {
    update(p) {
      const line = progressLine(p, (performance.now() - t0) / 1000);
      const k = `${p.done}/${p.running}/${p.failed}`;
      if (out.isTTY) out.write(`\r${line.padEnd(last.length)}`);
      else if (k !== key || performance.now() - printed > 30_000) {
        out.write(`${line}\n`);
        printed = performance.now();
      }
      last = line;
      key = k;
    },
    end() {
      if (out.isTTY && last) out.write('\n');
    },
  };
}
