#!/usr/bin/env python3
# The two tables of each registered test, from a finished test sweep's folder: the endpoint table of
# docs/results.md (section 4): the registered report's endpoints (sampled accuracy, primary; greedy, secondary)
# per method with 95% t-intervals over base-seed means; and the greedy gain per base seed (mean of its RL seeds)
# of docs/results-tests.md, from the committed cell records. Nothing is computed here that the report does not
# already hold, except the per-base-seed means, which are read from cells/ (compact records). Between them it prints
# the figures of the preset's verdict text (src/cohort/regimePresets.ts).
# usage: python3 experiments/regime/verdict-tables.py experiments/regime/test-levels-muladdw-same-family
import json, os, sys
from collections import defaultdict

from testcells import done_cells

METHODS = ['gt', 'co-rl', 'ttrl', 'random', 'co-rl-frozen']
TITLE = {'random': 'random (control)', 'co-rl-frozen': 'co-rl-frozen (control)'}


def pct(x):
    return f'{100 * x:.1f}'


def pts(x):
    return f'{100 * x:+.1f}'


def ci(s, f):
    return f"{f(s['mean'])} [{f(s['lo'])}, {f(s['hi'])}]"


def table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    line = lambda r: '| ' + ' | '.join(c.ljust(w) for c, w in zip(r, widths)) + ' |'
    out = [line(rows[0]), '| ' + ' | '.join('-' * w for w in widths) + ' |']
    return '\n'.join(out + [line(r) for r in rows[1:]])


def main(folder):
    rep = json.load(open(os.path.join(folder, 'report.json')))
    for v in rep['registered']['verdicts']:
        p, s = v['methods'], v['secondary']['methods']
        rows = [['method', 'base % (sampled)', 'final %', 'gain, points', 'greedy base %', 'greedy gain, points']]
        for m in METHODS:
            rows.append([TITLE.get(m, m), ci(p[m]['base'], pct), ci(p[m]['final'], pct), ci(p[m]['gain'], pts),
                         ci(s[m]['base'], pct), ci(s[m]['gain'], pts)])
        rows.append(['Co-RL minus co-rl-frozen (paired)', '', '', ci(v['coRlMinusFrozen'], pts), '',
                     ci(v['secondary']['coRlMinusFrozen'], pts)])
        print(f"{v['preset']}: **{v['verdict']}**\n\n{table(rows)}\n")
        # the figures of the preset text (src/cohort/regimePresets.ts), to which a reading is added by hand
        g = lambda m: ci(p[m]['gain'], pts)
        print(f"{v['verdict']}: Co-RL {g('co-rl')} points of sampled accuracy, GT {g('gt')}, TTRL {g('ttrl')}, "
              f"random {g('random')}; Co-RL minus the frozen-peer control {ci(v['coRlMinusFrozen'], pts)}\n")
    # greedy gain per base seed
    gains = defaultdict(lambda: defaultdict(list))
    for base, c in done_cells(folder):
        for m in c['result']['summary']:
            g = m['meanGreedy']
            gains[base][m['method']].append(g['final'] - g['base'])
    rows = [['base seed'] + [TITLE.get(m, m).replace(' (control)', '') for m in METHODS]]
    for b in sorted(gains):
        rows.append([str(b)] + [pts(sum(gains[b][m]) / len(gains[b][m])) for m in METHODS])
    print(table(rows))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: python3 experiments/regime/verdict-tables.py TEST_SWEEP_DIR')
    main(sys.argv[1])
