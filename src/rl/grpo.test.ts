// Tests for grpo.ts: loss and dLoss/dlogp weights vs hand values for each lossType, clipping, KL, finite differences.
import { describe, expect, it } from 'vitest';
import { grpoLoss, type GrpoLossInput, type LossType } from './grpo';

const close = (got: ArrayLike<number>, want: number[], digits = 12) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => expect(got[i]).toBeCloseTo(w, digits));
};

describe('grpoLoss without clipping (innerEpochs = 1)', () => {
  // S = 2, T = 3; seq 0 has 2 tokens with A = +1, seq 1 has 1 token with A = -1; padding holds garbage.
  const base: GrpoLossInput = {
    logp: [-0.3, -1.2, 7, -0.4, 9, 9],
    mask: [1, 1, 0, 1, 0, 0],
    advantages: [1, -1],
    maxNewTokens: 3,
  };

  it('rho = 1, no clipping', () => {
    const out = grpoLoss(base);
    expect(out.meanRho).toBe(1);
    expect(out.clipFraction).toBe(0);
    expect(out.meanKl).toBeNull();
    expect(out.numTokens).toBe(3);
    expect(out.numSequences).toBe(2);
  });

  it("'grpo': mean over sequences of token means", () => {
    const out = grpoLoss({ ...base, lossType: 'grpo' });
    expect(out.loss).toBeCloseTo((-1 + 1) / 2, 12);
    close(out.weights, [-1 / 4, -1 / 4, 0, 1 / 2, 0, 0]);
  });

  it("'bnpo': sum over tokens / tokens", () => {
    const out = grpoLoss({ ...base, lossType: 'bnpo' });
    expect(out.loss).toBeCloseTo(-1 / 3, 12);
    close(out.weights, [-1 / 3, -1 / 3, 0, 1 / 3, 0, 0]);
  });

  it("'dr_grpo': sum over tokens / (S * maxNewTokens)", () => {
    const out = grpoLoss({ ...base, lossType: 'dr_grpo' });
    expect(out.loss).toBeCloseTo(-1 / 6, 12);
    close(out.weights, [-1 / 6, -1 / 6, 0, 1 / 6, 0, 0]);
  });
});

describe('grpoLoss with clipping active', () => {
  // logpOld = 0, logp = ln(rho). T = 3.
  // seq 0, A = +1: rho 1.5 (clipped branch active, grad 0), rho 0.5 (unclipped active, l = -0.5, grad -0.5), pad
  // seq 1, A = -1: rho 0.5 (clipped active: l = 0.8, grad 0), rho 1.5 (unclipped: l = 1.5, grad +1.5), rho 1 (l = 1, grad 1)
  // seq 2, A =  0 (zero-std group): rho 2, pad, pad -> l = 0, grad 0
  const L = Math.log;
  const input: GrpoLossInput = {
    logp: [L(1.5), L(0.5), 3, L(0.5), L(1.5), 0, L(2), 3, 3],
    logpOld: [0, 0, 0, 0, 0, 0, 0, 0, 0],
    mask: [1, 1, 0, 1, 1, 1, 1, 0, 0],
    advantages: [1, -1, 0],
    maxNewTokens: 3,
  };
  const tokenLoss = [-1.2, -0.5, 0.8, 1.5, 1, 0];
  const sum = tokenLoss.reduce((a, b) => a + b, 0); // 1.6

  it('diagnostics: clip fraction and mean rho', () => {
    const out = grpoLoss(input);
    expect(out.clipFraction).toBeCloseTo(2 / 6, 12);
    expect(out.meanRho).toBeCloseTo((1.5 + 0.5 + 0.5 + 1.5 + 1 + 2) / 6, 12);
  });

  it("'grpo'", () => {
    const out = grpoLoss({ ...input, lossType: 'grpo' });
    expect(out.loss).toBeCloseTo(((-1.2 - 0.5) / 2 + (0.8 + 1.5 + 1) / 3 + 0) / 3, 12);
    close(out.weights, [0, -0.5 / 6, 0, 0, 1.5 / 9, 1 / 9, 0, 0, 0]);
  });

  it("'bnpo'", () => {
    const out = grpoLoss({ ...input, lossType: 'bnpo' });
    expect(out.loss).toBeCloseTo(sum / 6, 12);
    close(out.weights, [0, -0.5 / 6, 0, 0, 1.5 / 6, 1 / 6, 0, 0, 0]);
  });

  it("'dr_grpo'", () => {
    const out = grpoLoss({ ...input, lossType: 'dr_grpo' });
    expect(out.loss).toBeCloseTo(sum / 9, 12);
    close(out.weights, [0, -0.5 / 9, 0, 0, 1.5 / 9, 1 / 9, 0, 0, 0]);
  });

  it('the zero-advantage sequence contributes zero weight and zero loss', () => {
    const out = grpoLoss(input);
    expect(Array.from(out.weights.slice(6))).toEqual([0, 0, 0]);
  });
});

describe('KL term (k3)', () => {
  it('is 0 when logp == ref, with zero gradient', () => {
    const out = grpoLoss({
      logp: [-0.5, -2],
      ref: [-0.5, -2],
      mask: [1, 1],
      advantages: [0],
      maxNewTokens: 2,
      beta: 0.1,
    });
    expect(out.meanKl).toBe(0);
    expect(out.loss).toBe(0);
    expect(Array.from(out.weights)).toEqual([0, 0]);
  });

  it('matches hand values: ref - logp = ln 2 -> KL = 1 - ln 2, dKL/dlogp = 1 - 2', () => {
    const out = grpoLoss({
      logp: [-1],
      ref: [-1 + Math.log(2)],
      mask: [1],
      advantages: [0],
      maxNewTokens: 1,
      beta: 0.5,
    });
    expect(out.meanKl).toBeCloseTo(1 - Math.log(2), 12);
    expect(out.loss).toBeCloseTo(0.5 * (1 - Math.log(2)), 12);
    close(out.weights, [-0.5]);
  });

  it('beta = 0 with ref: KL is measured but not in the loss; beta > 0 without ref throws', () => {
    const out = grpoLoss({
      logp: [-1],
      ref: [-1 + Math.log(2)],
      mask: [1],
      advantages: [0],
      maxNewTokens: 1,
    });
    expect(out.meanKl).toBeCloseTo(1 - Math.log(2), 12);
    expect(out.loss).toBe(0);
    expect(out.weights[0]).toBe(0);
    expect(() => grpoLoss({ logp: [-1], mask: [1], advantages: [1], maxNewTokens: 1, beta: 0.1 })).toThrow(
      /ref/,
    );
  });
});

describe('weights equal d(loss)/d(logp) numerically', () => {
  // Deterministic LCG in [0, 1).
  let state = 12345;
  const rnd = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const S = 5;
  const T = 6;
  const n = S * T;
  const logp = Array.from({ length: n }, () => -0.1 - 3 * rnd());
  // log-ratios well away from the clip boundaries ln(0.8) ~ -0.223 and ln(1.2) ~ 0.182
  const ratios = [-0.6, -0.05, 0.05, 0.5, 0.9, -1.1];
  const logpOld = logp.map((l, i) => l - ratios[i % ratios.length]);
  const ref = logp.map((l) => l + (rnd() - 0.5));
  const lens = [6, 1, 3, 0, 4];
  const mask = Array.from({ length: n }, (_, i) => (i % T < lens[Math.floor(i / T)] ? 1 : 0));
  const advantages = [1.3, -0.7, 0.4, 0.9, -1.5];

  for (const lossType of ['grpo', 'bnpo', 'dr_grpo'] as LossType[]) {
    it(`central differences, lossType ${lossType}, beta 0.3`, () => {
      const f = (lp: number[]) =>
        grpoLoss({ logp: lp, logpOld, ref, mask, advantages, maxNewTokens: T, beta: 0.3, lossType });
      const { weights, clipFraction } = f(logp);
      expect(clipFraction).toBeGreaterThan(0); // the check covers both clip branches
      const h = 1e-6;
      for (let i = 0; i < n; i++) {
        const up = logp.slice();
        const dn = logp.slice();
        up[i] += h;
        dn[i] -= h;
        const numeric = (f(up).loss - f(dn).loss) / (2 * h);
        expect(Math.abs(weights[i] - numeric)).toBeLessThan(1e-7);
        if (mask[i] === 0) expect(weights[i]).toBe(0);
      }
    });
  }
});

describe('validation', () => {
  it('rejects mismatched shapes', () => {
    expect(() => grpoLoss({ logp: [0, 0, 0], mask: [1, 1], advantages: [1], maxNewTokens: 3 })).toThrow(
      /mask/,
    );
    expect(() => grpoLoss({ logp: [0, 0, 0], mask: [1, 1, 1], advantages: [1, 2], maxNewTokens: 3 })).toThrow(
      /advantages/,
    );
  });
});
