#!/usr/bin/env python3
# The budget ladder of docs/regime-graded.md (declared in 615884b before it ran): per agent, the first of 8,000-16,000
# steps whose final validation greedy (the last "step N/N ... val greedy" line of its build log in runs/regime-probes/)
# lies in [0.40, 0.60]; writes experiments/regime/probes/ladder/muladdw33g-paths3-ladder-seedS.json with the picked budgets.
# usage: python3 experiments/regime/ladder.py SEED... (after building the budgets with npm run pretrain -- --config)
import json, os, re, sys
# per agent: the first budget whose final validation greedy (the build log's last line) is in [0.40, 0.60]
BUD=[8000,10000,12000,14000,16000]
def final(steps,seed,agent):
    cands=[f'runs/regime-probes/build-muladdw33g-paths3-s{steps}-seed{seed}.log']
    if steps in (10000,12000):
        cands.append(f'runs/regime-probes/muladdw33g-paths3-s{steps}'+('' if seed==1 else f'-seed{seed}')+'.log')
    for f in cands:
        if os.path.exists(f):
            for l in open(f):
                m=re.match(rf'\s*{agent}: step {steps}/{steps} loss \S+ val greedy (\S+)',l)
                if m: return float(m.group(1))
    return None
out={}
for seed in map(int,sys.argv[1:]):
    pick={}
    for a in 'RC':
        trail=[]
        for b in BUD:
            g=final(b,seed,a); trail.append((b,g))
            if g is None: pick[a]=('missing',trail); break
            if 0.40<=g<=0.60: pick[a]=(b,trail); break
        else: pick[a]=(16000,trail)
    print(seed, pick)
    if all(isinstance(pick[a][0],int) for a in 'RC'):
        d=json.load(open('experiments/regime/probes/muladdw33g-paths3-s12000.json'))
        d['name']=f'muladdw33g-paths3-ladder-seed{seed}'
        for ag in d['cohort']['agents']:
            ag['seed']=seed; ag['recipe']['maxSteps']=pick[ag['id']][0]
        json.dump(d,open(f"experiments/regime/probes/ladder/{d['name']}.json",'w'),indent=2)
        print('  wrote', d['name'], {ag['id']:ag['recipe']['maxSteps'] for ag in d['cohort']['agents']})
