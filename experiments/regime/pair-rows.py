#!/usr/bin/env python3
# One markdown row per two-agent regime report (`npm run regime --json`), in the columns of the tables of
# docs/regime-graded.md: greedy, maj@K - greedy, reach with its qualifying problems per direction, spread,
# seed-only kappa, and the gates that fail (with the failing agent), as src/rl/regime/gates.ts reads them.
# usage: python3 experiments/regime/pair-rows.py LABEL=REPORT.json...
import json, sys

LIMITS = {'A1': (0.30, 0.70), 'A2': (0.0, None), 'A4': (0.40, None), 'A5': (0.45, 0.65)}
KEYS = {'A1': 'greedy', 'A2': 'majMinusGreedy', 'A4': 'spread', 'A5': 'seedOnlyKappa'}


def outside(g, x):
    lo, hi = LIMITS[g]
    return x < lo or (hi is not None and x > hi)


def row(label, path):
    rep = json.load(open(path))[0]['report']
    ag, pairs = rep['figures']['agents'], rep['figures']['pairs']
    ids = [a['id'] for a in ag]

    def col(g, fmt):
        return ' / '.join(('**%s**' if outside(g, a[KEYS[g]]['value']) else '%s') % fmt(a[KEYS[g]]['value'])
                          for a in ag)
    reach = [p['reach']['value'] for p in pairs if p.get('reachMeasurable')]
    mean = sum(reach) / len(reach) if len(reach) == len(pairs) else None  # A3 needs >= 100 problems each way
    probs = ' / '.join(str(p['reachProblems']) for p in pairs)
    a3 = '?' if mean is None else ('**%.3f**' if mean < 0.15 else '%.3f') % mean
    failed, unmeasured = [], []
    for g in rep['verdict']['gates']:
        if g['status'] == 'pass':
            continue
        if g['status'] != 'fail':
            unmeasured.append(f"{g['id']} {g['status']}")
        elif g['id'] in KEYS:
            bad = [i for i, a in zip(ids, ag) if outside(g['id'], a[KEYS[g['id']]]['value'])]
            failed.append(f"{g['id']} ({', '.join(bad)})")
        else:
            failed.append(g['id'])
    verdict = ', '.join(([', '.join(failed) + ' fail'] if failed else []) + unmeasured) or '**all five pass**'
    return (f"| {label} | {col('A1', lambda x: '%.2f' % x)} | {col('A2', lambda x: '%+.3f' % x)} | {a3} ({probs}) | "
            f"{col('A4', lambda x: '%.2f' % x)} | {col('A5', lambda x: '%.2f' % x)} | {verdict} |")


print('| read | A1 greedy R / C | A2 maj@8 - greedy R / C | A3 reach (problems) | A4 spread R / C | '
      'A5 seed-only kappa R / C | gates |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for arg in sys.argv[1:]:
    label, path = arg.split('=', 1)
    print(row(label, path))
