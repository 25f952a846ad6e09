// Agents by axes: bad specs refused before any work (listing the valid values), a context too small
// refused with the numbers, build keys that change with every axis, corpus draws and shares, the
// diversity level of a pair, and the content-addressed cache (reuse; a damaged entry rebuilt with a notice).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask } from '../tasks';
import type { AgentSpec } from './agent';
import { buildKey, contextErrors, parseAxisAgent, parseAxisCohort } from './axes';
import { cachedCheckpoint, cacheEntryProblem } from './cache';
import { applyCorpus, corpusErrors } from './corpus';
import { agentFromCheckpoint } from './manifest';
import { diversityLevel, formatPaperOverlap, paperOverlap } from './paperOverlap';

const TASK = { kind: 'addw', digits: 3 } as const;
const spec = (o: Partial<AgentSpec> = {}): AgentSpec => ({
  id: 'A',
  family: 'nat-rope',
  size: 's',
  seed: 1,
  view: 'plain',
  ...o,
});

describe('agent specs by axes', () => {
  it('fills defaults: size s, seed 1, the family view', () => {
    expect(parseAxisAgent({ id: 'V', family: 'nat-rev' }, 'a')).toEqual({
      spec: { id: 'V', family: 'nat-rev', size: 's', seed: 1, view: 'reversed' },
    });
  });

  it('refuses unknown families, sizes, tokenizers, views, axes and fields, listing the valid values', () => {
    const r = parseAxisCohort({
      task: TASK,
      cohort: {
        agents: [
          { id: 'A', family: 'gpt5' },
          {
            id: 'B',
            family: 'nat-rope',
            size: 'xl',
            tokenizer: 'bpe',
            view: 'upside',
            colour: 1,
            arch: { depth: 3, nHead: 0 },
            corpus: { draw: 'all' },
          },
        ],
      },
    });
    expect('errors' in r && r.errors).toEqual([
      'cohort.agents[0].family: unknown family "gpt5"; valid families: lp-nocarry, rope-carry, rope-carry-words, deep-rev, nat-rope, nat-deep, nat-abs, nat-chunk, nat-rev',
      'cohort.agents[1].colour: unknown field (allowed: id, family, size, seed, view, arch, tokenizer, corpus, recipe, checkpoint)',
      'cohort.agents[1].size: unknown size "xl" of family \'nat-rope\'; valid sizes: xxs, xs, s, m',
      'cohort.agents[1].view: unknown view "upside"; valid views: plain, swap, words, reversed',
      'cohort.agents[1].tokenizer: unknown tokenizer "bpe"; valid tokenizers: digit, chunk2, chunk3, words',
      'cohort.agents[1].arch.depth: unknown field (allowed: nLayer, nHead, nEmbd, mlpRatio, pos, blockSize)',
      'cohort.agents[1].arch.nHead: must be an integer in [1, 16], got 0',
      "cohort.agents[1].corpus.draw: must be 'random' or 'share', got \"all\"",
    ]);
    expect(corpusErrors({ draw: 'share', index: 2, of: 2 })).toEqual([
      'index: must be an integer in [0, 1], got 2',
    ]);
  });

  it('refuses a context that cannot hold the prompt and the longest completion, with the numbers', () => {
    expect(contextErrors(spec({ arch: { blockSize: 12 } }), TASK)).toEqual([
      'agent A: arch.blockSize 12 cannot hold the prompt (8 tokens) plus the longest completion with EOS (17 tokens) of addw(digits=3, evalFraction=0.2) in the plain view: needs at least 24',
    ]);
    expect(contextErrors(spec({ arch: { blockSize: 24 } }), TASK)).toEqual([]);
    const r = parseAxisCohort({ task: TASK, cohort: { agents: [spec({ arch: { blockSize: 12 } })] } });
    expect('errors' in r && r.errors[0]).toMatch(/needs at least 24/);
  });

  it('the build key changes with every axis and not with the id', () => {
    const base = buildKey(spec(), TASK);
    expect(buildKey(spec({ id: 'other' }), TASK)).toBe(base);
    const variants = [
      spec({ size: 'm' }),
      spec({ seed: 2 }),
      spec({ view: 'swap' }),
      spec({ arch: { nEmbd: 16 } }),
      spec({ tokenizer: 'chunk3' }),
      spec({ corpus: { draw: 'share', index: 0, of: 2 } }),
    ];
    const keys = new Set([
      base,
      ...variants.map((v) => buildKey(v, TASK)),
      buildKey(spec(), { kind: 'addw', digits: 4 }),
      buildKey(spec(), TASK, { maxSteps: 7 }),
    ]);
    expect(keys.size).toBe(variants.length + 3);
  });

  it('refuses bad recipe overrides, naming the field and its range', () => {
    const r = parseAxisAgent(
      spec({
        recipe: {
          maxSteps: 0,
          lr: -1,
          stop: 'never',
          band: [0.7, 0.3],
          noise: 0.6,
          mix: [],
        } as unknown as AgentSpec['recipe'],
      }),
      'a',
    );
    expect('errors' in r && r.errors).toEqual([
      'a.recipe.mix: unknown field (allowed: maxSteps, batch, lr, warmupSteps, stop, band, sampledBand, bandSamples, evalEvery, valSize, plateauTolerance, corpusLadder, noise, paths, pathFeature)',
      'a.recipe.maxSteps: must be an integer in [1, 1000000], got 0',
      'a.recipe.lr: must be a number in (0, 1], got -1',
      "a.recipe.stop: must be 'band', 'budget' or 'plateau', got \"never\"",
      'a.recipe.band: must be a pair [lo, hi] with 0 <= lo <= hi <= 1, got [0.7,0.3]',
      'a.recipe.noise: must be a share in [0, 0.5] of pretraining examples whose answer is made wrong, got 0.6',
    ]);
    const ok: AgentSpec['recipe'] = {
      stop: 'budget',
      maxSteps: 500,
      band: [0, 1],
      sampledBand: [0, 1],
      noise: 0.1,
    };
    expect(parseAxisAgent(spec({ recipe: ok }), 'a')).toEqual({ spec: spec({ recipe: ok }) });
  });

  it('a recipe override is part of the build key; an absent one keeps the keys of before', () => {
    // the keys of these builds before the recipe axis existed (cache entries on disk keep their address)
    expect(buildKey(spec(), TASK)).toBe('7a10444b8524055c');
    expect(
      buildKey(spec({ family: 'nat-chunk', tokenizer: 'chunk2' }), {
        kind: 'muladdw',
        aDigits: 2,
        cDigits: 2,
      }),
    ).toBe('aa9ea8b35a923a6d');
    expect(buildKey(spec({ family: 'lp-nocarry' }), { kind: 'add', digits: 2 })).toBe('bd8a01823e6fe85e');
    expect(buildKey(spec({ recipe: {} }), TASK)).toBe('7a10444b8524055c');
    const k500 = buildKey(spec({ recipe: { maxSteps: 500 } }), TASK);
    const k1000 = buildKey(spec({ recipe: { maxSteps: 1000 } }), TASK);
    expect(new Set([k500, k1000, buildKey(spec(), TASK)]).size).toBe(3);
    expect(buildKey(spec({ recipe: { noise: 0.1 } }), TASK)).not.toBe(buildKey(spec(), TASK));
    // the spec's override and the same override given by the caller address one build
    expect(k500).toBe(buildKey(spec(), TASK, { maxSteps: 500 }));
    // a recipe equal to the family's own value is the same build
    expect(buildKey(spec({ recipe: { maxSteps: 6000 } }), TASK)).toBe(buildKey(spec(), TASK));
  });

  it('corpus: a seeded draw of the given size, disjoint shares that cover the pool', () => {
    const problems = makeTask({ kind: 'addw', digits: 2 }).heldOut('test', 1000);
    const d = applyCorpus(problems, { draw: 'random', size: 300 }, 5);
    expect(d).toHaveLength(300);
    expect(applyCorpus(problems, { draw: 'random', size: 300 }, 5)).toEqual(d);
    expect(applyCorpus(problems, { draw: 'random', size: 300 }, 6)).not.toEqual(d);
    const s0 = applyCorpus(problems, { draw: 'share', index: 0, of: 2 }, 1);
    const s1 = applyCorpus(problems, { draw: 'share', index: 1, of: 2 }, 1);
    expect(s0.length + s1.length).toBe(1000);
    expect(s0.some((p) => s1.includes(p))).toBe(false);
  });

  it('labels pairs by the level of diversity', () => {
    expect(diversityLevel(spec(), spec({ id: 'B' }))).toBe('seed-only');
    expect(diversityLevel(spec(), spec({ size: 'm' }))).toBe('same-family');
    expect(diversityLevel(spec(), spec({ recipe: { maxSteps: 500 } }))).toBe('same-family');
    expect(diversityLevel(spec(), spec({ view: 'words' }))).toBe('same-family');
    expect(diversityLevel(spec(), spec({ family: 'nat-abs' }))).toBe('different-arch');
    expect(diversityLevel(spec(), spec({ family: 'nat-chunk' }))).toBe('different-family');
    expect(diversityLevel(spec(), spec({ family: 'nat-chunk', view: 'words' }))).toBe('different-family+');
  });

  it('labels by what the models are, not by the names of their families', () => {
    // Rule WA's pair (docs/regime-levels.md): one family, seed and corpus, positions and heads changed
    const c32 = spec({ family: 'nat-chunk' });
    expect(diversityLevel(c32, spec({ family: 'nat-chunk', arch: { pos: 'rope', nHead: 4 } }))).toBe(
      'different-arch',
    );
    expect(diversityLevel(spec(), spec({ arch: { mlpRatio: 2 } }))).toBe('different-arch');
    // a width or depth is a size of one lineage, as the family's own sizes are
    expect(diversityLevel(c32, spec({ family: 'nat-chunk', arch: { nEmbd: 24 } }))).toBe('same-family');
    expect(diversityLevel(c32, spec({ family: 'nat-chunk', arch: { nLayer: 3 } }))).toBe('same-family');
    // an override that gives the family's own arch again changes nothing
    expect(diversityLevel(spec(), spec({ id: 'B', arch: { pos: 'rope' } }))).toBe('same-family');
    // another view or corpus as well: still one lineage
    expect(diversityLevel(c32, spec({ family: 'nat-chunk', view: 'words', arch: { pos: 'rope' } }))).toBe(
      'same-family',
    );
  });
});

describe('the content-addressed cache', () => {
  const recipe = { maxSteps: 2, evalEvery: 1, valSize: 20 };
  const small = { kind: 'addw', digits: 2 } as const;
  it('builds once, reuses, and rebuilds a damaged entry (same bytes) with a notice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corl-cache-'));
    const be = new CpuBackend();
    const notices: string[] = [];
    const notice = (s: string) => notices.push(s);
    const a = await cachedCheckpoint(be, spec({ tokenizer: 'chunk2' }), small, { dir, recipe, notice });
    expect(a.built).toBe(true);
    const b = await cachedCheckpoint(be, spec({ id: 'other', tokenizer: 'chunk2' }), small, {
      dir,
      recipe,
      notice,
    });
    expect(b.built).toBe(false);
    expect(Buffer.from(b.bytes).equals(Buffer.from(a.bytes))).toBe(true);
    const agent = agentFromCheckpoint(be, b.bytes, spec({ tokenizer: 'chunk2' }));
    expect(agent.tokenizer.vocabSize).toBeGreaterThan(100); // the chunk2 tokenizer came back from the meta
    expect(agent.base?.tokenizer).toBe('chunk2');
    agent.model.free();
    // damage the weights: flip a byte near the end (the hash no longer checks)
    const bytes = new Uint8Array(readFileSync(a.file));
    bytes[bytes.length - 3] ^= 0xff;
    writeFileSync(a.file, bytes);
    expect(cacheEntryProblem(dir, a.key)).toMatch(/hash does not check/);
    const c = await cachedCheckpoint(be, spec({ tokenizer: 'chunk2' }), small, { dir, recipe, notice });
    expect(c.built).toBe(true);
    expect(Buffer.from(c.bytes).equals(Buffer.from(a.bytes))).toBe(true);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      new RegExp(`cache entry ${a.key} .* is damaged: its hash does not check .*; rebuilding it`),
    );
    // a file whose sum is right but whose header is another build's is refused too
    writeFileSync(join(dir, `${a.key}.ckpt`), b.bytes);
    expect(cacheEntryProblem(dir, a.key)).toBeNull();
    writeFileSync(join(dir, `${a.key}.ckpt`), new Uint8Array([1, 2, 3]));
    writeFileSync(join(dir, `${a.key}.sum`), '3 deadbeef\n');
    expect(cacheEntryProblem(dir, a.key)).toMatch(/hash does not check|header/);
    // the paper's overlap of one checkpoint twice: seed-only, identical greedy answers, own sampling streams
    const twins = ['X', 'Y'].map((id) => agentFromCheckpoint(be, b.bytes, spec({ id, tokenizer: 'chunk2' })));
    const rep = await paperOverlap('twins', 'addw-2', twins, makeTask(small).heldOut('test', 40), 0.8);
    expect(rep.pairs).toHaveLength(1);
    expect(rep.pairs[0].level).toBe('seed-only');
    expect(rep.pairs[0].greedy.c).toBe(0); // the same weights answer the same greedily
    expect(formatPaperOverlap(rep)).toMatch(/\| X-Y \(out\) \| seed-only \|/);
    for (const t of twins) t.model.free();
  }, 60_000);

  it("a spec's recipe reaches the build: its own entry, pretrained by it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corl-cache-'));
    const be = new CpuBackend();
    const a = await cachedCheckpoint(be, spec({ recipe: { ...recipe, maxSteps: 2 } }), small, { dir });
    const b = await cachedCheckpoint(be, spec({ recipe: { ...recipe, maxSteps: 3 } }), small, { dir });
    expect(b.built).toBe(true); // another recipe never reuses the first entry
    expect(b.key).not.toBe(a.key);
    const steps = [a, b].map((r) => agentFromCheckpoint(be, r.bytes, spec()));
    expect(steps.map((g) => g.base?.steps)).toEqual([2, 3]);
    expect(steps.map((g) => g.base?.recipe.maxSteps)).toEqual([2, 3]);
    for (const g of steps) g.model.free();
    const again = await cachedCheckpoint(be, spec({ id: 'B', recipe: { ...recipe, maxSteps: 3 } }), small, {
      dir,
    });
    expect(again.built).toBe(false);
    expect(again.key).toBe(b.key);
  }, 60_000);
});
