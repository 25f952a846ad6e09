// Property-based fuzzing of every way data enters the app (issue 7, hostile input), with fast-check and
// fixed seeds: 1000 broken run links, 1000 broken run files and 1000 broken checkpoint files. Each one is
// refused with a message (a link's broken field falls back to its default and is listed with a reason; a
// file is refused whole), nothing throws, and what a link does apply is a valid set of settings (no
// partial state). Valid inputs are accepted, so each property can fail both ways.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkImportedCheckpoint } from '../cohort/importCheckpoint';
import { DEFAULT_TASK } from '../cohort/presets';
import { DEFAULT_RUN_SETTINGS, settingsProblems, type RunSettings } from './runConfigSlice';
import { good } from './runFile.fixture';
import { parseRunFile, parseRunFileBytes } from './runFile';
import { settingsFromQuery } from './urlConfig';

const D = DEFAULT_RUN_SETTINGS as RunSettings;

/** A run-settings field and a URL value it must refuse. */
const brokenParam: fc.Arbitrary<[keyof RunSettings, string]> = fc.oneof(
  fc.tuple(fc.constantFrom<keyof RunSettings>('steps', 'batchPrompts', 'samples', 'evalProblems', 'innerEpochs'),
    fc.oneof(fc.constantFrom('-1', '0', '1.5', 'abc', '', 'NaN', 'Infinity', '1e999', '0x', '[]', '{}', 'true'), fc.integer({ max: 0 }).map(String))),
  fc.tuple(fc.constant<keyof RunSettings>('lr'), fc.oneof(fc.constantFrom('0', '-1e-3', 'abc', '2', 'NaN', ''), fc.double({ min: 1.0001, max: 1e6, noNaN: true }).map(String))),
  fc.tuple(fc.constant<keyof RunSettings>('temperature'), fc.constantFrom('0', '-1', '11', 'hot', 'NaN')),
  fc.tuple(fc.constant<keyof RunSettings>('tau'), fc.constantFrom('-0.1', '1.5', 'x')),
  fc.tuple(fc.constant<keyof RunSettings>('seed'), fc.constantFrom('-1', '4294967296', '1.5', 'seed')),
  fc.tuple(fc.constant<keyof RunSettings>('methods'), fc.oneof(fc.constantFrom('', 'foo', 'co-rl,bogus', ',,', 'CO-RL'), fc.stringMatching(/^[a-z]{1,8}$/).filter((s) => !['co', 'gt', 'ttrl', 'rent', 'random', 'intuitor'].includes(s)))),
  fc.tuple(fc.constant<keyof RunSettings>('scaleRewards'), fc.stringMatching(/^[a-z]{1,10}$/).filter((s) => !['group', 'batch', 'none'].includes(s))),
  fc.tuple(fc.constant<keyof RunSettings>('lossType'), fc.stringMatching(/^[a-z_]{1,10}$/).filter((s) => !['grpo', 'bnpo', 'dr_grpo'].includes(s))),
  fc.tuple(fc.constant<keyof RunSettings>('pretrainHere'), fc.constantFrom('yes', '2', 'maybe', '')),
  ...('backend' in D ? [fc.tuple(fc.constant('backend' as keyof RunSettings), fc.constantFrom('gpu', 'tpu', '', 'WEBGPU '))] : []),
  ...('customAgents' in D ? [fc.tuple(fc.constant('customAgents' as keyof RunSettings), fc.constantFrom('{', '[1,2]', '"x"', '[{"id":1}]', 'null', '[{"id":"A","family":"nope","size":"s","seed":1,"view":"plain","source":"shipped"}]'))] : []),
);

describe('run links under fuzzing', () => {
  it('1000 links with one broken field (and maybe junk): that field is ignored with a reason, the rest applies, never a throw', () => {
    fc.assert(
      fc.property(brokenParam, fc.integer({ min: 2, max: 64 }), fc.option(fc.stringMatching(/^[a-zA-Z]{1,12}$/)), ([key, value], samples, junk) => {
        const q = new URLSearchParams();
        q.set(key === 'samples' ? 'steps' : 'samples', String(key === 'samples' ? 7 : samples));
        q.set(key, value);
        const isJunkKey = junk !== null && !(junk in D) && junk !== 'view' && junk !== 'autostart';
        if (isJunkKey) q.set(junk, '1');
        const r = settingsFromQuery(`?${q}`);
        const ig = r.ignored.find((i) => i.key === key);
        if (!ig || ig.reason.length < 8) return false; // named, with a reason
        if (isJunkKey && !r.ignored.some((i) => i.key === junk && /unknown parameter/.test(i.reason))) return false;
        // the broken field keeps its default; the good one applies; the result is a valid settings object
        const applied = key === 'samples' ? r.settings.steps === 7 : r.settings.samples === samples;
        return applied && JSON.stringify(r.settings[key]) === JSON.stringify(D[key]) && Object.keys(settingsProblems(r.settings)).length === 0;
      }),
      { numRuns: 1000, seed: 20261130 },
    );
  });

  it('1000 arbitrary query strings never throw and always give valid settings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const r = settingsFromQuery(s.startsWith('?') ? s : `?${s}`);
        return Object.keys(settingsProblems(r.settings)).length === 0 && r.ignored.every((i) => i.reason.length > 0);
      }),
      { numRuns: 1000, seed: 11 },
    );
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mutations reach anywhere in the file's JSON
type Json = Record<string, any>;
/** A way of breaking a good run file's JSON (each must make the file invalid). */
const fileBreak: fc.Arbitrary<(x: Json) => void> = fc.oneof(
  fc.constantFrom('format', 'version', 'name', 'savedAt', 'settings', 'config', 'metrics', 'step').map((k) => (x: Json) => void delete x[k]),
  fc.constantFrom(2, 0, '1', null, 1.5).map((v) => (x: Json) => void (x.version = v)),
  fc.constantFrom('co-rl-run', '', 'CO-RL-PLAYGROUND-RUN', null).map((v) => (x: Json) => void (x.format = v)),
  fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string())).map((v) => (x: Json) => void (x.name = v)),
  fc.constantFrom(-1, 1.5, 'three', null).map((v) => (x: Json) => void (x.step = v)),
  fc.constantFrom(-1, 0, 'x', null, 1.5).map((v) => (x: Json) => void (x.settings.steps = v)),
  fc.constantFrom('x', null, -1, Infinity).map((v) => (x: Json) => void (x.config.train.lr = v)),
  fc.constantFrom('bogus', 42, null).map((v) => (x: Json) => void (x.metrics.methods = [v])),
  fc.constantFrom('x', {}, [], true).map((v) => (x: Json) => void (x.metrics.steps['co-rl'][1].agents[0].rewardMean = v)),
  fc.constantFrom(0, -3, 'two', null).map((v) => (x: Json) => void (x.metrics.steps['co-rl'][1].step = v)),
  fc.constantFrom('x', null, 2.5).map((v) => (x: Json) => void (x.metrics.evals.ttrl[0].ensembleAccuracy = v)),
  fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !['format', 'version', 'name', 'savedAt', 'settings', 'config', 'metrics', 'step', 'snapshot', 'phase', '__proto__'].includes(k)).map((k) => (x: Json) => void (x[k] = 1)),
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
          fc.integer({ min: 0, max: 0xffffff }).filter((v) => v !== headerEnd - 16).map((v) => mutated((_, dv) => dv.setUint32(12, v, true))),
          fc.integer({ min: 16, max: headerEnd - 1 }).map((i) => mutated((b) => void (b[i] = 0x01))), // a control byte: never valid JSON
          fc.tuple(fc.integer({ min: 0, max: Math.floor((real.length - headerEnd) / 4) - 1 }), fc.constantFrom(NaN, Infinity, -Infinity)).map(([i, v]) =>
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
