#!/usr/bin/env python3
# Rule C's pairs at the other levels of diversity (docs/regime-levels.md, declared before any build or read
# here): graded `muladdw` 3,3, three working paths, 40,000 problems, every agent 24 wide and pretrained a fixed
# 24,000 steps annealed to its end, the final model kept; read as Rule C is (validation problems 0-1,999,
# K = 8, T = 0.5, sampling seed 1), gates unchanged. Base seeds are read in the declared order (16-20, then
# 21-25 while fewer than four have passed); the script reads the seeds it is given. Resumable: a read whose
# JSON exists is not run again; builds go to the content-addressed cache.
# usage: nice -n 19 python3 experiments/regime/levels.py LEVEL SEED...
#        LEVEL: seed-only | same-family | different-arch | different-family-plus
import copy, json, os, shutil, sys

from steer import regime  # run-and-read, shared with the steered and capacity rules

BASE = 'experiments/regime/candidates/regime-muladdw-different-family.json'  # Rule C's pair (Rxs, C24)
CONFIGS = 'experiments/regime/probes/levels'
RUNS = 'runs/regime-probes/levels'
COPIES = 'docs/data/regime/probes/levels'
GATES = ['--split', 'validation', '--problems', '2000', '--seed', '1']
SECOND_SEED = 100  # same-family: the second 24-wide nat-chunk's own seed is the base seed + 100


def agents(level, seed):
    """The pair of `level` for base `seed`, built from Rule C's two specs."""
    rxs, c24 = copy.deepcopy(json.load(open(BASE))['cohort']['agents'])
    for a in (rxs, c24):
        a['seed'] = seed
    if level == 'seed-only':  # one checkpoint twice: two sampling streams (ids), one build
        return [dict(c24, id='A'), dict(c24, id='B')]
    if level == 'same-family':  # two independently pretrained 24-wide nat-chunk: own seed, init and draw
        return [dict(c24, id='Ca'), dict(copy.deepcopy(c24), id='Cb', seed=seed + SECOND_SEED)]
    if level == 'different-arch':  # nat-deep.s (3 blocks x 24) on Rxs's own corpus: architecture only
        deep = dict(copy.deepcopy(rxs), id='D24', family='nat-deep', size='s')
        return [rxs, deep]
    if level == 'different-family-plus':  # Rule C's C24 in the words view: also the prompt's format
        return [rxs, dict(c24, id='C24w', view='words')]
    sys.exit(f'unknown level {level!r}: seed-only, same-family, different-arch or different-family-plus')


def config(level, seed):
    d = json.load(open(BASE))
    d.update(name=f'muladdw33g-paths3-level-{level}-seed{seed}', steps=1, methods=['co-rl'])
    d['cohort']['agents'] = agents(level, seed)
    return d


def read(level, seed):
    out = os.path.join(RUNS, f'{level}-seed{seed}.json')
    rep = regime(config(level, seed), GATES, out, CONFIGS)
    os.makedirs(COPIES, exist_ok=True)
    shutil.copy(out, os.path.join(COPIES, f'muladdw33g-paths3-level-{level}-seed{seed}.json'))
    failed = [g['id'] for g in rep['verdict']['gates'] if g['status'] != 'pass']
    print(f'{level} seed {seed}: ' + ('all five gates pass' if not failed else 'fails ' + ', '.join(failed)),
          flush=True)


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__ or 'usage: levels.py LEVEL SEED...')
    os.makedirs(RUNS, exist_ok=True)
    os.makedirs(CONFIGS, exist_ok=True)
    for s in sys.argv[2:]:
        read(sys.argv[1], int(s))
