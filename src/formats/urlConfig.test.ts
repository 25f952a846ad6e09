// Tests for the run settings' URL codec: only changed fields are written, every kind round-trips (numbers,
// booleans, strings, name lists, JSON object lists), and broken links fall back field by field with a reason,
// never throwing (including a seeded fast-check property over random parameter strings).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_RUN_SETTINGS, settingsProblems, type RunSettings } from './runSettings';
import {
  decodeField,
  encodeField,
  fieldKind,
  formatIgnored,
  linkFor,
  mergeQuery,
  resolveSettings,
  sameValue,
  SETTINGS_KEYS,
  settingsFromQuery,
  settingsToQuery,
} from './urlConfig';

const D = DEFAULT_RUN_SETTINGS as RunSettings;
const reasons = (search: string) =>
  Object.fromEntries(settingsFromQuery(search).ignored.map((i) => [i.key, i.reason]));

describe('URL codec', () => {
  it('writes nothing for the defaults and reads the defaults back from an empty query', () => {
    expect(settingsToQuery(D)).toBe('');
    const r = settingsFromQuery('');
    expect(r.settings).toEqual(D);
    expect(r.ignored).toEqual([]);
    expect(mergeQuery('', D)).toBe('');
  });

  it('writes only changed fields, with readable names and lists', () => {
    const s: RunSettings = { ...D, methods: ['co-rl', 'ttrl'], steps: 50, lr: 3e-4, pretrainHere: true };
    expect(settingsToQuery(s)).toBe('methods=co-rl,ttrl&steps=50&lr=0.0003&pretrainHere=true');
    expect(linkFor(s, { origin: 'https://x.org', pathname: '/app/' })).toBe(
      'https://x.org/app/?methods=co-rl,ttrl&steps=50&lr=0.0003&pretrainHere=true#train',
    );
  });

  it('round-trips every field kind, including JSON object lists', () => {
    const s = {
      ...D,
      preset: 'paper-demo',
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
    } as RunSettings;
    const extra = s as unknown as Record<string, unknown>;
    if ('backend' in D) extra.backend = 'cpu';
    if ('cohortMode' in D) extra.cohortMode = 'custom';
    if ('customAgents' in D)
      extra.customAgents = [
        { id: 'A', family: 'lp-nocarry', size: 's', seed: 1, view: 'plain', source: 'pretrain' },
        { id: 'B', family: 'rope-carry', size: 'm', seed: 2, view: 'swap', source: 'pretrain' },
      ];
    const query = settingsToQuery(s);
    const url = new URL(`http://h/?${query}#train`);
    const r = settingsFromQuery(url.search);
    expect(r.ignored).toEqual([]);
    expect(r.settings).toEqual(s);
    if ('customAgents' in D) expect(query).toContain('customAgents=[{%22id%22:%22A%22,'); // JSON, mostly readable
  });

  it('encodes and decodes each kind', () => {
    expect(fieldKind('steps')).toBe('number');
    expect(fieldKind('pretrainHere')).toBe('boolean');
    expect(fieldKind('preset')).toBe('string');
    expect(fieldKind('methods')).toBe('list');
    expect(decodeField('pretrainHere', '1')).toEqual({ ok: true, value: true });
    expect(decodeField('pretrainHere', 'FALSE')).toEqual({ ok: true, value: false });
    expect(decodeField('pretrainHere', 'yes').ok).toBe(false);
    expect(decodeField('lr', '1e-4')).toEqual({ ok: true, value: 1e-4 });
    expect(decodeField('lr', '0x10').ok).toBe(false);
    expect(decodeField('lr', 'Infinity').ok).toBe(false);
    expect(decodeField('lr', '').ok).toBe(false);
    expect(decodeField('methods', 'co-rl, ttrl,,')).toEqual({ ok: true, value: ['co-rl', 'ttrl'] });
    expect(decodeField('methods', '["co-rl","gt"]')).toEqual({ ok: true, value: ['co-rl', 'gt'] });
    expect(decodeField('methods', '[1,2]').ok).toBe(false);
    expect(encodeField('methods', [])).toBe('');
    expect(decodeField('methods', '')).toEqual({ ok: true, value: [] });
    expect(encodeField('methods', ['a,b'])).toBe('["a,b"]'); // a comma inside a name falls back to JSON
    expect(sameValue({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameValue({ a: [1] }, { a: [1], b: undefined })).toBe(false);
  });

  it('falls back field by field and says why (the issue example)', () => {
    const r = settingsFromQuery('?steps=-5&methods=co-rl,bogus&lr=abc&preset=paper-demo&samples=3');
    expect(r.settings.steps).toBe(D.steps);
    expect(r.settings.methods).toEqual(D.methods);
    expect(r.settings.lr).toBe(D.lr);
    expect(r.settings.samples).toBe(3);
    expect(r.used.sort()).toEqual(['preset', 'samples']);
    expect(r.ignored.map((i) => i.key)).toEqual(['methods', 'steps', 'lr']);
    const lines = r.ignored.map(formatIgnored);
    expect(lines[0]).toMatch(/^methods=co-rl,bogus \(must be one of 'co-rl' \| 'ttrl'.*got "bogus"\)$/);
    expect(lines[1]).toMatch(/^steps=-5 \(must be an integer in \[1, /);
    expect(lines[2]).toBe('lr=abc (not a number)');
  });

  it('reports unknown, repeated and malformed parameters, keeps reserved ones out of it', () => {
    const why = reasons(
      '?view=train&autostart=1&foo=bar&steps=5&steps=9&samples=1&temperature=0&tau=2&scaleRewards=sideways&lossType=&evalEvery=1.5&methods=',
    );
    expect(why.foo).toMatch(/unknown parameter; run settings are preset, methods, steps/);
    expect(why.steps).toMatch(/more than once; the first value counts/);
    expect(why.samples).toMatch(/>= 2/);
    expect(why.temperature).toMatch(/\(0, 10\]/);
    expect(why.tau).toMatch(/\[0, 1\]/);
    expect(why.scaleRewards).toMatch(/'group' \| 'batch' \| 'none'/);
    expect(why.lossType).toMatch(/'grpo'/);
    expect(why.evalEvery).toMatch(/integer/);
    expect(why.methods).toMatch(/at least one method/);
    expect(why.view).toBeUndefined();
    expect(why.autostart).toBeUndefined();
    const r = settingsFromQuery('?view=train&autostart=1&foo=bar&steps=5&steps=9');
    expect(r.settings.steps).toBe(5);
    expect(mergeQuery('?view=train&autostart=1&foo=bar&steps=5', r.settings)).toBe(
      '?view=train&autostart=1&steps=5',
    );
  });

  it('checks JSON fields and never lets a malformed one through', () => {
    if (!('customAgents' in D)) return;
    const why = reasons('?cohortMode=custom&customAgents={bad');
    expect(why.customAgents).toMatch(/not valid JSON/);
    const nul = settingsFromQuery('?cohortMode=custom&customAgents=[null]');
    expect(nul.ignored.map((i) => i.key)).toContain('customAgents');
    expect(nul.settings.customAgents).toEqual([]);
    expect(reasons('?customAgents={"id":"A"}').customAgents).toMatch(/must be a list/);
  });

  it('the settings it returns always pass the checks of the fields it used (fuzz)', () => {
    const keys = [...SETTINGS_KEYS, 'foo', 'view', 'steps'];
    const vals = [
      '',
      '-1',
      '0',
      '1',
      '2',
      '3.5',
      '1e-4',
      'NaN',
      'abc',
      'true',
      '%zz',
      'co-rl,ttrl',
      'gt,gt',
      '[',
      '[]',
      '{}',
      '[{}]',
      '[{"id":"A","family":"lp-nocarry","size":"s","seed":1,"view":"plain","source":"pretrain"}]',
      'group',
      'bnpo',
      'cpu',
      'custom',
      '∞',
      '1'.repeat(400),
    ];
    const value = fc.oneof(
      { arbitrary: fc.constantFrom(...vals), weight: 4 },
      { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
    );
    const param = fc.tuple(fc.constantFrom(...keys), value).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
    const search = fc
      .tuple(fc.array(param, { minLength: 1, maxLength: 6 }), fc.boolean())
      .map(([parts, junk]) => `?${parts.join('&')}${junk ? '&&=&%' : ''}`);
    fc.assert(
      fc.property(search, (search) => {
        let r!: ReturnType<typeof settingsFromQuery>;
        expect(() => (r = settingsFromQuery(search)), search).not.toThrow();
        const p = settingsProblems(r.settings);
        for (const k of r.used) expect(p[k], `${search}: ${k}`).toBeUndefined();
        // what it writes back reads back to the same settings, with nothing ignored
        const again = settingsFromQuery(mergeQuery(search, r.settings));
        expect(again.settings, search).toEqual(r.settings);
        expect(again.ignored, search).toEqual([]);
      }),
      { numRuns: 400, seed: 12345 },
    );
  });

  it('resolves typed values (the settings of a run file) with the same checks', () => {
    const r = resolveSettings({
      steps: '5' as unknown as number,
      samples: 4,
      methods: ['ttrl'],
      pretrainHere: 1 as unknown as boolean,
    });
    expect(r.settings.samples).toBe(4);
    expect(r.settings.methods).toEqual(['ttrl']);
    expect(r.ignored.map((i) => `${i.key}: ${i.reason}`)).toEqual([
      'steps: must be a number, got 5',
      'pretrainHere: must be true or false, got 1',
    ]);
  });
});
