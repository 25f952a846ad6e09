#!/usr/bin/env python3
# Prints one markdown row per (probe, agent) of `npm run regime --json` reports, the table of docs/regime-variants.md;
# per-agent gates as in src/regime/gates.ts (docs/method.md, "The regime").
# usage: python3 experiments/regime/probe-table.py docs/data/regime/probes/*.json
import json, sys

# what each probe varies against the sanity point addw5-s3000 (addw 5 digits, 40,000 problems, 3,000 steps x 32)
VARIED = {
    'addw5-s3000': 'sanity point', 'addw5-s2000': 'steps 2,000', 'addw5-s1000': 'steps 1,000',
    'addw4-s3000': 'task: 4 digits', 'addw3-s1000': 'task: 3 digits, 1,000 steps', 'addw3-s500': 'task: 3 digits, 500 steps',
    'muladdw22-s3000': 'task: muladdw 2,2', 'addw5-xxs-xs': 'size: rope.xxs + deep.xs', 'addw5-xs-xs': 'size: rope.xs + deep.xs',
    'addw5-m-s': 'size: rope.m + deep.s', 'addw5-noise05': 'noise 0.05', 'addw5-noise10': 'noise 0.10', 'addw5-noise20': 'noise 0.20',
    'addw5-c10000-s3000': 'corpus 10,000', 'addw5-c5000-s3000': 'corpus 5,000', 'addw4-c5000-s3000': '4 digits, corpus 5,000',
    'addw5-rope-chunk': 'pair: rope.s + chunk.s', 'muladdw22-rope-chunk-s3000': 'muladdw 2,2; rope.s + chunk.s',
    'muladdw22-s3000-deep-s6000': 'muladdw 2,2; deep.s 6,000 steps',
    'muladdw22-rope-chunk-s4000': 'muladdw 2,2; rope.s + chunk.s, 4,000 steps',
    'muladdw33-rope-chunk-s4000': 'muladdw 3,3; rope.s + chunk.s, 4,000 steps',
    # working along several paths (recipe `paths`, docs/tasks.md "Working along several paths"; the mixes in
    # docs/regime-search.md, "Working along several paths")
    'muladdw22-paths3-s3000': 'muladdw 2,2; 3 paths (1/3 each)',
    'muladdw22-paths3-s6000': 'muladdw 2,2; 3 paths; 6,000 steps',
    'muladdw22-paths3-m-s6000': 'muladdw 2,2; 3 paths; size m; 6,000 steps',
    'muladdw22-paths-tail-s6000': 'muladdw 2,2; paths .4/.4/.2; 6,000 steps',
    'muladdw22-paths3-s6000-seed2': 'muladdw 2,2; 3 paths; 6,000 steps; seed 2',
    'muladdw22-paths3-s10000': 'muladdw 2,2; 3 paths; 10,000 steps',
    'muladdw22-paths2-s8000': 'muladdw 2,2; chain/addin .5; 8,000 steps',
    'muladdw22-paths-own-s3000': 'muladdw 2,2; R +addin .5, C +partials .5',
    'muladdw22-paths-own-s6000': 'muladdw 2,2; own paths .5; 6,000 steps',
    'muladdw22-paths-minor-s4000': 'muladdw 2,2; minor paths .2; 4,000 steps',
    'addw5-paths-s3000': 'paths chain/sums .5/.5',
    'addw5-paths-s6000': 'paths chain/sums .5/.5, 6,000 steps',
    'addw5-paths-own-s3000': 'paths sums R .3, D .7',
    'addw5-paths-minor-s3000': 'paths sums R .2, D .1',
    # 2026-12-04: corpus size with three paths, a path chosen by the problem (recipe `pathFeature`), and graded
    # difficulty (task `aGrade: 'digits'`: a of 1, 2 or 3 significant digits, equally often)
    'muladdw22-paths3-c5000-s6000': 'muladdw 2,2; 3 paths; corpus 5,000; 6,000 steps',
    'muladdw22-paths3-c2000-s6000': 'muladdw 2,2; 3 paths; corpus 2,000; 6,000 steps',
    'muladdw22-paths3-feat1-s6000': 'muladdw 2,2; 3 paths by b (pathFeature 1); 6,000 steps',
    'muladdw22-paths3-feat0.5-s6000': 'muladdw 2,2; 3 paths, half by b (pathFeature .5); 6,000 steps',
    'muladdw33g-s6000': 'muladdw 3,3 graded a; 6,000 steps',
    'muladdw33g-paths3-s6000': 'muladdw 3,3 graded a; 3 paths; 6,000 steps',
    'muladdw32g-paths3-s8000': 'muladdw 3,2 graded a; 3 paths; 8,000 steps',
    'muladdw33g-paths3-s10000': 'muladdw 3,3 graded a; 3 paths; 10,000 steps',
    'muladdw33g-paths3-s12000': 'muladdw 3,3 graded a; 3 paths; 12,000 steps',
    'muladdw33g-paths3-s12000-P2000': 'muladdw 3,3 graded a; 3 paths; 12,000 steps; 2,000 problems',
    'muladdw33g-paths3-s12000-seed2': 'muladdw 3,3 graded a; 3 paths; 12,000 steps; seed 2',
    'muladdw33g-paths3-s12000-seed2-P2000': 'muladdw 3,3 graded a; 3 paths; 12,000 steps; seed 2; 2,000 problems',
    'muladdw33g-paths3-s10000-P2000': 'muladdw 3,3 graded a; 3 paths; 10,000 steps; 2,000 problems',
    'muladdw33g-paths3-s10000-seed2': 'muladdw 3,3 graded a; 3 paths; 10,000 steps; seed 2; 2,000 problems',
    'muladdw33g-paths3-s10000-seed3': 'muladdw 3,3 graded a; 3 paths; 10,000 steps; seed 3; 2,000 problems',
    'muladdw33g-paths3-s12000-seed3': 'muladdw 3,3 graded a; 3 paths; 12,000 steps; seed 3; 2,000 problems',
    'muladdw33g-paths3-s12000-seed4': 'muladdw 3,3 graded a; 3 paths; 12,000 steps; seed 4; 2,000 problems',
    'muladdw33g-paths3-s12000-seed5': 'muladdw 3,3 graded a; 3 paths; 12,000 steps; seed 5; 2,000 problems',
    # the budget ladder declared in docs/regime-search.md before it ran: per agent the first of 8,000-16,000 steps
    # whose final validation greedy lies in [0.40, 0.60] (experiments/regime/probes/ladder/)
    **{f'muladdw33g-paths3-ladder-seed{s}': f'muladdw 3,3 graded a; 3 paths; budget ladder; seed {s}; 2,000 problems' for s in range(1, 6)},
    'muladdw33g-paths3-band-seed1': 'muladdw 3,3 graded a; 3 paths; <= 16,000 steps, latest in band [.4, .6]; 2,000 problems',
    'muladdw33g-paths3-band-seed2': 'as band-seed1; seed 2; 2,000 problems',
    'muladdw33g-paths3-band-seed3': 'as band-seed1; seed 3; 2,000 problems',
    # Rule S (docs/regime-graded.md, declared before it ran): per-agent budget steered by the agent's own gates on
    # validation problems 2,000-2,999; seeds 6-10 fresh (experiments/regime/probes/steer/, reports in steer/)
    **{f'muladdw33g-paths3-steer-seed{s}': f'muladdw 3,3 graded a; 3 paths; Rule S; seed {s}; 2,000 problems' for s in range(1, 11)},
    **{f'muladdw33g-paths3-steer-m-seed{s}': f'muladdw 3,3 graded a; 3 paths; Rule M (rope.m + chunk.s); seed {s} (unseen); 2,000 problems' for s in range(11, 16)},
    'muladdw33g-paths3-s12000-seed9': 'muladdw 3,3 graded a; 3 paths; 12,000 steps; seed 9 (fresh); 2,000 problems',
    # other families with nat-chunk.s on graded muladdw, 12,000 steps, fresh seeds 6-8 (experiments/regime/probes/families/)
    **{f'muladdw33g-paths3-s12000-{tag}-chunk-seed{s}': f'muladdw 3,3 graded a; 3 paths; 12,000 steps; {fam} + chunk.s; seed {s}; 2,000 problems'
       for tag, fam in (('abs', 'abs.s'), ('ropem', 'rope.m'), ('deep', 'deep.s')) for s in (6, 7, 8)},
    **{f'muladdw33g-paths3-s12000-ropechunk2-chunk-seed{s}': f'muladdw 3,3 graded a; 3 paths; 12,000 steps; rope.s with 2-digit tokens + chunk.s; seed {s}; 2,000 problems' for s in (6, 7, 8)},
    **{f'muladdw33g-paths3-s12000-ropem-chunk-seed{s}': f'muladdw 3,3 graded a; 3 paths; 12,000 steps; rope.m + chunk.s; seed {s}; 2,000 problems' for s in (9, 10)},
    **{f'muladdw33g-paths3-rc10000-c12000-seed{s}': f'muladdw 3,3 graded a; 3 paths; rope.s with 2-digit tokens 10,000 steps + chunk.s 12,000; seed {s}; 2,000 problems' for s in (6, 7, 8)},
    'mulw22g-paths3-s12000': 'mulw 2,2 graded a; 3 paths; 12,000 steps; 400 problems (the most its validation split gives)',
    # the second two-step kind: mulw (a * b, b two digits), graded a, three paths (chain / top / bya)
    'mulw32g-paths3-s8000': 'mulw 3,2 graded a; 3 paths; 8,000 steps; 2,000 problems',
    'mulw32g-paths3-s12000': 'mulw 3,2 graded a; 3 paths; 12,000 steps; 2,000 problems',
    # Rule C (docs/regime-capacity.md, declared before it ran on seeds 16-20): rope.xs + chunk 24 wide, a fixed
    # 24,000 steps (experiments/regime/probes/capacity/, reports in capacity/)
    **{f'muladdw33g-paths3-cap-xs24-s24000-seed{s}': f'muladdw 3,3 graded a; 3 paths; Rule C (rope.xs + chunk 24 wide, 24,000 steps); seed {s}{" (unseen)" if s > 15 else ""}; 2,000 problems' for s in (1, 2, 16, 17, 18, 19, 20)},
    'muladdw33g-paths3-cap-xs24-s48000-seed16': 'muladdw 3,3 graded a; 3 paths; rope.xs + chunk 24 wide, 48,000 steps; seed 16; 2,000 problems',
    # Rule C2 (docs/regime-capacity.md, declared before it ran on seeds 21-25): rope.xs 48,000 steps, chunk 24 wide 24,000
    **{f'muladdw33g-paths3-cap-xs24-r48000-c24000-seed{s}': f'muladdw 3,3 graded a; 3 paths; Rule C2 (rope.xs 48,000 + chunk 24 wide 24,000 steps); seed {s}{" (unseen)" if s > 20 else ""}; 2,000 problems' for s in (1, 16, 21, 22, 23, 24, 25)},
    'muladdw33g-paths3-cap-seedpair-rxs48000-s1-s16': 'muladdw 3,3 graded a; 3 paths; rope.xs 48,000 steps, seeds 1 and 16 (seed level); 2,000 problems',
    'muladdw33g-paths3-cap-seedpair-c24000-s17-s18': 'muladdw 3,3 graded a; 3 paths; chunk 24 wide 24,000 steps, seeds 17 and 18 (seed level); 2,000 problems',
    'mulw32g-paths3-cap-xs24-s24000-seed1': 'mulw 3,2 graded a; 3 paths; rope.xs + chunk 24 wide, 24,000 steps; 2,000 problems',
    # graded difficulty on addw (task `grade: 'digits'`: the sum's length 1-6 drawn uniformly first)
    'addw6g-paths2-s4000': 'addw 6 graded length; 2 paths; 4,000 steps; 2,000 problems',
    'addw6g-paths2-s8000': 'addw 6 graded length; 2 paths; 8,000 steps; 2,000 problems',
}

def v(e):
    return e['value'] if isinstance(e, dict) else e

for f in sys.argv[1:]:
    for rep in json.load(open(f)):
        r = rep['report']; fig = r['figures']
        gates = {g['id']: g['status'] for g in r['verdict']['gates']}
        gs = ' '.join(f"{k}{'+' if s == 'pass' else ('?' if s != 'fail' else '-')}" for k, s in sorted(gates.items()))
        pairs = {p['learner']: p for p in fig['pairs']}
        for a in fig['agents']:
            p = pairs.get(a['id'])
            reach = f"{v(p['reach']):.3f} ({p['reachProblems']})" if p and p['reach'] else 'n/a'
            kg = f"{p['kappaGreedy']:.2f}" if p else ''
            g, m, sp, k = v(a['greedy']), v(a['majMinusGreedy']), v(a['spread']), v(a['seedOnlyKappa'])
            # per-agent gates (docs/method.md, src/regime/gates.ts): A1 [0.30, 0.70], A2 >= 0, A4 >= 0.4, A5 [0.45, 0.65]
            own = ''.join(c for c, ok in (('1', 0.3 <= g <= 0.7), ('2', m >= 0), ('4', sp >= 0.4), ('5', 0.45 <= k <= 0.65)) if ok) or '-'
            name = f.split('/')[-1][:-5]
            probe = name.split('-T')[0]
            print(f"| {name} | {VARIED.get(probe, '')}{', T ' + str(r['temperature']) if '-T' in name else ''} | {a['id']} | {r['K']} | {r['temperature']} | {v(a['greedy']):.3f} | {v(a['sampled']):.3f} | "
                  f"{v(a['majMinusGreedy']):+.3f} | {reach} | {v(a['spread']):.3f} | {v(a['seedOnlyKappa']):.3f} | {kg} | {own} | {gs} |")
