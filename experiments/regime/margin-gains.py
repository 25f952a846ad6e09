#!/usr/bin/env python3
# Exploratory, not registered: does a method's gain follow the margin of the vote it is rewarded by? Reads
# the committed cells of finished registered tests and prints, per base seed (mean of its RL seeds), the base
# pair's margins on the test split (each agent's maj@K minus its greedy accuracy, averaged over the pair; the
# pooled vote of both agents minus the pair's greedy) beside each method's greedy gain, then Spearman's rank
# correlation of each margin with each method's gain, over base seeds and over agents (for an agent: its own
# margin, and its peer's vote minus its own greedy). Points of accuracy. Base seeds of different tests have
# different agents, and the two agents of a pair are not independent: a description, not a test.
# usage: python3 experiments/regime/margin-gains.py experiments/regime/test-rule-c experiments/regime/test-levels-*
import os, sys
from collections import defaultdict

from testcells import done_cells
from statistics import correlation, mean

METHODS = ['gt', 'co-rl', 'ttrl', 'co-rl-frozen', 'random']


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):  # ties share their mean rank
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(x, y):
    return correlation(ranks(x), ranks(y))


def read(folder):
    """Per base seed: the pair's margins and each method's greedy gains; per agent: its margins and gains. The
    base figures of the RL seeds differ a little (the sampled votes draw on the RL seed), so they are averaged."""
    seeds, agents = defaultdict(lambda: defaultdict(list)), defaultdict(lambda: defaultdict(list))
    for base, c in done_cells(folder):
        for m in c['result']['summary']:
            ag, g = m['agents'], m['meanGreedy']
            s = seeds[base]
            s[m['method']].append(100 * (g['final'] - g['base']))
            s['pair'].append(100 * mean(a['maj']['base'] - a['greedy']['base'] for a in ag))
            if m['method'] == 'co-rl':  # the pooled vote is the cohort's, read once per cell
                s['pooled'].append(100 * (m['ensemble']['base'] - g['base']))
            for i, a in enumerate(ag):
                peer = ag[(i + 1) % len(ag)]
                d = agents[(base, i)]
                d[m['method']].append(100 * (a['greedy']['final'] - a['greedy']['base']))
                d['own'].append(100 * (a['maj']['base'] - a['greedy']['base']))
                d['peer'].append(100 * (peer['maj']['base'] - a['greedy']['base']))
    return seeds, agents


def main(folders):
    seed_rows, agent_rows = [], []
    print('| test | base seed | maj - greedy | pooled - greedy | ' + ' | '.join(METHODS) + ' |')
    print('|' + ' --- |' * (4 + len(METHODS)))
    for folder in folders:
        seeds, agents = read(folder)
        for b in sorted(seeds, key=str):
            s = {k: mean(v) for k, v in seeds[b].items()}
            seed_rows.append(s)
            cols = [f"{s['pair']:+.1f}", f"{s['pooled']:+.1f}"] + [f'{s[m]:+.1f}' for m in METHODS]
            print(f'| {os.path.basename(folder)} | {b} | ' + ' | '.join(cols) + ' |')
        agent_rows += [{k: mean(v) for k, v in a.items()} for a in agents.values()]
    print(f'\nSpearman rho over {len(seed_rows)} base seeds (rows) and {len(agent_rows)} agents:\n')
    print('| margin | ' + ' | '.join(METHODS) + ' |')
    print('|' + ' --- |' * (1 + len(METHODS)))
    for name, rows, key in [
        ('base seeds: maj - greedy', seed_rows, 'pair'),
        ('base seeds: pooled vote - greedy', seed_rows, 'pooled'),
        ("agents: own maj - own greedy", agent_rows, 'own'),
        ("agents: peer's maj - own greedy", agent_rows, 'peer'),
    ]:
        rho = [spearman([r[key] for r in rows], [r[m] for r in rows]) for m in METHODS]
        print(f'| {name} | ' + ' | '.join(f'{x:+.2f}' for x in rho) + ' |')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: python3 experiments/regime/margin-gains.py TEST_SWEEP_DIR...')
    main(sys.argv[1:])
