// The inspector's data on the CPU backend with toy agents: the trainer keeps the latest step in full, its
// rewards follow the labels it shows (co-rl: the predecessor's vote; ttrl: the own vote; gt: the truth),
// and the attention of a prompt+completion is a causal distribution per row that leaves training intact.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../cohort/agent';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask, renderPrompt } from '../tasks';
import { deriveRng } from '../util/rng';
import { DEFAULT_EVAL, DEFAULT_TRAIN } from './config';
import type { RewardMethod } from './rewards';
import { toyAgent, TOY_TASK, toyCohort, type ToyAgent } from './toyAgents';
import { CohortTrainer } from './trainer';
import { majorityVote } from './vote';

const be = new CpuBackend();
const task = makeTask(TOY_TASK);
let toys: ToyAgent[] = [];

beforeAll(async () => {
  toys = await toyCohort(80);
}, 60_000);

const B = 6;
const K = 3;
const agents = (): Agent[] => toys.map((t) => toyAgent(be, t));
const trainer = (method: RewardMethod, a: Agent[] = agents()): CohortTrainer =>
  new CohortTrainer(be, a, {
    method,
    seed: 11,
    task,
    train: { ...DEFAULT_TRAIN, batchPrompts: B, samples: K, lr: 3e-3 },
    eval: { ...DEFAULT_EVAL, problems: 10 },
  });

describe('StepInspection', () => {
  it('is null before step 1, then holds every prompt with K completions per agent', async () => {
    const tr = trainer('ttrl');
    expect(tr.latestInspection).toBeNull();
    const rec = await tr.step();
    const ins = tr.latestInspection!;
    expect(ins).toMatchObject({ method: 'ttrl', step: 1, K, agents: ['A', 'B'], labelFrom: ['A', 'B'] });
    expect(ins.shapes).toEqual([
      { layers: 2, heads: 4 },
      { layers: 2, heads: 4 },
    ]);
    expect(ins.prompts).toHaveLength(B);
    for (const p of ins.prompts) {
      expect(p.agents.map((a) => a.agent)).toEqual(['A', 'B']);
      for (const a of p.agents) {
        for (const arr of [a.completions, a.answers, a.rewards, a.eos]) expect(arr).toHaveLength(K);
        const v = majorityVote(a.answers);
        expect([a.vote, a.voteShare]).toEqual([v.vote, v.share]);
      }
      expect(p.disagree).toBe(p.agents[0].vote !== p.agents[1].vote);
    }
    // the step's problems (the trainer draws them from deriveRng(seed, 'prompts', step)), each agent in its own view
    const problems = task.sampleTrain(deriveRng(11, 'prompts', 1), B);
    expect(ins.prompts.map((p) => p.truth)).toEqual(problems.map((p) => p.answer));
    expect(ins.prompts.map((p) => p.agents.map((a) => a.prompt))).toEqual(
      problems.map((p) => [renderPrompt(p, 'plain'), renderPrompt(p, 'reversed')]),
    );
    // the same rewards the step record summarises
    rec.agents.forEach((r, n) => {
      const all = ins.prompts.flatMap((p) => p.agents[n].rewards);
      expect(all.reduce((s, x) => s + x, 0) / all.length).toBeCloseTo(r.rewardMean, 12);
    });
    await tr.step();
    expect(tr.latestInspection!.step).toBe(2); // only the latest is kept
    tr.dispose();
  });

  const labelOf: Record<
    string,
    (p: { truth: string; agents: { vote: string | null }[] }, n: number) => string | null
  > = {
    'co-rl': (p, n) => p.agents[(n + 1) % 2].vote, // N = 2: each agent's predecessor is the other
    ttrl: (p, n) => p.agents[n].vote,
    gt: (p) => p.truth,
  };

  for (const method of ['co-rl', 'ttrl', 'gt'] as const) {
    it(`${method}: every reward is 1 exactly when the answer equals the label shown`, async () => {
      const tr = trainer(method);
      let ones = 0;
      let zeros = 0;
      for (let s = 0; s < 2; s++) {
        await tr.step();
        const ins = tr.latestInspection!;
        expect(ins.labelFrom).toEqual(
          { 'co-rl': ['B', 'A'], ttrl: ['A', 'B'], gt: ['truth', 'truth'] }[method],
        );
        for (const p of ins.prompts)
          p.agents.forEach((a, n) => {
            expect(a.label).toBe(labelOf[method](p, n));
            a.answers.forEach((ans, k) => {
              const match = ans !== null && a.label !== null && ans === a.label;
              expect(a.rewards[k]).toBe(match ? 1 : 0);
              if (match) ones++;
              else zeros++;
            });
          });
      }
      expect(ones, 'some completions match their label').toBeGreaterThan(0);
      if (method !== 'ttrl') expect(zeros, 'and some do not').toBeGreaterThan(0);
      tr.dispose();
    });
  }

  it('label-less methods show no labels', async () => {
    const tr = trainer('rent');
    await tr.step();
    const ins = tr.latestInspection!;
    expect(ins.labelFrom).toEqual([null, null]);
    expect(ins.prompts.every((p) => p.agents.every((a) => a.label === null))).toBe(true);
    tr.dispose();
  });
});

describe('attention', () => {
  it('is a causal distribution per row, the same as an unpadded forward', async () => {
    const tr = trainer('co-rl');
    await tr.step();
    const ins = tr.latestInspection!;
    const x = ins.prompts[1].agents[1];
    const att = await tr.attention('B', 1, 2, 1);
    const text = (x.prompt + x.completions[2]).slice(0, toys[1].cfg.blockSize);
    const T = text.length;
    expect(att.step).toBe(1);
    expect(att.tokens.join('')).toBe(text);
    expect(att.promptTokens).toBe(x.prompt.length);
    expect(att.heads).toBe(4);
    expect(att.probs).toHaveLength(4 * T * T);
    for (let h = 0; h < 4; h++)
      for (let t = 0; t < T; t++) {
        const row = att.probs.slice((h * T + t) * T, (h * T + t + 1) * T);
        expect(row.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 5);
        expect(row.slice(t + 1).every((v) => v === 0)).toBe(true);
        expect(row.slice(0, t + 1).every((v) => v > 0)).toBe(true);
      }
    // the padded forward keeps exactly what a forward of just these T tokens gives
    const m = tr.agents[1].model;
    const ids = be.alloc([T], 'u32', 'ids');
    be.write(ids, Uint32Array.from(tr.agents[1].tokenizer.encode(text)));
    m.forward(ids, 1, T);
    const direct = Array.from((await be.read(m.attentionProbs(1))) as Float32Array);
    be.free(ids);
    expect(att.probs.length).toBe(direct.length);
    for (let i = 0; i < direct.length; i++) expect(Math.abs(att.probs[i] - direct[i])).toBeLessThan(1e-6);
    tr.dispose();
  });

  it('between steps leaves training exactly as without it', async () => {
    const a = trainer('co-rl');
    const b = trainer('co-rl');
    await a.step();
    await b.step();
    for (const id of ['A', 'B']) for (let l = 0; l < 2; l++) await a.attention(id, 0, 0, l);
    const ra = await a.step();
    const rb = await b.step();
    expect(ra.agents.map((x) => [x.loss, x.gradNorm, x.rewardMean])).toEqual(
      rb.agents.map((x) => [x.loss, x.gradNorm, x.rewardMean]),
    );
    for (let n = 0; n < 2; n++)
      expect(await a.agents[n].model.readParams()).toEqual(await b.agents[n].model.readParams());
    a.dispose();
    b.dispose();
  });

  it('refuses bad requests with a clear message', async () => {
    const tr = trainer('ttrl');
    await expect(tr.attention('A', 0, 0, 0)).rejects.toThrow(/no step of ttrl yet/);
    await tr.step();
    await expect(tr.attention('Z', 0, 0, 0)).rejects.toThrow(/unknown agent "Z"; agents: A, B/);
    await expect(tr.attention('A', 0, 0, 2)).rejects.toThrow(
      /layer 2 is out of range for agent A: it has layers 0..1/,
    );
    await expect(tr.attention('A', 0, 0, -1)).rejects.toThrow(/layer -1 is out of range/);
    await expect(tr.attention('A', B, 0, 0)).rejects.toThrow(/prompt 6 is out of range: 0..5/);
    await expect(tr.attention('A', 0, K, 0)).rejects.toThrow(/sample 3 is out of range: 0..2/);
    await expect(tr.attention('A', 0, 0.5, 0)).rejects.toThrow(/sample 0.5 is out of range/);
    tr.dispose();
  });
});
