// Tests for the config editor's schema layer (settingsFromJson / settingsFromJsonText in urlConfig.ts): the
// current settings round-trip through their JSON; an edit is all or nothing — any unknown, mistyped or
// out-of-range field refuses the whole edit with every problem named by field, and the message says what
// is accepted; a syntax error gives its line and column; the checks are the very ones a link applies.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_SETTINGS, type RunSettings } from './runSettings';
import {
  jsonErrorWhere,
  settingsFromJson,
  settingsFromJsonText,
  settingsFromQuery,
  settingsToQuery,
} from './urlConfig';

const D = DEFAULT_RUN_SETTINGS as RunSettings;
const PRESETS = ['different-family', 'paper-demo', 'ring', 'same-family'];
const agentA = { id: 'A', family: 'lp-nocarry', size: 's', seed: 1, view: 'plain', source: 'pretrain' };
const agentB = { id: 'B', family: 'rope-carry', size: 'm', seed: 2, view: 'swap', source: 'pretrain' };

/** The errors of a refused edit (fails the test if it was accepted). */
function refused(value: unknown, ctx = { presets: PRESETS }): string[] {
  const r = settingsFromJson(value, ctx);
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(value)}`);
  return r.errors;
}

describe('settingsFromJson: valid edits', () => {
  it('the defaults round-trip through their pretty JSON', () => {
    const r = settingsFromJsonText(JSON.stringify(D, null, 2), { presets: PRESETS });
    expect(r).toEqual({ ok: true, settings: D, defaulted: [] });
  });

  it('a full edit of every field round-trips, including a composed cohort', () => {
    const s: RunSettings = {
      ...D,
      preset: 'ring',
      methods: ['gt', 'random'],
      steps: 7,
      seed: 4294967295,
      temperature: 0.7,
      lr: 1.5e-7,
      tau: 0.25,
      scaleRewards: 'batch',
      lossType: 'dr_grpo',
      beta: 0.01,
      innerEpochs: 2,
      evalEvery: 0,
      evalProblems: 3,
      pretrainHere: true,
      backend: 'cpu',
      cohortMode: 'custom',
      customAgents: [agentA, agentB] as RunSettings['customAgents'],
    };
    const r = settingsFromJson(JSON.parse(JSON.stringify(s)), { presets: PRESETS });
    expect(r).toEqual({ ok: true, settings: s, defaulted: [] });
  });

  it('fields left out take their defaults (as in a link) and are named', () => {
    const r = settingsFromJson({ steps: 7, lr: 0.0003 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings).toEqual({ ...D, steps: 7, lr: 0.0003 });
    expect(r.defaulted).toContain('preset');
    expect(r.defaulted).not.toContain('steps');
    // the same settings as the link with the same fields
    expect(settingsFromQuery(`?${settingsToQuery(r.settings)}`).settings).toEqual(r.settings);
  });

  it('without a preset list, any preset name passes the type check (as a link before the manifest is read)', () => {
    expect(settingsFromJson({ preset: 'ring' }).ok).toBe(true);
  });
});

describe('settingsFromJson: refused edits (all or nothing, every problem named)', () => {
  const cases: [string, unknown, RegExp[]][] = [
    ['null', null, [/must be a JSON object of run settings.*got null/]],
    ['an array', [D], [/must be a JSON object.*got an array/]],
    ['a number', 200, [/must be a JSON object.*got 200/]],
    ['a string', 'steps=7', [/must be a JSON object.*got steps=7/]],
    [
      'an unknown key',
      { ...D, bogus: 1 },
      [/^bogus: unknown setting; run settings are preset, methods, steps/],
    ],
    [
      'a prototype key',
      JSON.parse('{"__proto__": {"steps": 1}, "steps": 9}'),
      [/^__proto__: unknown setting/],
    ],
    [
      'a run file pasted whole',
      { format: 'co-rl-playground-run', settings: D },
      [/^format: unknown setting/, /^settings: unknown setting.*paste only its "settings" object/],
    ],
    ['steps as a string', { steps: '7' }, [/^steps: must be a number, got 7/]],
    ['a NaN-like string', { lr: 'NaN' }, [/^lr: must be a number, got NaN/]],
    ['an Infinity string', { temperature: 'Infinity' }, [/^temperature: must be a number/]],
    ['a non-finite number', { steps: Number.NaN }, [/^steps: must be a number/]],
    ['steps out of range', { steps: -1 }, [/^steps: must be an integer in \[1, 1000000\], got -1/]],
    ['a fractional step count', { steps: 1.5 }, [/^steps: must be an integer/]],
    ['lr out of range', { lr: 0 }, [/^lr: must be a number in \(0, 1\], got 0/]],
    ['tau out of range', { tau: 1.5 }, [/^tau: /]],
    [
      'a bad method',
      { methods: ['co-rl', 'bogus'] },
      [/^methods: must be one of 'co-rl' \| 'ttrl'.*got "bogus"/],
    ],
    ['methods as a string', { methods: 'co-rl,ttrl' }, [/^methods: must be a list of names/]],
    ['no method', { methods: [] }, [/^methods: pick at least one method/]],
    ['a bad scaling', { scaleRewards: 'all' }, [/^scaleRewards: /]],
    ['a bad loss', { lossType: 'ppo' }, [/^lossType: /]],
    ['a bad backend', { backend: 'tpu' }, [/^backend: backend must be one of auto, webgpu, wasm, cpu/]],
    [
      'a bad cohort mode',
      { cohortMode: 'both' },
      [/^cohortMode: cohortMode must be one of preset, custom; got "both"/],
    ],
    ['a boolean as a number', { pretrainHere: 1 }, [/^pretrainHere: must be true or false, got 1/]],
    [
      'customAgents not a list',
      { customAgents: { id: 'A' } },
      [/^customAgents: must be a list, got \{"id":"A"\}/],
    ],
    [
      'a customAgents item not an object',
      { customAgents: [agentA, 7] },
      [/^customAgents: agent 2: must be an object \{ id, family, size, seed, view, source \}, got 7/],
    ],
    [
      'a customAgents item with a bad family',
      { customAgents: [{ ...agentA, family: 'nope' }] },
      [/^customAgents: .*nope/],
    ],
    [
      'nested junk in a number field',
      { steps: { value: 7 } },
      [/^steps: must be a number, got \{"value":7\}/],
    ],
    ['nested junk in a list', { methods: [['co-rl']] }, [/^methods: must be a list of names/]],
    [
      'a preset not in the manifest',
      { preset: 'nope' },
      [/^preset: unknown preset "nope"; available: different-family, paper-demo/],
    ],
    [
      'a preset that is markup',
      { preset: '<img src=x onerror=alert(1)>' },
      [/^preset: unknown preset "<img src=x onerror=alert\(1\)>"; available: /],
    ],
  ];

  for (const [name, value, want] of cases)
    it(`refuses ${name}`, () => {
      const errors = refused(value);
      expect(errors).toHaveLength(want.length);
      want.forEach((re, i) => expect(errors[i]).toMatch(re));
    });

  it('lists every problem at once, in the settings order, unknown keys last', () => {
    const errors = refused({ ...D, zzz: true, lr: 'fast', steps: -1, methods: ['x'], bogus: 1 });
    expect(errors.map((e) => e.split(':')[0])).toEqual(['methods', 'steps', 'lr', 'zzz', 'bogus']);
  });

  it('a link gets the same checks: the same bad fields are ignored there, field by field', () => {
    const r = settingsFromQuery('?cohortMode=both&steps=-1&backend=tpu&samples=3');
    expect(r.ignored.map((i) => i.key)).toEqual(['steps', 'backend', 'cohortMode']);
    expect(r.settings.samples).toBe(3);
    expect(
      refused({ cohortMode: 'both', steps: -1, backend: 'tpu', samples: 3 }).map((e) => e.split(':')[0]),
    ).toEqual(['steps', 'backend', 'cohortMode']);
  });

  it('one bad field refuses the edit whole: nothing of the good fields comes back', () => {
    const r = settingsFromJson({ ...D, steps: 7, seed: 5, lr: -1 });
    expect(r).toEqual({ ok: false, errors: ['lr: must be a number in (0, 1], got -1'] });
  });
});

describe('settingsFromJsonText: syntax errors', () => {
  it('gives the line and column of a syntax error', () => {
    const r = settingsFromJsonText('{\n  "steps": 7,\n  "lr": 0.1,\n}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^not valid JSON: .*line 4,? column 1/);
  });

  it('adds line and column to a message that gives only a position', () => {
    const text = '{\n  "a": 1\n  "b": 2}';
    expect(jsonErrorWhere(text, new SyntaxError('Unexpected string in JSON at position 13'))).toBe(
      'Unexpected string in JSON at position 13 (line 3, column 3)',
    );
    expect(jsonErrorWhere(text, new SyntaxError('Bad thing (line 3 column 3)'))).toBe(
      'Bad thing (line 3 column 3)',
    );
    expect(jsonErrorWhere('  ', new SyntaxError('Unexpected end of JSON input'))).toBe(
      'Unexpected end of JSON input (the text is empty)',
    );
  });

  it('refuses NaN and trailing junk, which JSON does not allow', () => {
    expect(settingsFromJsonText('{"steps": NaN}').ok).toBe(false);
    expect(settingsFromJsonText('{"steps": 7} x').ok).toBe(false);
    expect(settingsFromJsonText('').ok).toBe(false);
  });
});
