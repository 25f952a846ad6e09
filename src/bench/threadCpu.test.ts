// The bench's CPU-by-thread reader: /proc's stat lines parsed (names with spaces and parentheses), processes
// told apart by their Chromium type, and a window's CPU summed by group from two bounding samples.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ThreadTicks, cpuInWindow, parseStat, processKind, snapshot } from './threadCpu';

describe('threadCpu: /proc parsing', () => {
  it('reads the name, parent and user + system ticks of a stat line, odd names included', () => {
    const tail = 'S 41 9005 41 0 -1 4194368 1 0 0 0 863 27 0 0 20 0 31 0 1234 0 0';
    expect(parseStat(`9035 (DedicatedWorker) ${tail}`)).toEqual({
      name: 'DedicatedWorker',
      ppid: 41,
      ticks: 890,
    });
    expect(parseStat(`7 (a (b) c) ${tail}`)).toEqual({ name: 'a (b) c', ppid: 41, ticks: 890 });
    expect(parseStat('garbage')).toBeNull();
    expect(parseStat('1 (x) S')).toBeNull();
  });

  it("names a process by Chromium's --type flag, whether the command line is split or one string", () => {
    expect(processKind('/usr/lib/chromium/chromium --type=renderer --foo', false)).toBe('renderer');
    expect(processKind('/usr/lib/chromium/chromium --type=gpu-process', false)).toBe('gpu-process');
    expect(processKind('/usr/lib/chromium/chromium --headless', false)).toBe('browser');
    expect(processKind('node bench.ts --type=renderer', true)).toBe('node');
    expect(
      processKind('/work/node_modules/@esbuild/linux-x64/bin/esbuild --service=0.25.0 --ping', false),
    ).toBe('esbuild');
    expect(processKind('', false)).toBe('unknown');
  });
});

const th = (pid: number, tid: number, thread: string, ticks: number, process = 'renderer'): ThreadTicks => ({
  pid,
  tid,
  process,
  thread,
  ticks,
});

describe('threadCpu: a window', () => {
  const samples = [
    { t: 1000, threads: [th(5, 6, 'DedicatedWorker', 100), th(5, 7, 'ThreadPoolForeg', 10)] },
    { t: 1100, threads: [th(5, 6, 'DedicatedWorker', 110), th(5, 7, 'ThreadPoolForeg', 12)] },
    {
      t: 2100,
      threads: [
        th(5, 6, 'DedicatedWorker', 250),
        th(5, 7, 'ThreadPoolForeg', 40),
        th(5, 8, 'DedicatedWorker', 150), // born in the window
        th(1, 1, 'chromium', 3, 'browser'),
      ],
    },
    { t: 3100, threads: [th(5, 6, 'DedicatedWorker', 300), th(5, 7, 'ThreadPoolForeg', 40)] }, // 8 has ended
    { t: 3200, threads: [th(5, 6, 'DedicatedWorker', 999)] }, // after the window
  ];

  it('sums each group between the samples that bound the window, largest first', () => {
    const w = cpuInWindow(samples, 1050, 3100);
    expect(w.seconds).toBeCloseTo(2.1, 12);
    expect(w.groups).toEqual([
      { group: 'renderer/DedicatedWorker', threads: 2, cpuSeconds: 3.5 }, // (300 - 100) + 150 ticks: thread 8 ended inside the window
      { group: 'renderer/ThreadPoolForeg', threads: 1, cpuSeconds: 0.3 },
      { group: 'browser/chromium', threads: 1, cpuSeconds: 0.03 },
    ]);
  });

  it('measures nothing from no samples or an empty window', () => {
    expect(cpuInWindow([], 0, 1)).toEqual({ seconds: 0, groups: [] });
    expect(cpuInWindow(samples.slice(0, 1), 0, 1)).toEqual({ seconds: 0, groups: [] });
  });
});

describe.runIf(existsSync('/proc/self/task'))('threadCpu: this process on Linux', () => {
  it("finds this process's threads and sees their CPU time grow under work", () => {
    const mine = (s: ThreadTicks[]) => s.filter((x) => x.pid === process.pid); // the test may run in a worker thread
    const a = mine(snapshot());
    expect(a.length).toBeGreaterThan(0);
    expect(new Set(a.map((x) => x.process))).toEqual(new Set(['node']));
    const ticks = (s: ThreadTicks[]) => s.reduce((n, x) => n + x.ticks, 0);
    const until = Date.now() + 120; // busy for over 10 ticks
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(ticks(mine(snapshot()))).toBeGreaterThan(ticks(a));
  });
});
