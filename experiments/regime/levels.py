#!/usr/bin/env python3
# Rule C's pairs at the other levels of diversity (docs/regime-levels.md, declared before any build or read
# here): graded `muladdw` 3,3, three working paths, 40,000 problems, every agent 24 wide and pretrained a fixed
# 24,000 steps annealed to its end, the final model kept; read as Rule C is (validation problems 0-1,999,
# K = 8, T = 0.5, sampling seed 1), gates unchanged. Base seeds are read in the declared order (16-20, then
# 21-25 while fewer than four have passed); the script reads the seeds it is given. Resumable: a read whose
# JSON exists is not run again; builds go to the content-addressed cache.
# usage: nice -n 19 python3 experiments/regime/levels.py [--task mulw] LEVEL [--until-four] SEED...
#        LEVEL: seed-only | same-family | different-arch | different-family-plus (muladdw, the default);
#        seed-only | same-family (mulw: Rule W's 32-wide nat-chunk, declared after Rule C's levels);
#        different-arch (mulw: Rule WA, C32 beside the same spec with rotary positions and 4 heads);
#        same-family-cr4 (mulw: Rule WB, two of Rule WA's CR4 of seeds s and s + 100)
#        python3 experiments/regime/levels.py [--task mulw] candidate LEVEL SEED   (the page's preset config)
#        python3 experiments/regime/levels.py collect   (every read's report, by preset name and base seed, into
#        docs/data/regime/candidates-levels.json, the gate file `npm run regime-test-config --gates` reads)
import copy, json, os, shutil, sys

from steer import regime  # run-and-read, shared with the steered and capacity rules

BASE = 'experiments/regime/candidates/regime-muladdw-different-family.json'  # Rule C's pair (Rxs, C24)
# Rule W's agent: graded mulw 3,2 (three paths chain, top, bya), nat-chunk.s at its own 32 wide, 24,000 steps
W_BASE = 'experiments/regime/probes/mulw32g-paths3-s12000.json'
TASK = 'muladdw'
CONFIGS = 'experiments/regime/probes/levels'
RUNS = 'runs/regime-probes/levels'
COPIES = 'docs/data/regime/probes/levels'
GATES = ['--split', 'validation', '--problems', '2000', '--seed', '1']
SECOND_SEED = 100  # same-family: the second 24-wide nat-chunk's own seed is the base seed + 100


def w_agent(seed):
    c = copy.deepcopy(json.load(open(W_BASE))['cohort']['agents'][1])  # nat-chunk.s, stream b, 40,000
    c.update(id='C32', seed=seed)
    c['recipe']['maxSteps'] = 24000
    return c


def cr4(seed, id):
    """Rule WA's CR4: Rule W's agent with rotary positions and 4 heads."""
    return dict(w_agent(seed), id=id, arch={'pos': 'rope', 'nHead': 4})


def agents(level, seed):
    """The pair of `level` for base `seed`, built from Rule C's two specs (or Rule W's one)."""
    if TASK == 'mulw':
        c32 = w_agent(seed)
        if level == 'seed-only':
            return [dict(c32, id='A'), dict(c32, id='B')]
        if level == 'same-family':
            return [dict(c32, id='Ca'), dict(w_agent(seed + SECOND_SEED), id='Cb')]
        if level == 'different-arch':  # Rule WA: positions and heads only, on C32's own 40,000 problems
            return [c32, cr4(seed, 'CR4')]
        if level == 'same-family-cr4':  # Rule WB: two CR4, each with its own seed, init and corpus draw
            return [cr4(seed, 'Ra'), cr4(seed + SECOND_SEED, 'Rb')]
        sys.exit(f'unknown mulw level {level!r}: seed-only, same-family, different-arch or same-family-cr4')
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


def stem(level, seed):
    return f'{PREFIX[TASK]}-level-{level}-seed{seed}'


def out_of(level, seed):
    return os.path.join(RUNS, f'{"" if TASK == "muladdw" else TASK + "-"}{level}-seed{seed}.json')


PREFIX = {'muladdw': 'muladdw33g-paths3', 'mulw': 'mulw32g-paths3'}


def config(level, seed):
    d = json.load(open(BASE if TASK == 'muladdw' else W_BASE))
    d.update(name=stem(level, seed), steps=1, methods=['co-rl'])
    d['cohort']['agents'] = agents(level, seed)
    return d


def passes(level, seed):
    out = out_of(level, seed)
    return os.path.exists(out) and json.load(open(out))[0]['report']['verdict']['inRegime']


def read(level, seed):
    out = out_of(level, seed)
    rep = regime(config(level, seed), GATES, out, CONFIGS)
    os.makedirs(COPIES, exist_ok=True)
    shutil.copy(out, os.path.join(COPIES, stem(level, seed) + '.json'))
    failed = [g['id'] for g in rep['verdict']['gates'] if g['status'] != 'pass']
    print(f'{TASK} {level} seed {seed}: ' + ('all five gates pass' if not failed else 'fails ' + ', '.join(failed)),
          flush=True)


def collect(out='docs/data/regime/candidates-levels.json'):
    rows = []
    for task, prefix in PREFIX.items():
        for level in LEVELS:
            for seed in range(16, 26):
                src = os.path.join(COPIES, f'{prefix}-level-{level}-seed{seed}.json')
                if os.path.exists(src):
                    rows.append({'name': f'regime-{task}-{level}', 'baseSeed': seed, 'source': src,
                                 'report': json.load(open(src))[0]['report']})
    with open(out, 'w') as f:
        json.dump(rows, f, indent=1)
        f.write('\n')
    print(f'{len(rows)} reads -> {out}')


LEVELS = ['seed-only', 'same-family', 'different-arch', 'different-family-plus', 'same-family-cr4']


def margin(rep):
    """The smallest distance of any gate's figure to its threshold (docs/regime-levels.md: the page's seed)."""
    f, m = rep['figures'], []
    for a in f['agents']:
        g, k = a['greedy']['value'], a['seedOnlyKappa']['value']
        m += [g - 0.30, 0.70 - g, a['majMinusGreedy']['value'], a['spread']['value'] - 0.40, k - 0.45, 0.65 - k]
    reach = [p['reach']['value'] for p in f['pairs']]
    return min(m + [sum(reach) / len(reach) - 0.15])


def gates_text(rep):
    """The page card's line of a read (src/cohort/regimePresets.ts)."""
    f = rep['figures']
    per = lambda k, fmt: ' / '.join(fmt % a[k]['value'] for a in f['agents'])
    reach = [p['reach']['value'] for p in f['pairs']]
    return (f"every gate passes on {f['problems']:,} validation problems: greedy {per('greedy', '%.2f')}, "
            f"maj@8 - greedy {per('majMinusGreedy', '%+.2f')}, reach {sum(reach) / len(reach):.3f}, "
            f"spread {per('spread', '%.2f')}, seed-only kappa {per('seedOnlyKappa', '%.2f')}")


def admitted():
    """Per preset: the seeds read, the first four that pass, and the page's seed among them."""
    rows = json.load(open('docs/data/regime/candidates-levels.json'))
    for name in dict.fromkeys(r['name'] for r in rows):
        mine = sorted((r for r in rows if r['name'] == name), key=lambda r: r['baseSeed'])
        ok = [r for r in mine if r['report']['verdict']['inRegime']][:4]
        page = max(ok, key=lambda r: margin(r['report']))['baseSeed'] if len(ok) == 4 else None
        if page is not None:
            print(f"{name} seed {page}: {gates_text(next(r for r in ok if r['baseSeed'] == page)['report'])}")
        print(f"{name}: {sum(r['report']['verdict']['inRegime'] for r in mine)} of {len(mine)} read pass; "
              f"admitted {[r['baseSeed'] for r in ok] if len(ok) == 4 else 'none (fewer than four)'}; page seed {page}; "
              f"margins {[(r['baseSeed'], round(margin(r['report']), 3)) for r in ok]}")

def candidate(level, seed):
    """experiments/regime/candidates/regime-TASK-LEVEL.json: the admitted level's pair on the page's seed."""
    d = json.load(open(BASE))  # the candidate's shape: 300 steps, the five methods, K = 8 at T = 0.5
    c = config(level, seed)
    d.update(name=f'regime-{TASK}-{level}', task=c['task'])
    d['cohort']['agents'] = c['cohort']['agents']
    path = f'experiments/regime/candidates/regime-{TASK}-{level}.json'
    with open(path, 'w') as f:
        json.dump(d, f, indent=2)
        f.write('\n')
    os.system(f'npx prettier --log-level warn --write {path}')
    print(path)


if __name__ == '__main__':
    if 'candidate' in sys.argv[1:4]:
        if sys.argv[1] == '--task':
            TASK = sys.argv[2]
        sys.exit(candidate(sys.argv[-2], int(sys.argv[-1])))
    if sys.argv[1:] == ['collect']:
        collect()
        sys.exit(admitted())
    if len(sys.argv) < 3:
        sys.exit(__doc__ or 'usage: levels.py LEVEL SEED...')
    os.makedirs(RUNS, exist_ok=True)
    os.makedirs(CONFIGS, exist_ok=True)
    args = sys.argv[1:]
    if args[:1] == ['--task']:
        TASK, args = args[1], args[2:]
        if TASK not in PREFIX:
            sys.exit(f'unknown task {TASK!r}: muladdw or mulw')
    level, seeds = args[0], [int(x) for x in args[1:] if x != '--until-four']
    for s in seeds:
        # --until-four: the declared order past seed 20, stopping once four of seeds 16-25 have passed
        if '--until-four' in sys.argv and sum(passes(level, t) for t in range(16, 26)) >= 4:
            print(f'{level}: four base seeds pass; seed {s} and later are not read', flush=True)
            break
        read(level, s)
