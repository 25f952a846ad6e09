// The run file's optional `regime` field (docs/run-file.md): a report made by the regime figures and gates
// round-trips through JSON (NaN figures written as null, read back as NaN), bad fields are refused with
// their path named, files without it import unchanged, the store's metrics carry it into the file, and the
// worker's step-0 event sets it (a fresh run drops it, a resumed one keeps it).
import { describe, expect, it } from 'vitest';
import { regimeFigures, type AgentDraws } from '../rl/regime/figures';
import { regimeGates } from '../rl/regime/gates';
import type { RegimeReport } from '../rl/regime/measure';
import { regimeMatches } from '../worker/regimeRequest';
import { buildRunFile, parseRunFile, validateRunFile } from '../formats/runFile';
import { good, metrics, settings } from '../formats/runFile.fixture';
import { toExperimentConfig } from '../formats/runSettings';
import { foldTrainEvents } from './trainEvents';
import { IDLE_STATUS } from './runStatusSlice';

const P = 20;
const S = 4;

/** Agent `id`: on problem i the first k(i) of S samples are right; greedy right when k(i) > S / 2. */
function draws(id: string, k: (i: number) => number): AgentDraws {
  const samples: string[][] = [];
  const sampleCorrect: boolean[][] = [];
  const g: boolean[] = [];
  for (let i = 0; i < P; i++) {
    const right = Array.from({ length: S }, (_, s) => s < k(i));
    sampleCorrect.push(right);
    samples.push(right.map((r, s) => (r ? `r${i}` : `w${i}-${s}`)));
    g.push(k(i) > S / 2);
  }
  const greedy = { correct: g, answers: g.map((r, i) => (r ? `r${i}` : `w${i}-0`)) };
  return { id, greedy, samples, sampleCorrect, seedOnly: [greedy, greedy] };
}

function report(): RegimeReport {
  // B is always right: its vote AUROC has no wrong votes to rank (NaN), its kappa is undefined
  const figures = regimeFigures([draws('A', (i) => i % (S + 1)), draws('B', () => S)], 2);
  return {
    split: 'validation',
    problems: P,
    K: 2,
    temperature: 1,
    spreadSamples: S,
    seedOnlyTemperature: 0.8,
    seed: 1,
    figures,
    verdict: regimeGates(figures),
  };
}

const withRegime = (r: unknown) => ({ ...JSON.parse(JSON.stringify(good())), regime: r });

describe('run file regime', () => {
  it('a report round-trips through JSON, NaN figures as null and back', () => {
    const r = report();
    const b = r.figures.agents.find((a) => a.id === 'B')!;
    expect(Number.isNaN(b.voteAuroc.value)).toBe(true);
    const text = JSON.stringify(withRegime(r));
    expect(text).toContain('"value":null');
    const v = parseRunFile(text);
    if (!v.ok) throw new Error(v.errors.join('\n'));
    const back = v.run.regime!;
    expect(Number.isNaN(back.figures.agents[1].voteAuroc.value)).toBe(true);
    expect(back.figures.agents[0].greedy).toEqual(r.figures.agents[0].greedy);
    expect(back.verdict).toEqual(r.verdict);
    expect(back.figures.pairs.map((p) => p.reachProblems)).toEqual(
      r.figures.pairs.map((p) => p.reachProblems),
    );
  });

  it('a file without it imports unchanged', () => {
    const v = validateRunFile(JSON.parse(JSON.stringify(good())));
    expect(v.ok && v.run.regime).toBe(undefined);
  });

  it('bad fields are refused, each naming its path', () => {
    const r = JSON.parse(JSON.stringify(report()));
    r.verdict.gates[1].status = 'maybe';
    r.figures.agents[0].greedy = 0.5;
    r.K = 1;
    delete r.figures.pairs[0].reachMeasurable;
    const v = validateRunFile(withRegime(r));
    expect(v.ok).toBe(false);
    const errs = v.ok ? [] : v.errors;
    expect(errs).toContain(
      'regime.verdict.gates[1].status: must be one of pass, fail, not measurable, got "maybe"',
    );
    expect(errs.some((e) => e.startsWith('regime.figures.agents[0].greedy: must be an estimate'))).toBe(true);
    expect(errs).toContain('regime.K: must be an integer >= 2, got 1');
    expect(
      errs.some((e) => e.startsWith('regime.figures.pairs[0].reachMeasurable: must be true or false')),
    ).toBe(true);
    const gates = JSON.parse(JSON.stringify(report()));
    gates.verdict.gates = gates.verdict.gates.slice(0, 4);
    const v2 = validateRunFile(withRegime(gates));
    expect(v2.ok ? [] : v2.errors).toEqual([
      expect.stringMatching(/^regime\.verdict\.gates: must list the five gates A1, A2, A3, A4, A5/),
    ]);
    const v3 = validateRunFile(withRegime('yes'));
    expect(v3.ok ? [] : v3.errors[0]).toMatch(/^regime: must be an object .*remove the field/);
  });

  it('buildRunFile carries the metrics regime; the worker event sets it, a new run drops it, a resume keeps it', () => {
    const r = report();
    const config = toExperimentConfig(settings);
    const src = { runSettings: settings, runStatus: { step: 3, config }, metrics: { ...metrics, regime: r } };
    expect(buildRunFile(src, 'x').regime).toBe(r);
    expect('regime' in buildRunFile({ ...src, metrics }, 'x')).toBe(false);

    const prev = { runStatus: { ...IDLE_STATUS }, metrics: { ...metrics, runId: 0 } };
    const a = foldTrainEvents(prev, [
      { type: 'run', runId: 1, config },
      { type: 'runRegime', runId: 1, report: r, reused: true },
    ]);
    expect(a.metrics.regime).toBe(r);
    // a late report of a replaced run is dropped; a fresh run starts without one
    const b = foldTrainEvents(a, [
      { type: 'run', runId: 2, config },
      { type: 'runRegime', runId: 1, report: r, reused: false },
    ]);
    expect(b.metrics.regime).toBe(undefined);
    const c = foldTrainEvents(a, [{ type: 'run', runId: 3, config, resumeFrom: 0 }]);
    expect(c.metrics.regime).toBe(r);
  });

  it('the worker reuses the page report only at the config settings and agents', () => {
    const r = report();
    const config = toExperimentConfig(settings);
    const at = (over: object) => ({
      ...config,
      train: { ...config.train, samples: 2, temperature: 1 },
      eval: { ...config.eval, regime: P },
      ...over,
    });
    expect(regimeMatches(r, at({}), ['A', 'B'])).toBe(true);
    expect(regimeMatches(r, at({}), ['A', 'C'])).toBe(false);
    expect(regimeMatches(r, at({ eval: { ...config.eval, regime: 400 } }), ['A', 'B'])).toBe(false);
    expect(regimeMatches(r, at({ train: { ...config.train, samples: 8, temperature: 1 } }), ['A', 'B'])).toBe(
      false,
    );
    expect(regimeMatches(undefined, at({}), ['A', 'B'])).toBe(false);
  });
});
