import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTask, type TaskConfig } from '..';
import { TaskFileError } from './load';
import { withTaskFile } from './node';
import { bytesOf, goodRows } from './testFiles';

/** A folder with a config folder and a data folder holding a good file. */
function layout(): { config: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'task-file-'));
  mkdirSync(join(dir, 'configs'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'good.jsonl'), bytesOf(goodRows(1000)));
  return { config: join(dir, 'configs', 'run.json'), dir };
}

const problemsOf = (f: () => unknown): string[] => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TaskFileError);
    return [...(e as TaskFileError).messages];
  }
  throw new Error('not refused');
};

describe('withTaskFile (the CLIs)', () => {
  it("resolves a relative path against the config file's folder and fills in the hash", () => {
    const { config } = layout();
    const raw = withTaskFile({ task: { kind: 'file', path: '../data/good.jsonl' } }, config);
    const task = raw.task as TaskConfig & { hash: string; path: string };
    expect(task.path).toBe('../data/good.jsonl');
    expect(task.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(makeTask(task).sizes.space).toBe(1000);
  });
  it('writes the path absolute for a config copied elsewhere (a sweep directory)', () => {
    const { config, dir } = layout();
    const raw = withTaskFile({ task: { kind: 'file', path: '../data/good.jsonl' } }, config, {
      absolutePath: true,
    });
    expect((raw.task as { path: string }).path).toBe(join(dir, 'data', 'good.jsonl'));
    const again = withTaskFile(raw, join(tmpdir(), 'elsewhere', 'sweep.json'));
    expect((again.task as { hash: string }).hash).toBe((raw.task as { hash: string }).hash);
  });
  it('passes other configs through', () => {
    const raw = { task: { kind: 'add', digits: 2 } };
    expect(withTaskFile(raw, 'x.json')).toBe(raw);
  });
  it('refuses a missing file and data that differ from the hash the config names', () => {
    const { config } = layout();
    expect(problemsOf(() => withTaskFile({ task: { kind: 'file', path: 'nope.jsonl' } }, config))).toEqual([
      expect.stringMatching(/^cannot read the task file .*nope\.jsonl \(ENOENT\)/),
    ]);
    const stale = { task: { kind: 'file', path: '../data/good.jsonl', hash: 'a'.repeat(64) } };
    expect(problemsOf(() => withTaskFile(stale, config))).toEqual([
      expect.stringMatching(/^the file's data differ from the ones this config was made with/),
    ]);
  });
  it("checks lengths against the smallest arch.blockSize of the config's agents", () => {
    const { config } = layout();
    const raw = {
      task: { kind: 'file', path: '../data/good.jsonl' },
      cohort: {
        agents: [
          { id: 'A', arch: { blockSize: 64 } },
          { id: 'B', arch: { blockSize: 8 } },
        ],
      },
    };
    expect(problemsOf(() => withTaskFile(raw, config))[0]).toMatch(/more than 8/);
  });
});
