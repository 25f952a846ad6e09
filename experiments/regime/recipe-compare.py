#!/usr/bin/env python3
# PREREG-B256.md's described comparison (beside the verdict, not part of it): each method's gain under one test
# sweep's recipe minus its gain under another's, on the same preset, base seeds and test problems, paired by base
# seed. Per base seed, a method's gain is the mean over its RL seeds of (final - step 0) pair-mean accuracy, in
# the sampled endpoint (the mean of the agents' sampled accuracy, as src/formats/sweep/registered.ts reads it) and
# the greedy one; the difference of the two sweeps' per-seed gains gets a two-sided 95% Student t-interval over
# the base seeds both sweeps have done. Also prints GT's and random's gains against gate B's bars (GT at least
# +10 points, random within 2).
# usage: python3 experiments/regime/recipe-compare.py NEW_SWEEP_DIR OLD_SWEEP_DIR
import math, sys
from collections import defaultdict

from testcells import done_cells

METHODS = ['gt', 'co-rl', 'ttrl', 'random', 'co-rl-frozen']
# two-sided 95% Student t quantiles by degrees of freedom
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def endpoint(ev, ep):
    if ep == 'greedy':
        return ev['meanGreedyAccuracy']
    return sum(a['sampledAccuracy'] for a in ev['agents']) / len(ev['agents'])


def gains(folder):
    """{endpoint: {method: {base seed: mean gain over RL seeds}}} from the done cells."""
    runs = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for base, c in done_cells(folder):
        evals = c['result']['evals']
        for m in c['result']['config']['methods']:
            ev = sorted((e for e in evals if e['method'] == m), key=lambda e: e['step'])
            if len(ev) < 2 or ev[0]['step'] != 0:
                continue
            for ep in ('sampled', 'greedy'):
                runs[ep][m][base].append(endpoint(ev[-1], ep) - endpoint(ev[0], ep))
    return {ep: {m: {b: sum(v) / len(v) for b, v in per.items()} for m, per in ms.items()} for ep, ms in runs.items()}


def interval(xs):
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, None, None
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    h = T95[n - 1] * sd / math.sqrt(n)
    return mean, mean - h, mean + h


def pts(x):
    return 'n/a' if x is None else f'{100 * x:+.1f}'


def main(new, old):
    a, b = gains(new), gains(old)
    for ep in ('sampled', 'greedy'):
        print(f'## {ep} accuracy: gain under {new} minus gain under {old}, paired by base seed (points)\n')
        print('| method | base seeds | new gain | old gain | new minus old [95% t-interval] |')
        print('| --- | --- | --- | --- | --- |')
        for m in METHODS:
            seeds = sorted(set(a.get(ep, {}).get(m, {})) & set(b.get(ep, {}).get(m, {})))
            if not seeds:
                print(f'| {m} | none in both | | | |')
                continue
            na = [a[ep][m][s] for s in seeds]
            nb = [b[ep][m][s] for s in seeds]
            mean, lo, hi = interval([x - y for x, y in zip(na, nb)])
            print(f'| {m} | {", ".join(map(str, seeds))} | {pts(sum(na) / len(na))} | {pts(sum(nb) / len(nb))} '
                  f'| {pts(mean)} [{pts(lo)}, {pts(hi)}] |')
        print()
    s = a.get('sampled', {})
    if 'gt' in s and 'random' in s:
        gt = sum(s['gt'].values()) / len(s['gt'])
        rnd = sum(s['random'].values()) / len(s['random'])
        print(f'gate B bars on the test split, {new} (sampled): GT {pts(gt)} (bar +10: '
              f'{"meets" if gt >= 0.10 else "misses"}), random {pts(rnd)} (within 2: '
              f'{"meets" if abs(rnd) <= 0.02 else "misses"})')


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: python3 experiments/regime/recipe-compare.py NEW_SWEEP_DIR OLD_SWEEP_DIR')
    main(sys.argv[1], sys.argv[2])
