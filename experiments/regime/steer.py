#!/usr/bin/env python3
# The steered budgets of docs/regime-graded.md, each declared before it ran. Rule S: per agent, a budget of
# 12,000 steps, moved one rung down the ladder 8,000-16,000 while the agent alone reads too sharp and one rung
# up while it reads too soft, on a selection read (validation problems 2,000-2,999, sampling seed 2) that
# shares no problem with the gates' read of the pair (problems 0-1,999, seed 1). Rule M: the same ladder and
# reads for `nat-rope.m` x `nat-chunk.s`, with a greedy band inside A1's and a kappa band inside A5's (a margin
# for the selection read's noise), too strong stepping down whatever its kappa. Resumable: every read is a
# JSON file under runs/regime-probes/steer[-m]/ and is not read again. Builds go to the content-addressed cache.
# usage: nice -n 10 python3 experiments/regime/steer.py [--rule S|M] SEED...
import json, os, subprocess, sys

BUD = [8000, 10000, 12000, 14000, 16000]
START = 12000
BASE = 'experiments/regime/probes/muladdw33g-paths3-s12000.json'
CONFIGS = 'experiments/regime/probes/steer'
RUNS = 'runs/regime-probes/steer'
PREFIX = 'muladdw33g-paths3-steer'
RULE = 'S'
SELECT = ['--split', 'validation', '--from', '2000', '--problems', '1000', '--seed', '2']
GATES = ['--split', 'validation', '--problems', '2000', '--seed', '1']


def config(seed, budgets, name):
    d = json.load(open(BASE))
    d['name'] = name
    if RULE == 'M':  # the first agent is nat-rope.m (id Rm), as in experiments/regime/probes/families/
        d['cohort']['agents'][0].update(id='Rm', size='m')
    d['cohort']['agents'] = [a for a in d['cohort']['agents'] if a['id'] in budgets]
    for a in d['cohort']['agents']:
        a['seed'] = seed
        a['recipe']['maxSteps'] = budgets[a['id']]
    return d


def regime(cfg, args, out, cfg_dir):
    """Reads cfg with `npm run regime` unless out exists (writing cfg to cfg_dir first); returns the report.
    Shared with experiments/regime/capacity.py."""
    if not os.path.exists(out):
        path = os.path.join(cfg_dir, cfg['name'] + '.json')
        with open(path, 'w') as f:
            json.dump(cfg, f, indent=2)
            f.write('\n')
        subprocess.call(['npx', 'prettier', '--log-level', 'warn', '--write', path])  # as `npm run lint` checks it
        log = out[:-5] + '.log'
        with open(log, 'w') as lf:
            rc = subprocess.call(['npm', 'run', '-s', 'regime', '--', '--config', path, *args, '--json', out],
                                 stdout=lf, stderr=subprocess.STDOUT)
        if rc != 0:
            sys.exit(f'{cfg["name"]}: npm run regime exited {rc}; see {log}')
    return json.load(open(out))[0]['report']


def classify(a):
    """'pass', 'sharp' (step down), 'soft' (step up) or 'both' (stop) from one agent's selection read."""
    g, m = a['greedy']['value'], a['majMinusGreedy']['value']
    s, k = a['spread']['value'], a['seedOnlyKappa']['value']
    if RULE == 'M':
        if g > 0.65:
            return 'sharp'  # too strong: its remaining errors are noise, whatever its kappa
        if g < 0.35:
            return 'soft'
        if k > 0.63:
            return 'sharp'
        return 'soft' if k < 0.47 or m < 0 or s < 0.40 else 'pass'
    soft = g < 0.30 or k < 0.45 or m < 0 or s < 0.40
    sharp = g > 0.70 or k > 0.65
    return 'both' if soft and sharp else 'soft' if soft else 'sharp' if sharp else 'pass'


def steer(seed, aid):
    i, seen, trail = BUD.index(START), set(), []
    while True:
        name = f'{PREFIX}-seed{seed}-{aid}-s{BUD[i]}'
        tmp = os.path.join(RUNS, 'configs')
        rep = regime(config(seed, {aid: BUD[i]}, name), SELECT, os.path.join(RUNS, name + '.json'), tmp)
        a = rep['figures']['agents'][0]
        c = classify(a)
        seen.add(i)
        trail.append({'steps': BUD[i], 'class': c, **{k: round(a[k]['value'], 3) for k in
                      ('greedy', 'majMinusGreedy', 'spread', 'seedOnlyKappa')}})
        j = i + (1 if c == 'soft' else -1 if c == 'sharp' else 0)
        if c in ('pass', 'both') or j < 0 or j >= len(BUD) or j in seen:
            return BUD[i], trail
        i = j


def main():
    global RULE, CONFIGS, RUNS, PREFIX
    args = sys.argv[1:]
    if args[:1] == ['--rule']:
        RULE, args = args[1], args[2:]
        if RULE not in ('S', 'M'):
            sys.exit(f'--rule: unknown rule {RULE!r}; rules: S, M')
    if RULE == 'M':
        CONFIGS, RUNS, PREFIX = CONFIGS + '-m', RUNS + '-m', 'muladdw33g-paths3-steer-m'
    os.makedirs(os.path.join(RUNS, 'configs'), exist_ok=True)
    os.makedirs(CONFIGS, exist_ok=True)
    ids = ('Rm', 'C') if RULE == 'M' else ('R', 'C')
    for seed in map(int, args):
        picks, trails = {}, {}
        for aid in ids:
            picks[aid], trails[aid] = steer(seed, aid)
        name = f'{PREFIX}-seed{seed}'
        rep = regime(config(seed, picks, name), GATES, os.path.join(RUNS, name + '.json'), CONFIGS)
        gates = {g['id']: g['status'] for g in rep['verdict']['gates']}
        summary = {'seed': seed, 'budgets': picks, 'trail': trails, 'gates': gates,
                   'inRegime': rep['verdict']['inRegime']}
        with open(os.path.join(RUNS, f'summary-seed{seed}.json'), 'w') as f:
            json.dump(summary, f, indent=1)
        print(json.dumps(summary), flush=True)


if __name__ == '__main__':
    main()
