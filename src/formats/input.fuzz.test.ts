// Property-based fuzzing of every way data enters the app (issue 7, hostile input), with fast-check and
// fixed seeds: 1000 broken run links, 1000 broken config-editor edits, 1000 broken run files and 1000 broken
// checkpoint files. Each one is refused with a message (a link's broken field falls back to its default and
// is listed with a reason; an edit and a file are refused whole), nothing throws, and what a link does apply is a valid set of settings (no
// partial state). Valid inputs are accepted, so each property can fail both ways.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkImportedCheckpoint } from '../cohort/importCheckpoint';
import { DEFAULT_TASK } from '../cohort/presets';
import { DEFAULT_RUN_SETTINGS, settingsProblems, type RunSettings } from './runSettings';
import { good } from './runFile.fixture';
import { parseRunFile, parseRunFileBytes } from './runFile';
import { SETTINGS_KEYS, settingsFromJson, settingsFromQuery } from './urlConfig';

const D = DEFAULT_RUN_SETTINGS as RunSettings;

/** A run-settings field and a URL value it must refuse. */
const brokenParam: fc.Arbitrary<[keyof RunSettings, string]> = fc.oneof(
  fc.tuple(
    fc.constantFrom<keyof RunSettings>('steps', 'batchPrompts', 'samples', 'evalProblems', 'innerEpochs'),
    fc.oneof(
      fc.constantFrom('-1', '0', '1.5', 'abc', '', 'NaN', 'Infinity', '1e999', '0x', '[]', '{}', 'true'),
      fc.integer({ max: 0 }).map(String),
    ),
  ),
  fc.tuple(
    fc.constant<keyof RunSettings>('lr'),
    fc.oneof(
      fc.constantFrom('0', '-1e-3', 'abc', '2', 'NaN', ''),
      fc.double({ min: 1.0001, max: 1e6, noNaN: true }).map(String),
    ),
  ),
  fc.tuple(fc.constant<keyof RunSettings>('temperature'), fc.constantFrom('0', '-1', '11', 'hot', 'NaN')),
  fc.tuple(fc.constant<keyof RunSettings>('tau'), fc.constantFrom('-0.1', '1.5', 'x')),
  fc.tuple(fc.constant<keyof RunSettings>('seed'), fc.constantFrom('-1', '4294967296', '1.5', 'seed')),
  fc.tuple(
    fc.constant<keyof RunSettings>('methods'),
    fc.oneof(
      fc.constantFrom('', 'foo', 'co-rl,bogus', ',,', 'CO-RL'),
      fc
        .stringMatching(/^[a-z]{1,8}$/)
        .filter((s) => !['co', 'gt', 'ttrl', 'rent', 'random', 'intuitor'].includes(s)),
    ),
  ),
  fc.tuple(
    fc.constant<keyof RunSettings>('scaleRewards'),
    fc.stringMatching(/^[a-z]{1,10}$/).filter((s) => !['group', 'batch', 'none'].includes(s)),
  ),
  fc.tuple(
    fc.constant<keyof RunSettings>('lossType'),
    fc.stringMatching(/^[a-z_]{1,10}$/).filter((s) => !['grpo', 'bnpo', 'dr_grpo'].includes(s)),
  ),
  fc.tuple(fc.constant<keyof RunSettings>('pretrainHere'), fc.constantFrom('yes', '2', 'maybe', '')),
  ...('backend' in D
    ? [fc.tuple(fc.constant('backend' as keyof RunSettings), fc.constantFrom('gpu', 'tpu', '', 'WEBGPU '))]
    : []),
  ...('customAgents' in D
    ? [
        fc.tuple(
          fc.constant('customAgents' as keyof RunSettings),
          fc.constantFrom(
            '{',
            '[1,2]',
            '"x"',
            '[{"id":1}]',
            'null',
            '[{"id":"A","family":"nope","size":"s","seed":1,"view":"plain","source":"shipped"}]',
          ),
        ),
      ]
    : []),
);

describe('run links under fuzzing', () => {
  it('1000 links with one broken field (and maybe junk): that field is ignored with a reason, the rest applies, never a throw', () => {
    fc.assert(
      fc.property(
        brokenParam,
        fc.integer({ min: 2, max: 64 }),
        fc.option(fc.stringMatching(/^[a-zA-Z]{1,12}$/)),
        ([key, value], samples, junk) => {
          const q = new URLSearchParams();
          q.set(key === 'samples' ? 'steps' : 'samples', String(key === 'samples' ? 7 : samples));
          q.set(key, value);
          const isJunkKey = junk !== null && !(junk in D) && junk !== 'view' && junk !== 'autostart';
          if (isJunkKey) q.set(junk, '1');
          const r = settingsFromQuery(`?${q}`);
          const ig = r.ignored.find((i) => i.key === key);
          if (!ig || ig.reason.length < 8) return false; // named, with a reason
          if (isJunkKey && !r.ignored.some((i) => i.key === junk && /unknown parameter/.test(i.reason)))
            return false;
          // the broken field keeps its default; the good one applies; the result is a valid settings object
          const applied = key === 'samples' ? r.settings.steps === 7 : r.settings.samples === samples;
          return (
            applied &&
            JSON.stringify(r.settings[key]) === JSON.stringify(D[key]) &&
            Object.keys(settingsProblems(r.settings)).length === 0
          );
        },
      ),
      { numRuns: 1000, seed: 20261130 },
    );
  });

  it('1000 arbitrary query strings never throw and always give valid settings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const r = settingsFromQuery(s.startsWith('?') ? s : `?${s}`);
        return (
          Object.keys(settingsProblems(r.settings)).length === 0 &&
          r.ignored.every((i) => i.reason.length > 0)
        );
      }),
      { numRuns: 1000, seed: 11 },
    );
  });
});

/** Valid run settings, every field drawn from its accepted range. */
const validSettings: fc.Arbitrary<RunSettings> = fc.record({
  preset: fc.constantFrom('paper-demo', 'ring', 'same-family', 'different-family'),
  methods: fc.uniqueArray(
    fc.constantFrom<RunSettings['methods'][number]>('co-rl', 'ttrl', 'gt', 'intuitor', 'rent', 'random'),
    { minLength: 1, maxLength: 6 },
  ),
  steps: fc.integer({ min: 1, max: 1_000_000 }),
  seed: fc.integer({ min: 0, max: 0xffffffff }),
  batchPrompts: fc.integer({ min: 1, max: 4096 }),
  samples: fc.integer({ min: 2, max: 1024 }),
  temperature: fc.double({ min: 0.01, max: 10, noNaN: true }),
  lr: fc.double({ min: 1e-8, max: 1, noNaN: true }),
  tau: fc.double({ min: 0, max: 1, noNaN: true }),
  scaleRewards: fc.constantFrom<RunSettings['scaleRewards']>('group', 'batch', 'none'),
  lossType: fc.constantFrom<RunSettings['lossType']>('grpo', 'bnpo', 'dr_grpo'),
  beta: fc.constant(0),
  innerEpochs: fc.integer({ min: 1, max: 64 }),
  evalEvery: fc.integer({ min: 0, max: 1000 }),
  evalProblems: fc.integer({ min: 1, max: 100_000 }),
  portraitSamples: fc.integer({ min: 0, max: 64 }),
  regimeProblems: fc.oneof(fc.constant(0), fc.integer({ min: 10, max: 2000 })),
  pretrainHere: fc.boolean(),
  backend: fc.constantFrom<RunSettings['backend']>('auto', 'webgpu', 'cpu'),
  workers: fc.integer({ min: 1, max: 64 }),
  teacher: fc.constantFrom<RunSettings['teacher']>('ring', 'strict_majority', 'self_plus_peers', 'union'),
  prompts: fc.constant<RunSettings['prompts']>('train'), // 'unseen' is refused on these presets (add d2: the pool holds every train problem)
  cohortMode: fc.constant<RunSettings['cohortMode']>('preset'),
  customAgents: fc.constant([]),
  customTask: fc.constantFrom('add-d2', 'addw', 'muladdw'),
  customTaskFile: fc.constant(null),
});
/** A typed JSON value each field must refuse (wrong type, out of range, unknown name, junk items). */
const brokenJson: fc.Arbitrary<[keyof RunSettings, unknown]> = fc.oneof(
  fc.tuple(
    fc.constantFrom<keyof RunSettings>(
      'steps',
      'batchPrompts',
      'samples',
      'evalProblems',
      'innerEpochs',
      'seed',
      'evalEvery',
    ),
    fc.oneof(
      fc.constantFrom(-1, 1.5, 'NaN', '7', 'Infinity', null, true, [], {}, [7], { value: 7 }, NaN, Infinity),
      fc.integer({ max: -1 }),
    ),
  ),
  fc.tuple(
    fc.constant<keyof RunSettings>('lr'),
    fc.oneof(
      fc.constantFrom(0, -1e-3, 'abc', '1e-4', 2, null, -Infinity),
      fc.double({ min: 1.0001, max: 1e6, noNaN: true }),
    ),
  ),
  fc.tuple(fc.constant<keyof RunSettings>('temperature'), fc.constantFrom(0, -1, 11, 'hot', NaN, false)),
  fc.tuple(
    fc.constant<keyof RunSettings>('tau'),
    fc.oneof(fc.constantFrom(-0.1, 1.5, 'x', null), fc.double({ min: 1.0001, max: 100, noNaN: true })),
  ),
  fc.tuple(fc.constant<keyof RunSettings>('beta'), fc.constantFrom(-1, 'zero', null)),
  fc.tuple(fc.constant<keyof RunSettings>('teacher'), fc.constantFrom('majority', 'Ring', '', 3, null)),
  fc.tuple(
    fc.constant<keyof RunSettings>('methods'),
    fc.oneof(
      fc.constantFrom([], ['co-rl', 'bogus'], ['CO-RL'], 'co-rl', [1], [['gt']], null, ['gt', 'gt'], {}),
      fc
        .stringMatching(/^[a-z]{1,8}$/)
        .filter((m) => !['gt', 'ttrl', 'rent', 'random', 'intuitor'].includes(m))
        .map((m) => [m]),
    ),
  ),
  fc.tuple(
    fc.constant<keyof RunSettings>('scaleRewards'),
    fc.oneof(
      fc.constantFrom(1, null, ['group']),
      fc.stringMatching(/^[a-z]{1,10}$/).filter((v) => !['group', 'batch', 'none'].includes(v)),
    ),
  ),
  fc.tuple(
    fc.constant<keyof RunSettings>('lossType'),
    fc.oneof(
      fc.constantFrom(0, null),
      fc.stringMatching(/^[a-z_]{1,10}$/).filter((v) => !['grpo', 'bnpo', 'dr_grpo'].includes(v)),
    ),
  ),
  fc.tuple(fc.constant<keyof RunSettings>('pretrainHere'), fc.constantFrom('yes', 1, 0, 'true', null, [])),
  fc.tuple(fc.constant<keyof RunSettings>('backend'), fc.constantFrom('gpu', 'tpu', '', 'WEBGPU ', 3, null)),
  fc.tuple(
    fc.constant<keyof RunSettings>('preset'),
    fc.oneof(
      fc.constantFrom('<img src=x onerror=alert(1)>', '', 'PAPER-DEMO', 5, null),
      fc.stringMatching(/^[a-z]{1,12}$/).filter((v) => !['ring'].includes(v)),
    ),
  ),
  fc.tuple(fc.constant<keyof RunSettings>('cohortMode'), fc.constantFrom('both', 'Custom', 1, null)),
  fc.tuple(
    fc.constant<keyof RunSettings>('customAgents'),
    fc.constantFrom(
      '[]',
      {},
      [1, 2],
      [{ id: 1 }],
      [null],
      [{ id: 'A', family: 'nope', size: 's', seed: 1, view: 'plain', source: 'shipped' }],
    ),
  ),
  // an unknown key, with any JSON value
  fc.tuple(
    fc.stringMatching(/^[a-zA-Z_]{1,12}$/).filter((k) => !(k in D)) as fc.Arbitrary<keyof RunSettings>,
    fc.jsonValue({ maxDepth: 2 }),
  ),
);
const PRESET_NAMES = ['different-family', 'different-family-plus', 'paper-demo', 'ring', 'same-family'];

describe('config editor JSON under fuzzing', () => {
  it('1000 settings objects with one field broken: refused whole, the field named', () => {
    fc.assert(
      fc.property(validSettings, brokenJson, (s, [key, bad]) => {
        const edit = { ...s, [key]: bad } as Record<string, unknown>;
        const r = settingsFromJson(
          JSON.parse(
            JSON.stringify(edit, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? `${v}` : v)),
          ) as unknown,
          { presets: PRESET_NAMES },
        );
        const r2 = settingsFromJson(edit, { presets: PRESET_NAMES }); // the raw value too (NaN, Infinity as numbers)
        const named = (x: typeof r) =>
          !x.ok &&
          x.errors.length >= 1 &&
          x.errors.some((e) => e.startsWith(`${key}: `) && e.length > key.length + 10);
        return named(r) && named(r2) && !('settings' in r) && !('settings' in r2);
      }),
      { numRuns: 1000, seed: 20261201 },
    );
  });

  it('500 valid settings objects are accepted as they are, and the same fields left out take their defaults', () => {
    fc.assert(
      fc.property(validSettings, fc.subarray([...SETTINGS_KEYS]), (s, drop) => {
        const full = settingsFromJson(JSON.parse(JSON.stringify(s)), { presets: PRESET_NAMES });
        if (!full.ok || JSON.stringify(full.settings) !== JSON.stringify(s) || full.defaulted.length)
          return false;
        const part = Object.fromEntries(
          Object.entries(s).filter(([k]) => !drop.includes(k as keyof RunSettings)),
        );
        const r = settingsFromJson(part, { presets: PRESET_NAMES });
        if (!r.ok) return false; // dropping fields gives defaults, which are valid
        return (
          SETTINGS_KEYS.every(
            (k) => JSON.stringify(r.settings[k]) === JSON.stringify(drop.includes(k) ? D[k] : s[k]),
          ) && r.defaulted.length === drop.length
        );
      }),
      { numRuns: 500, seed: 77 },
    );
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mutations reach anywhere in the file's JSON
type Json = Record<string, any>;
/** A way of breaking a good run file's JSON (each must make the file invalid). */
const fileBreak: fc.Arbitrary<(x: Json) => void> = fc.oneof(
  fc
    .constantFrom('format', 'version', 'name', 'savedAt', 'settings', 'config', 'metrics', 'step')
    .map((k) => (x: Json) => void delete x[k]),
  fc.constantFrom(2, 0, '1', null, 1.5).map((v) => (x: Json) => void (x.version = v)),
  fc.constantFrom('co-rl-run', '', 'CO-RL-PLAYGROUND-RUN', null).map((v) => (x: Json) => void (x.format = v)),
  fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string())).map((v) => (x: Json) => void (x.name = v)),
  fc.constantFrom(-1, 1.5, 'three', null).map((v) => (x: Json) => void (x.step = v)),
  fc.constantFrom(-1, 0, 'x', null, 1.5).map((v) => (x: Json) => void (x.settings.steps = v)),
  fc.constantFrom('x', null, -1, Infinity).map((v) => (x: Json) => void (x.config.train.lr = v)),
  fc.constantFrom('bogus', 42, null).map((v) => (x: Json) => void (x.metrics.methods = [v])),
  fc
    .constantFrom('x', {}, [], true)
    .map((v) => (x: Json) => void (x.metrics.steps['co-rl'][1].agents[0].rewardMean = v)),
  fc.constantFrom(0, -3, 'two', null).map((v) => (x: Json) => void (x.metrics.steps['co-rl'][1].step = v)),
  fc
    .constantFrom('x', null, 2.5)
    .map((v) => (x: Json) => void (x.metrics.evals.ttrl[0].ensembleAccuracy = v)),
  fc
    .string({ minLength: 1, maxLength: 10 })
    .filter(
      (k) =>
        ![
          'format',
          'version',
          'name',
          'savedAt',
          'settings',
          'config',
          'metrics',
          'step',
          'snapshot',
          'phase',
          '__proto__',
        ].includes(k),
    )
    .map((k) => (x: Json) => void (x[k] = 1)),
);

describe('run files under fuzzing', () => {
  const text = JSON.stringify(good());

  it('the good file is accepted', () => {
    expect(parseRunFile(text).ok).toBe(true);
  });

  it('1000 files broken in one place, truncated or replaced by random bytes: refused with messages, never a throw', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fileBreak.map((f) => {
            const x = JSON.parse(text) as Json;
            f(x);
            return new TextEncoder().encode(JSON.stringify(x));
          }),
          fc.integer({ min: 0, max: text.length - 1 }).map((n) => new TextEncoder().encode(text.slice(0, n))),
          fc.uint8Array({ maxLength: 300 }),
          fc.jsonValue({ maxDepth: 3 }).map((v) => new TextEncoder().encode(JSON.stringify(v))),
        ),
        (bytes) => {
          const r = parseRunFileBytes(bytes);
          return !r.ok && r.errors.length > 0 && r.errors.every((e) => typeof e === 'string' && e.length > 8);
        },
      ),
      { numRuns: 1000, seed: 5 },
    );
  });
});

describe('checkpoint files under fuzzing', () => {
  const real = new Uint8Array(readFileSync('public/checkpoints/add-d2/rope-carry.s.s1.ckpt'));
  const headerEnd = 16 + new DataView(real.buffer, real.byteOffset).getUint32(12, true);

  it('the shipped checkpoint is accepted', () => {
    expect(checkImportedCheckpoint(real, DEFAULT_TASK).ok).toBe(true);
  });

  it('1000 broken checkpoint files (truncated, bad magic/version/header, NaN weights, random bytes): refused, never a throw', () => {
    const mutated = (f: (b: Uint8Array, dv: DataView) => void) => {
      const b = real.slice();
      f(b, new DataView(b.buffer));
      return b;
    };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: real.length - 1 }).map((n) => real.slice(0, n)),
          fc.integer({ min: 0, max: 7 }).map((i) => mutated((b) => void (b[i] ^= 0x20))),
          fc.integer({ min: 2, max: 0xffff }).map((v) => mutated((_, dv) => dv.setUint32(8, v, true))),
          fc
            .integer({ min: 0, max: 0xffffff })
            .filter((v) => v !== headerEnd - 16)
            .map((v) => mutated((_, dv) => dv.setUint32(12, v, true))),
          fc.integer({ min: 16, max: headerEnd - 1 }).map((i) => mutated((b) => void (b[i] = 0x01))), // a control byte: never valid JSON
          fc
            .tuple(
              fc.integer({ min: 0, max: Math.floor((real.length - headerEnd) / 4) - 1 }),
              fc.constantFrom(NaN, Infinity, -Infinity),
            )
            .map(([i, v]) =>
              mutated((_, dv) => dv.setFloat32(Math.ceil(headerEnd / 4) * 4 + 4 * i, v, true)),
            ),
          fc.uint8Array({ maxLength: 400 }),
        ),
        (bytes) => {
          const r = checkImportedCheckpoint(bytes, DEFAULT_TASK);
          return !r.ok && r.error.length > 8;
        },
      ),
      { numRuns: 1000, seed: 3 },
    );
  });
});
