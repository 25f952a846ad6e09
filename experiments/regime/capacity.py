#!/usr/bin/env python3
# Rule C of docs/regime-capacity.md (declared before it ran on its judging seeds): `muladdw` 3,3 graded, three
# working paths, 40,000 problems, `nat-rope.xs` (stream a) and `nat-chunk` 24 wide (stream b), each pretrained
# a fixed 24,000 steps annealed to its end; no steering. Read with the gates' read of Rules S and M (validation
# problems 0-1,999, K = 8, T = 0.5, sampling seed 1). Resumable: a read whose JSON exists is not run again.
# usage: nice -n 19 python3 experiments/regime/capacity.py [--steps N|R,C] SEED...   (--steps: another
# budget for both agents, or one for Rxs and one for C24; not Rule C)
import json, os, sys

from steer import regime  # run-and-read, shared with the steered rules

BASE = 'experiments/regime/probes/muladdw33g-paths3-s12000.json'
CONFIGS = 'experiments/regime/probes/capacity'
RUNS = 'runs/regime-probes/capacity'
STEPS = 24000  # both agents' budget, or (Rxs, C24) with `--steps R,C`
GATES = ['--split', 'validation', '--problems', '2000', '--seed', '1']


def tag():
    return f's{STEPS}' if isinstance(STEPS, int) else f'r{STEPS[0]}-c{STEPS[1]}'


def config(seed):
    d = json.load(open(BASE))
    d['name'] = f'muladdw33g-paths3-cap-xs24-{tag()}-seed{seed}'
    r, c = d['cohort']['agents']
    r.update(id='Rxs', size='xs')
    c.update(id='C24', arch={'nEmbd': 24})
    for a, n in zip((r, c), (STEPS, STEPS) if isinstance(STEPS, int) else STEPS):
        a['seed'] = seed
        a['recipe']['maxSteps'] = n
    return d


def read(seed):
    cfg = config(seed)
    rep = regime(cfg, GATES, os.path.join(RUNS, f'cap-xs24-{tag()}-seed{seed}.json'), CONFIGS)
    failed = [g['id'] for g in rep['verdict']['gates'] if g['status'] != 'pass']
    print(f'seed {seed}: ' + ('all five gates pass' if not failed else 'fails ' + ', '.join(failed)))


if __name__ == '__main__':
    os.makedirs(RUNS, exist_ok=True)
    args = sys.argv[1:]
    if args[:1] == ['--steps']:
        STEPS = int(args[1]) if ',' not in args[1] else tuple(int(x) for x in args[1].split(','))
        args = args[2:]
    for s in args:
        read(int(s))
