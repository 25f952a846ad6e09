// Tests for run files: what "Export run" writes reads back equal, and every kind of malformed or foreign
// file is refused with a message naming the problem (never a throw).
import { describe, expect, it } from 'vitest';
import { toExperimentConfig } from './runSettings';
import { evalRec, good, settings, stepRec } from './runFile.fixture';
import { buildRunFile, parseRunFile, parseRunFileBytes, RUN_FILE_FORMAT, validateRunFile } from './runFile';

/** A good file as plain JSON data, changed by `f`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests break files anywhere in their JSON
const variant = (f: (x: Record<string, any>) => void): string => {
  const x = JSON.parse(JSON.stringify(good()));
  f(x);
  return JSON.stringify(x);
};

describe('run files', () => {
  it('round-trips what buildRunFile writes', () => {
    const f = good();
    expect(f.format).toBe(RUN_FILE_FORMAT);
    expect(f.savedAt).toBe('2025-01-02T03:04:05.000Z');
    expect('runId' in f.metrics).toBe(false);
    const r = parseRunFile(JSON.stringify(f, null, 1));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.run).toEqual(JSON.parse(JSON.stringify(f)));
    expect(r.run.metrics.steps['co-rl']![2].agents[1].rewardGroupStdNorm).toBeNull();
  });

  it('accepts a run of the co-rl-frozen control beside co-rl, and refuses a misspelt one naming the field', () => {
    const s = { ...settings, methods: ['co-rl', 'co-rl-frozen'] as const };
    const methods = [...s.methods];
    const f = buildRunFile(
      {
        runSettings: { ...s, methods },
        runStatus: { step: 3, config: toExperimentConfig({ ...s, methods }) },
        metrics: {
          runId: 1,
          methods,
          steps: Object.fromEntries(methods.map((m) => [m, [1, 2, 3].map((t) => stepRec(m, t))])),
          evals: Object.fromEntries(methods.map((m) => [m, [0, 3].map((t) => evalRec(m, t))])),
        },
      },
      'frozen control',
    );
    const r = parseRunFile(JSON.stringify(f));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.run.config.methods).toEqual(['co-rl', 'co-rl-frozen']);
    expect(r.run.metrics.steps['co-rl-frozen']![2].agents[0].trainedLabelAccuracy).toBe(0.5);
    const bad = parseRunFile(JSON.stringify(f).replaceAll('co-rl-frozen', 'co-rl-frozn'));
    expect(bad.ok).toBe(false);
    expect((bad as { errors: string[] }).errors.join('\n')).toMatch(
      /metrics\.methods\[1\]: unknown method "co-rl-frozn" \(allowed: .*co-rl-frozen/,
    );
  });

  it('fills settings a file predates with their defaults, and takes the config of a run without one', () => {
    const r = parseRunFile(variant((x) => delete x.settings.pretrainHere));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.run.settings.pretrainHere).toBe(false);
    const b = buildRunFile(
      {
        runSettings: settings,
        runStatus: { step: 0, config: null },
        metrics: { runId: 0, methods: [], steps: {}, evals: {} },
      },
      'x',
    );
    expect(b.config).toEqual(toExperimentConfig(settings));
    expect(validateRunFile(JSON.parse(JSON.stringify(b))).ok).toBe(true);
  });

  const BAD: [string, string, RegExp][] = [
    ['empty file', '', /empty/],
    ['PNG bytes', '\x89PNG\r\n\x1a\n\0\0\0\rIHDR', /PNG image/],
    ['not JSON', '{"format": "co-rl-playground-run",', /not JSON/],
    ['a JSON array', '[1,2]', /JSON array/],
    ['a number', '42', /JSON value 42/],
    ['another JSON object', '{"hello":1}', /no "format" field/],
    [
      'version 2',
      variant((x) => (x.version = 2)),
      /this file is a "co-rl-playground-run" version 2; this app reads co-rl-playground-run version 1/,
    ],
    [
      'a checkpoint manifest',
      '{"format":"co-rl-checkpoints","version":1,"presets":{}}',
      /"co-rl-checkpoints" version 1/,
    ],
    ['unknown top-level field', variant((x) => (x.extra = true)), /^extra: unknown field/],
    ['name not a string', variant((x) => (x.name = { html: '<b>' })), /^name: must be a string/],
    ['name too long', variant((x) => (x.name = 'n'.repeat(201))), /^name: at most 200/],
    ['bad date', variant((x) => (x.savedAt = 'yesterday')), /^savedAt: must be an ISO date/],
    [
      'settings missing',
      variant((x) => delete x.settings),
      /^settings: must be an object, got nothing \(the field is missing\)/,
    ],
    ['setting out of range', variant((x) => (x.settings.steps = -5)), /^settings\.steps: must be an integer/],
    ['setting of the wrong type', variant((x) => (x.settings.lr = '0.1')), /^settings\.lr: must be a number/],
    [
      'unknown method in settings',
      variant((x) => (x.settings.methods = ['co-rl', 'bogus'])),
      /^settings\.methods: must be one of/,
    ],
    ['unknown setting', variant((x) => (x.settings.turbo = 1)), /^settings\.turbo: unknown setting/],
    ['bad config', variant((x) => (x.config.train.samples = 1)), /^config: train\.samples: must be >= 2/],
    ['config missing', variant((x) => delete x.config), /^config: missing/],
    [
      'config not an object',
      variant((x) => (x.config = 'paper-demo')),
      /^config: config must be a JSON object/,
    ],
    ['metrics missing', variant((x) => delete x.metrics), /^metrics: must be an object/],
    [
      'unknown method in metrics',
      variant((x) => (x.metrics.methods = ['co-rl', 'nope'])),
      /^metrics\.methods\[1\]: unknown method "nope"/,
    ],
    [
      'method listed twice',
      variant((x) => (x.metrics.methods = ['co-rl', 'co-rl', 'ttrl'])),
      /^metrics\.methods\[1\]: "co-rl" listed twice/,
    ],
    [
      'records of an unlisted method',
      variant((x) => (x.metrics.steps.gt = [])),
      /^metrics\.steps\.gt: records of a method not in metrics\.methods/,
    ],
    [
      'records not an array',
      variant((x) => (x.metrics.evals.ttrl = { 0: {} })),
      /^metrics\.evals\.ttrl: must be an array/,
    ],
    [
      'a string where a number belongs',
      variant((x) => (x.metrics.steps['co-rl'][1].agents[0].meanEntropy = '0.8')),
      /^metrics\.steps\.co-rl\[1\]\.agents\[0\]\.meanEntropy: must be a finite number or null/,
    ],
    [
      'a missing figure',
      variant((x) => delete x.metrics.evals.ttrl[2].ensembleAccuracy),
      /^metrics\.evals\.ttrl\[2\]\.ensembleAccuracy: missing/,
    ],
    [
      'steps out of order',
      variant((x) => x.metrics.steps.ttrl.reverse()),
      /^metrics\.steps\.ttrl\[1\]\.step: steps must increase, got 2 after 3/,
    ],
    [
      'a repeated step',
      variant((x) => (x.metrics.evals['co-rl'][2].step = 1)),
      /steps must increase, got 1 after 1/,
    ],
    [
      'a record under the wrong method',
      variant((x) => (x.metrics.steps.ttrl[0].method = 'co-rl')),
      /^metrics\.steps\.ttrl\[0\]\.method: must be 'ttrl'/,
    ],
    ['a training step 0', variant((x) => (x.metrics.steps.ttrl[0].step = 0)), /training steps start at 1/],
    [
      'a step beyond the config',
      variant((x) => (x.metrics.steps.ttrl[2].step = 99)),
      /99 is beyond the config's 3 steps/,
    ],
    [
      'a fractional step',
      variant((x) => (x.metrics.steps.ttrl[2].step = 2.5)),
      /\.step: must be an integer >= 0/,
    ],
    [
      'agent without a name',
      variant((x) => (x.metrics.evals.ttrl[0].agents[1].agent = '')),
      /agents\[1\]\.agent: must be a non-empty string/,
    ],
    [
      'pairs not an array',
      variant((x) => (x.metrics.steps.ttrl[0].pairs = null)),
      /\.pairs: must be an array/,
    ],
    ['bad timing', variant((x) => (x.metrics.steps.ttrl[0].timing = 3)), /\.timing: must be an object/],
    [
      'bad example',
      variant((x) => (x.metrics.steps.ttrl[0].examples[0].rewards = ['x'])),
      /examples\[0\]\.rewards\[0\]: must be a finite number/,
    ],
    [
      'bad greedyCorrect',
      variant((x) => (x.metrics.evals.ttrl[0].agents[0].greedyCorrect = '10x')),
      /greedyCorrect: must be a string of 0s and 1s/,
    ],
    ['negative step', variant((x) => (x.step = -1)), /^step: must be an integer >= 0/],
    ['step beyond the config', variant((x) => (x.step = 4)), /^step: 4 is beyond the config's 3 steps/],
    ['bad snapshot', variant((x) => (x.snapshot = { step: 1 })), /^snapshot: must be \{ step/],
  ];

  it.each(BAD)('refuses %s with a message', (_what, text, want) => {
    let r!: ReturnType<typeof parseRunFile>;
    expect(() => (r = parseRunFile(text))).not.toThrow();
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.length).toBeGreaterThan(0);
    expect(
      r.errors.some((e) => want.test(e)),
      `${r.errors.join('\n')}\n  should match ${want}`,
    ).toBe(true);
  });

  it('names binary files by their bytes and reads a good file from bytes', () => {
    const bytes = (...b: number[]) => new Uint8Array(b);
    const refusal = (b: Uint8Array) => {
      const r = parseRunFileBytes(b);
      return r.ok ? 'accepted' : r.errors.join('\n');
    };
    expect(refusal(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toMatch(
      /^this file is a PNG image, not a run; this app reads co-rl-playground-run version 1/,
    );
    expect(refusal(new TextEncoder().encode('CORLCKPT\x01\x00'))).toMatch(/a Co-RL checkpoint/);
    expect(refusal(bytes(0x7b, 0xff, 0xfe, 0x7d))).toMatch(/binary data, not JSON text/);
    const ok = parseRunFileBytes(new TextEncoder().encode(JSON.stringify(good())));
    expect(ok.ok).toBe(true);
  });

  it('lists at most 25 problems and counts the rest', () => {
    const r = parseRunFile(
      variant((x) => {
        for (const s of x.metrics.steps['co-rl'])
          for (const a of s.agents) for (const k of Object.keys(a)) if (k !== 'agent') a[k] = 'x';
      }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(26);
    expect(r.errors[25]).toMatch(/^\.\.\. and 95 more problems$/);
  });

  it('survives random corruption of a good file without throwing', () => {
    const text = JSON.stringify(good());
    let seed = 99;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let refused = 0;
    for (let n = 0; n < 300; n++) {
      const i = Math.floor(rnd() * text.length);
      const bad =
        text.slice(0, i) +
        String.fromCharCode(32 + Math.floor(rnd() * 90)) +
        text.slice(i + 1 + Math.floor(rnd() * 3));
      let r!: ReturnType<typeof parseRunFile>;
      expect(() => (r = parseRunFile(bad))).not.toThrow();
      if (!r.ok) {
        refused++;
        expect(r.errors.every((e) => typeof e === 'string' && e.length > 5)).toBe(true);
      }
    }
    expect(refused).toBeGreaterThan(150);
  });
});
