// A task file as the composed cohort's task (docs/tasks.md "In the page"): the settings name it and the
// experiment config trains on it; a link keeps the reference and says which file is missing where it is not
// loaded; a run file embeds the file's text, and refuses one whose text is missing or differs.
import { describe, expect, it } from 'vitest';
import { parseExperimentConfig } from '../rl/config';
import { registerCarriedTaskFile } from '../tasks/file/carried';
import { goodRows } from '../tasks/file/testFiles';
import { settings as fixtureSettings, good as fixtureRun } from './runFile.fixture';
import { DEFAULT_RUN_SETTINGS, settingsProblems, toExperimentConfig, type RunSettings } from './runSettings';
import { buildRunFile, validateRunFile } from './runFile';
import { taskFileStartField } from './taskFileTask';
import { settingsFromQuery, settingsToQuery } from './urlConfig';

const text = `${goodRows(800).join('\n')}\n`;
const hash = registerCarriedTaskFile({ name: 'class.jsonl', text, normalize: 'exact', evalFraction: 0.2 });
const kept = { [hash]: { name: 'class.jsonl', text } };
const agent = (id: string, family: string) =>
  ({ id, family, size: 's', seed: 1, view: 'plain', source: 'pretrain' }) as const;
const s: RunSettings = {
  ...DEFAULT_RUN_SETTINGS,
  methods: ['co-rl', 'gt'],
  cohortMode: 'custom',
  customAgents: [agent('A', 'nat-rope'), agent('B', 'nat-deep')],
  customTask: 'file',
  customTaskFile: { name: 'class.jsonl', hash, normalize: 'exact' },
};
const ctx = (hashes: string[]) => ({ taskFiles: hashes });

describe('a task file as the composed cohort task', () => {
  it('becomes the experiment config task, and the start command carries its text', () => {
    expect(settingsProblems(s, undefined, ctx([hash]))).toEqual({});
    const c = toExperimentConfig(s);
    expect(c.task).toEqual({ kind: 'file', hash, normalize: 'exact' });
    expect(parseExperimentConfig(c).ok).toBe(true);
    expect(taskFileStartField(s, kept)).toEqual({
      taskFile: { name: 'class.jsonl', text, normalize: 'exact', evalFraction: 0.2 },
    });
    expect(taskFileStartField({ ...s, cohortMode: 'preset' }, kept)).toEqual({});
  });

  it('refuses the axes a file task cannot take, naming the agent', () => {
    const p = settingsProblems(
      { ...s, customAgents: [agent('A', 'nat-rope'), { ...agent('B', 'nat-rope'), view: 'reversed' }] },
      undefined,
      ctx([hash]),
    );
    expect(p.customAgents).toMatch(/^agent 2 \(B\): view reversed cannot apply to a file task/);
  });

  it('a link keeps the file reference; where the file is not loaded it says which file is missing', () => {
    const other = {
      ...s,
      customTaskFile: { name: 'mine.csv', hash: 'ab'.repeat(32), normalize: 'casefold' as const },
    };
    const r = settingsFromQuery(`?${settingsToQuery(other)}`);
    expect(r.ignored).toEqual([]);
    expect(r.settings.customTask).toBe('file');
    expect(r.settings.customTaskFile).toEqual(other.customTaskFile);
    const p = settingsProblems(r.settings, undefined, ctx([hash]));
    expect(p.customTask).toBe(
      'the task file mine.csv (hash abababababababab..., answers compared casefold) is not loaded in this page: a link carries only its name and hash, not its rows; drop or pick mine.csv in "Task from a file" below (the same data: a file whose hash differs becomes the task instead)',
    );
    expect(p.customAgents).toBeUndefined(); // no rows to check the agents against
    // loaded in this process but not kept in the page: cannot run either
    expect(settingsProblems(s, undefined, ctx([])).customTask).toMatch(
      /^the task file class\.jsonl .* is not loaded/,
    );
  });

  it('refuses a malformed reference', () => {
    const p = settingsProblems(
      { ...s, customTaskFile: { name: 'x', hash: 'nothex' } as never },
      undefined,
      ctx([]),
    );
    expect(p.customTaskFile).toMatch(
      /^customTaskFile must be null or \{ name \(at most 200 characters\), hash/,
    );
    expect(p.customTask).toMatch(/^customTask "file" needs a task file: drop or pick one/);
    expect(settingsFromQuery('?customTaskFile=5').ignored.map((i) => i.key)).toEqual(['customTaskFile']);
  });
});

describe('a run file of a file task', () => {
  const source = {
    runSettings: s,
    runStatus: { step: 0, config: toExperimentConfig(s) },
    metrics: { runId: 1, methods: [], steps: {}, evals: {} },
    taskFiles: kept,
  };

  it('embeds the file text and reads back with it', () => {
    const f = buildRunFile(source, 'class run');
    expect(f.taskFile).toEqual({ name: 'class.jsonl', text, normalize: 'exact', evalFraction: 0.2 });
    const v = validateRunFile(JSON.parse(JSON.stringify(f)));
    expect(v.ok && v.run.taskFile?.text).toBe(text);
  });

  it('refuses one without the text when no file of that hash is loaded, naming the file', () => {
    const f = JSON.parse(JSON.stringify(buildRunFile(source, 'class run')));
    delete f.taskFile;
    f.config.task.hash = 'cd'.repeat(32);
    f.settings.customTaskFile.hash = 'cd'.repeat(32);
    const v = validateRunFile(f);
    expect(v.ok ? [] : v.errors).toEqual([
      'taskFile: this run trained on the task file "class.jsonl" (hash cdcdcdcdcdcdcdcd...), but the run file does not carry its rows and no file with that hash is loaded in this page; drop or pick "class.jsonl" in the Cohort panel (Compose, "Task from a file"), then import the run again',
    ]);
    // the same run file reads where the file is loaded (here: the hash the text has)
    f.config.task.hash = hash;
    f.settings.customTaskFile.hash = hash;
    expect(validateRunFile(f).ok).toBe(true);
  });

  it('refuses an embedded text whose data differ from the run task, and one that does not load', () => {
    const f = JSON.parse(JSON.stringify(buildRunFile(source, 'class run')));
    f.taskFile.text = text.replace('"q5?"', '"q5!"');
    const v = validateRunFile(f);
    expect(v.ok ? [] : v.errors).toEqual([
      expect.stringMatching(
        /^taskFile: the embedded file's data \(hash [0-9a-f]{16}\.\.\.\) differ from the data the run trained on \(config\.task\.hash [0-9a-f]{16}\.\.\.\); the run file was edited/,
      ),
    ]);
    f.taskFile.text = `${text}{"prompt": "q5?", "answer": "1"}\n`;
    const w = validateRunFile(f);
    expect(w.ok ? [] : w.errors).toEqual([
      'taskFile: the embedded task file "class.jsonl" does not load: line 801: prompt: duplicates the prompt of line 6 (every prompt must be unique)',
    ]);
  });

  it('a run on a built-in task carries no task file', () => {
    expect(fixtureRun().taskFile).toBeUndefined();
    expect(fixtureSettings.customTaskFile).toBeNull();
  });
});
