#!/usr/bin/env python3
# Development reads toward more levels on graded `mulw` 3,2 (docs/regime-levels.md, "Rule WA", its first
# table): a second agent X beside Rule W's 32-wide `nat-chunk` (C32) of the same base seed, on base seed 1 only
# (never a judging seed). Each read is the pair C32 x X, so it gives X's own gates (A1, A2, A4, A5) and the
# pair's reach (A3). Rule W's task, paths, corpus size and budget unless the argument says otherwise; X draws
# its 40,000 problems from its family's own stream (nat-rev: c; nat-chunk: b, the same draw as C32). Read as
# Rule C is.
# usage: nice -n 19 python3 experiments/regime/mulw-dev.py FAMILY.SIZE[:ARCH][@STEPS]...
#        ARCH: a width (nEmbd), or FIELD=VALUE,... of an arch override (nLayer, nHead, nEmbd, mlpRatio, pos)
#        e.g. nat-rev.s, nat-rev.s:20, nat-rev.s@6000, nat-chunk.m:28, nat-chunk.s:pos=rope,nHead=4
import copy, json, os, shutil, sys

from levels import w_agent, W_BASE, CONFIGS, COPIES, GATES
from steer import regime

RUNS = 'runs/regime-probes/levels'
STREAM = {'nat-rev': 'c', 'nat-chunk': 'b', 'nat-rope': None, 'nat-deep': None, 'nat-abs': None}


def arch_of(text):
    """'28' -> {'nEmbd': 28}; 'pos=rope,nHead=4' -> {'pos': 'rope', 'nHead': 4}; '' -> None."""
    if not text:
        return None
    if text.isdigit():
        return {'nEmbd': int(text)}
    kv = (f.split('=') for f in text.split(','))
    return {k: (int(v) if v.isdigit() else v) for k, v in kv}


def tag_of(arch):
    if not arch:
        return ''
    if list(arch) == ['nEmbd']:
        return str(arch['nEmbd'])
    return ''.join(f'-{k.lower()}{v}' for k, v in arch.items())


def agent(seed, family, size, arch, steps):
    x = copy.deepcopy(w_agent(seed))
    x.update(id='X', family=family, size=size)
    x['recipe']['maxSteps'] = steps
    x['corpus'] = {'draw': 'random', 'size': 40000}
    if STREAM[family]:
        x['corpus']['stream'] = STREAM[family]
    if arch:
        x['arch'] = arch
    if family == 'nat-rev':
        x['id'] = 'Rev'  # the first reads' id (ids seed the sampling streams; kept so they read the same)
    return x


def read(family, size, arch=None, steps=24000, seed=1):
    tag = family.removeprefix('nat-') + size + tag_of(arch)
    name = f'mulw32g-paths3-dev-c32-x-{tag}-s{steps}-seed{seed}'
    d = json.load(open(W_BASE))
    d.update(name=name, steps=1, methods=['co-rl'])
    d['cohort']['agents'] = [w_agent(seed), agent(seed, family, size, arch, steps)]
    out = os.path.join(RUNS, name + '.json')
    rep = regime(d, GATES, out, CONFIGS)
    shutil.copy(out, os.path.join(COPIES, name + '.json'))
    failed = [g['id'] for g in rep['verdict']['gates'] if g['status'] != 'pass']
    print(f'{name}: ' + ('all five gates pass' if not failed else 'fails ' + ', '.join(failed)), flush=True)


if __name__ == '__main__':
    os.makedirs(RUNS, exist_ok=True)
    for arg in sys.argv[1:]:
        arg, _, steps = arg.partition('@')
        arg, _, arch = arg.partition(':')
        family, _, size = arg.partition('.')
        read(family, size, arch_of(arch), int(steps) if steps else 24000)
