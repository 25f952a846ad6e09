// Where the cores went during a timed stretch of the app rows (docs/performance-sittings.md): the CPU time of
// every thread of this process and of its descendants (the browser Playwright started: its renderers' Web
// Workers, V8's background threads, the compositor), read from Linux's /proc every 250 ms. It explains a
// speedup below its bound on a small machine, e.g. the in-page pretraining row: with 2 workers on 2 cores
// the builds have no idle core left for the browser's own threads. Linux only; elsewhere it measures nothing.
import { readdirSync, readFileSync } from 'node:fs';

/** One thread's cumulative CPU time (user + system), in clock ticks. */
export interface ThreadTicks {
  pid: number;
  tid: number;
  /** The process's Chromium type (`renderer`, `gpu-process`, `utility`, `zygote`), `browser`, or `node`. */
  process: string;
  /** The thread's name as the kernel has it (15 characters at most). */
  thread: string;
  ticks: number;
}

/** One /proc/PID/task/TID/stat line: the thread's name, parent pid and CPU ticks; null when it does not parse. */
export function parseStat(line: string): { name: string; ppid: number; ticks: number } | null {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')'); // the name may hold spaces and parentheses
  if (open < 0 || close < open) return null;
  const f = line.slice(close + 2).split(' '); // f[0] is field 3 (state)
  const ppid = Number(f[1]);
  const ticks = Number(f[11]) + Number(f[12]); // fields 14 (utime) and 15 (stime)
  if (!Number.isFinite(ppid) || !Number.isFinite(ticks)) return null;
  return { name: line.slice(open + 1, close), ppid, ticks };
}

/**
 * A process's kind from its command line (Chromium rewrites it, so the flags may be one space-joined string):
 * Chromium's `--type`, `browser` for its main process, else the program's name (e.g. Vite's `esbuild`).
 */
export function processKind(cmdline: string, self: boolean): string {
  if (self) return 'node';
  const type = /--type=([\w-]+)/.exec(cmdline);
  if (type) return type[1];
  const program = cmdline.trim().split(' ')[0] ?? '';
  return /chrom/i.test(program) ? 'browser' : program.split('/').at(-1) || 'unknown';
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // the process or thread ended between listing and reading
  }
};

/** Every thread of process `root` and its descendants now; empty where there is no /proc. */
export function snapshot(root: number = process.pid): ThreadTicks[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
  const parent = new Map<number, number>();
  for (const pid of pids) {
    const s = read(`/proc/${pid}/stat`);
    const p = s && parseStat(s);
    if (p) parent.set(pid, p.ppid);
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, n = 0; p !== undefined && p > 1 && n < 64; p = parent.get(p), n++)
      if (p === root) return true;
    return false;
  };
  const out: ThreadTicks[] = [];
  for (const pid of pids.filter(inTree)) {
    const kind = processKind((read(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' '), pid === root);
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const s = read(`/proc/${pid}/task/${tid}/stat`);
      const p = s && parseStat(s);
      if (p) out.push({ pid, tid: Number(tid), process: kind, thread: p.name, ticks: p.ticks });
    }
  }
  return out;
}

/**
 * Snapshots every `everyMs` until stop(), each stamped with Date.now(). A snapshot costs about 1-3 ms of this
 * process's CPU (it reads every process's stat), so the default period keeps the reader near 1% of a core.
 */
export function startSampling(everyMs = 250): () => { t: number; threads: ThreadTicks[] }[] {
  const samples: { t: number; threads: ThreadTicks[] }[] = [];
  const take = () => samples.push({ t: Date.now(), threads: snapshot() });
  take();
  const timer = setInterval(take, everyMs);
  timer.unref(); // a reader left running never keeps the process alive
  return () => {
    clearInterval(timer);
    take();
    return samples;
  };
}

/** CPU seconds of one group of threads in a window. */
export interface ThreadGroupCpu {
  /** `process/thread name`, e.g. `renderer/DedicatedWorker` (the page's Web Workers) or `renderer/ThreadPoolForeg` (V8's background compiler and GC). */
  group: string;
  threads: number;
  cpuSeconds: number;
}

/** The window's CPU by group, largest first, and the window's length (from the samples that bound it). */
export function cpuInWindow(
  samples: readonly { t: number; threads: readonly ThreadTicks[] }[],
  from: number,
  to: number,
  ticksPerSecond = 100,
): { seconds: number; groups: ThreadGroupCpu[] } {
  // from the last sample at or before `from` to the first at or after `to` (the window within one period)
  const i = Math.max(
    0,
    samples.findLastIndex((s) => s.t <= from),
  );
  const j = samples.findIndex((s) => s.t >= to);
  const inside = samples.slice(i, j < 0 ? samples.length : j + 1);
  if (inside.length < 2) return { seconds: 0, groups: [] };
  const first = new Map(inside[0].threads.map((x) => [`${x.pid}/${x.tid}`, x.ticks]));
  // each thread's last reading in the window: one that ends inside it (a pool's worker closed) still counts
  const last = new Map<string, ThreadTicks>();
  for (const s of inside) for (const x of s.threads) last.set(`${x.pid}/${x.tid}`, x);
  const groups = new Map<string, ThreadGroupCpu>();
  for (const [id, x] of last) {
    const d = x.ticks - (first.get(id) ?? 0); // a thread born in the window counts whole
    if (d <= 0) continue;
    const key = `${x.process}/${x.thread}`;
    const g = groups.get(key) ?? { group: key, threads: 0, cpuSeconds: 0 };
    g.threads += 1;
    g.cpuSeconds += d / ticksPerSecond;
    groups.set(key, g);
  }
  const out = [...groups.values()].sort((p, q) => q.cpuSeconds - p.cpuSeconds);
  for (const g of out) g.cpuSeconds = +g.cpuSeconds.toFixed(2);
  return { seconds: (inside.at(-1)!.t - inside[0].t) / 1000, groups: out };
}
