// docs/method.md ("Setting"): no label-free method may read the ground truth. Two guards. By type: the reward code of
// label-free methods is handed only answers, votes, per-token figures and seeds (the field lists below are
// pinned, so adding a problem, a task or a truth to them fails the typecheck). By experiment: train with
// every problem's key, values and answer replaced by another problem's (the prompts still show the real
// one) and get bit-identical parameters after a few steps of every label-free method (co-rl with the ring
// teacher on a pair, and the ring and the peer teachers strict_majority, self_plus_peers, union on a trio;
// co-rl-frozen, ttrl, intuitor, rent, random); gt (which must read the truth) does change.
// groundTruth.mutation.test.ts shows this check failing on a leak.
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { makeTask } from '../tasks';
import { deriveRng } from '../util/rng';
import { REWARD_METHODS } from './config';
import { isolationToys, isolationVerdict, PEER_TEACHERS, scrambledTask } from './isolationCheck';
import type { RewardInputs } from './methodRewards';
import type {
  CohortAnswers,
  FrozenPeerRequest,
  IntuitorRequest,
  RandomRequest,
  RentRequest,
  VoteRewardRequest,
} from './rewards';
import { TOY_TASK, type ToyAgent } from './toyAgents';

const real = makeTask(TOY_TASK);

let trio: ToyAgent[] = [];
let toys: ToyAgent[] = []; // the pair A, B of the trio
beforeAll(async () => {
  trio = await isolationToys(3);
  toys = trio.slice(0, 2);
}, 90_000);

describe('label-free reward code is handed no problem (by type)', () => {
  it('the inputs of the reward dispatch and of every label-free request are pinned field lists', () => {
    expectTypeOf<keyof RewardInputs>().toEqualTypeOf<
      | 'method'
      | 'cohort'
      | 'frozen'
      | 'tau'
      | 'teacher'
      | 'entropy'
      | 'certainty'
      | 'seed'
      | 'agentIds'
      | 'step'
    >();
    // frozen: the answers of the frozen base copies (co-rl-frozen), the same answer-only structure
    expectTypeOf<RewardInputs['frozen']>().toEqualTypeOf<CohortAnswers | undefined>();
    expectTypeOf<keyof CohortAnswers>().toEqualTypeOf<'B' | 'K' | 'answers'>();
    expectTypeOf<CohortAnswers['answers']>().toEqualTypeOf<readonly (readonly (string | null)[])[]>();
    // teacher: the name of co-rl's peer teacher (ring, strict_majority, ...), a setting, not a label
    expectTypeOf<keyof VoteRewardRequest>().toEqualTypeOf<'method' | 'cohort' | 'tau' | 'teacher'>();
    expectTypeOf<keyof FrozenPeerRequest>().toEqualTypeOf<
      'method' | 'cohort' | 'frozen' | 'tau' | 'teacher'
    >();
    expectTypeOf<FrozenPeerRequest['frozen']>().toEqualTypeOf<CohortAnswers>();
    expectTypeOf<keyof IntuitorRequest>().toEqualTypeOf<'method' | 'selfCertainty'>();
    expectTypeOf<keyof RentRequest>().toEqualTypeOf<'method' | 'entropy'>();
    expectTypeOf<keyof RandomRequest>().toEqualTypeOf<'method' | 'counts' | 'rands'>();
  });
});

describe('label-free methods never read the ground truth (by experiment)', () => {
  it("the scrambled task shows the real prompts but every key, value and answer is another problem's", () => {
    const s = scrambledTask(real);
    const a = real.sampleTrain(deriveRng(3, 'scramble-probe'), 20);
    const b = s.sampleTrain(deriveRng(3, 'scramble-probe'), 20);
    b.forEach((q, i) => {
      expect(q.key).not.toBe(a[i].key);
      expect(q.answer).not.toBe(a[i].answer);
      expect(q.values).not.toEqual(a[i].values);
      expect(s.prompt(q, 'plain')).toBe(real.prompt(a[i], 'plain'));
    });
    expect(() => s.prompt(a[0], 'plain')).toThrow(/did not hand out/);
  });

  // every method but gt, so a method added to REWARD_METHODS is covered without editing this list
  const labelFree = REWARD_METHODS.filter((m) => m !== 'gt');
  it('the checked methods are every label-free method, the co-rl-frozen control among them', () => {
    expect(labelFree).toEqual(['co-rl', 'ttrl', 'intuitor', 'rent', 'random', 'co-rl-frozen']);
  });

  for (const method of labelFree) {
    it(`${method}: scrambled keys, values and answers give bit-identical parameters`, async () => {
      const v = await isolationVerdict(toys, method, real, scrambledTask(real));
      expect(v.trained).toBe(true);
      expect(v.identical).toBe(true);
    });
  }

  // co-rl's peer teachers (N >= 3: docs/method.md, Co-RL teachers) build labels from all peers' votes:
  // a path of their own, checked on a 3-agent cohort; the ring teacher on the same trio as a control
  for (const teacher of ['ring', ...PEER_TEACHERS] as const) {
    it(`co-rl with the ${teacher} teacher on 3 agents: scrambled truth gives bit-identical parameters`, async () => {
      const v = await isolationVerdict(trio, 'co-rl', real, scrambledTask(real), teacher);
      expect(v).toEqual({
        trained: true,
        identical: true,
        labelFrom: teacher === 'ring' ? ['C', 'A', 'B'] : Array(3).fill(`peers (${teacher})`),
      });
    });
  }

  it('gt does read it (the scramble changes its training)', async () => {
    const v = await isolationVerdict(toys, 'gt', real, scrambledTask(real));
    expect(v.identical).toBe(false);
  });
});
