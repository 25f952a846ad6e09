// The shipped base checkpoints (public/checkpoints, made by `npm run pretrain -- --preset all`): the
// manifest lists every preset, its files exist with the recorded size and hash, each file's meta matches
// the preset's spec and task, accuracies are in the pretraining band, and a loaded checkpoint gives the
// greedy completions recorded in the manifest (so Node, the page and the worker agree on the weights).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { loadCheckpoint } from '../model/checkpoint';
import { paramCount } from '../model/params';
import { makeTask, resolveTaskConfig } from '../tasks';
import { greedyScores } from './evaluate';
import { cohortOverlap, formatOverlapReport } from './overlapTable';
import { familyArch, getFamily } from './families';
import { baseMetaOf, hashBytes, loadPresetAgents } from './manifest';
import { PUBLIC_DIR, nodeReader, readManifestSync } from './nodeFiles';
import { PRESETS, PRESET_NAMES, presetAgentSpecs } from './presets';

const manifest = readManifestSync();

describe('shipped checkpoints', () => {
  it('the manifest lists every preset with the specs presets.ts gives', () => {
    expect(Object.keys(manifest.presets).sort()).toEqual([...PRESET_NAMES].sort());
    for (const name of PRESET_NAMES) {
      const entry = manifest.presets[name];
      const specs = presetAgentSpecs(name, entry.seed);
      expect(
        entry.agents.map(({ id, family, size, seed, view, checkpoint }) => ({
          id,
          family,
          size,
          seed,
          view,
          checkpoint,
        })),
      ).toEqual(specs);
      expect(entry.task).toEqual(resolveTaskConfig(PRESETS[name].task));
    }
  });

  it('every listed file exists, matches its size and hash, and its meta matches the preset', () => {
    for (const [name, entry] of Object.entries(manifest.presets)) {
      for (const a of entry.agents) {
        const bytes = new Uint8Array(readFileSync(join(PUBLIC_DIR, a.checkpoint)));
        expect(bytes.length, a.checkpoint).toBe(a.bytes);
        expect(bytes.length).toBeLessThan(100_000); // small: tens of KB
        expect(hashBytes(bytes), a.checkpoint).toBe(a.hash);
        const ck = loadCheckpoint(bytes);
        const m = baseMetaOf(ck.meta, a.checkpoint);
        expect({ family: m.family, size: m.size, seed: m.seed, view: m.view }, `${name}/${a.id}`).toEqual({
          family: a.family,
          size: a.size,
          seed: a.seed,
          view: a.view,
        });
        expect(m.task).toEqual(entry.task);
        const arch = familyArch(getFamily(a.family), a.size);
        expect(ck.config).toMatchObject(arch);
        expect(paramCount(ck.config)).toBe(a.params);
        expect(m.valAccuracy).toBe(a.valAccuracy);
        expect(m.valAccuracy).toBeGreaterThanOrEqual(0.2);
        expect(m.valAccuracy).toBeLessThanOrEqual(0.7);
      }
    }
  });

  it('loaded shipped agents give the greedy completions recorded in the manifest', async () => {
    const be = new CpuBackend();
    const read = nodeReader();
    let compared = 0;
    for (const [name, entry] of Object.entries(manifest.presets)) {
      const agents = await loadPresetAgents(be, read, name, manifest);
      const problems = makeTask(entry.task).evalSet(entry.probe.problems);
      for (const a of agents) {
        const s = await greedyScores(a.model, a.tokenizer, a.spec.view, problems, a.base!.maxNewTokens);
        expect(s.texts, `${name}/${a.spec.id}`).toEqual(entry.probe.completions[a.spec.id]);
        compared += s.texts.length;
        a.model.free();
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('the acceptance figures: accuracy in [0.2, 0.7] on the eval split, different-family kappa below same-family', async () => {
    const be = new CpuBackend();
    const read = nodeReader();
    const kappa: Record<string, number> = {};
    for (const name of PRESET_NAMES) {
      const agents = await loadPresetAgents(be, read, name, manifest);
      const problems = makeTask(manifest.presets[name].task).evalSet(500);
      const r = await cohortOverlap(name, 'add', agents, problems);
      expect(formatOverlapReport(r)).toContain('| A-B |');
      for (const a of r.agents) {
        expect(a.accuracy, `${name}/${a.id}`).toBeGreaterThanOrEqual(0.2);
        expect(a.accuracy, `${name}/${a.id}`).toBeLessThanOrEqual(0.7);
      }
      kappa[name] = r.pairs[0].kappa;
      for (const a of agents) a.model.free();
    }
    expect(kappa['different-family']).toBeLessThan(kappa['same-family']);
    expect(kappa['different-family-plus']).toBeLessThan(kappa['same-family']);
    expect(kappa['paper-demo']).toBeLessThan(kappa['same-family']);
  });
});
