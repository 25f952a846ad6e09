#!/usr/bin/env python3
# The unseen-prompts probe's confirmation (docs/results-gate-b-mulw.md, "Unseen prompts on `mulw`: a probe"), fixed before the
# probe's result was read: the recipe `npm run gate-b` chooses on the probe, with unseen prompts, on (a)
# regime-mulw-seed-only's pair of base seed 17 and (b) regime-muladdw-different-family's pair of base seed 17; 300
# steps, 2 RL seeds, GT and random, 2,000 validation problems. Writes the two sweep configs from the probe's gate-b
# JSON; refuses when no recipe passed (nothing more runs then).
# usage: python3 experiments/regime/unseen-confirm.py GATE_B_JSON
import copy, json, sys

PROBE = 'experiments/regime/optimizer-mulw-unseen.sweep.json'
RULE_C = 'experiments/regime/optimizer-rule-c.sweep.json'  # regime-muladdw-different-family, base seed 17
OUT = {'mulw': 'experiments/regime/optimizer-mulw-unseen-s17.sweep.json',
       'muladdw': 'experiments/regime/optimizer-muladdw-unseen-s17.sweep.json'}

report = json.load(open(sys.argv[1]))
if len(report['grids']) != 1 or not report['complete']:
    sys.exit('give the JSON of `npm run gate-b -- --dir experiments/regime/gate-b/mulw-unseen --json FILE` on the whole probe')
chosen = report['grids'][0]['chosen']
if not chosen:
    sys.exit('no recipe passed gate B on the probe: nothing more runs (docs/results-gate-b-mulw.md)')
assign = chosen['assign']
probe = json.load(open(PROBE))


def with_recipe(cfg, name):
    c = copy.deepcopy(cfg)
    c['name'] = name
    c['train'] = {**probe['train'], **{k.split('.', 1)[1]: v for k, v in assign.items() if k.startswith('train.')}}
    c['grid'] = {'seed': [1, 2]}
    c.pop('exclude', None)
    c.pop('include', None)
    return c


mulw = with_recipe(probe, 'regime-optimizer-mulw-unseen-s17')
for a in mulw['cohort']['agents']:
    a['seed'] = 17
muladdw = with_recipe(json.load(open(RULE_C)), 'regime-optimizer-muladdw-unseen-s17')
for kind, cfg in (('mulw', mulw), ('muladdw', muladdw)):
    with open(OUT[kind], 'w') as f:
        json.dump(cfg, f, indent=2)
        f.write('\n')
    print(f'wrote {OUT[kind]}: train {json.dumps(cfg["train"])}')
