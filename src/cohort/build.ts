// Builds a preset's base agents with the factory (pretrainAgent) and the preset's manifest entry,
// including a fingerprint of greedy answers. The same code runs in Node (npm run pretrain, CPU backend)
// and in the page or worker (any backend, with a progress callback); agents shared by several presets
// (same family, size, seed and task) are pretrained once per `cache`.
import type { Backend } from '../engine/backend';
import { makeTask } from '../tasks';
import type { AgentSpec } from './agent';
import { greedyScores } from './evaluate';
import { hashBytes, type ManifestAgent, type ManifestPreset } from './manifest';
import { DEFAULT_PRESET_SEED, getPreset, presetAgentSpecs } from './presets';
import { pretrainAgent, type PretrainResult } from './pretrain';
import type { PretrainOptions } from './pretrainSpec';

/** Eval problems whose greedy completions are recorded in the manifest as a fingerprint. */
export const PROBE_PROBLEMS = 32;

export interface BuildOptions extends PretrainOptions {
  /** Preset seed (agent seeds are seed + their offset); default the shipped one. */
  seed?: number;
  /** Results by checkpoint path, reused across presets (pass the same Map to several calls). */
  cache?: Map<string, PretrainResult>;
}

export interface BuiltAgent {
  spec: AgentSpec & { checkpoint: string };
  result: PretrainResult;
  /** False when the result came from the cache. */
  fresh: boolean;
}

export interface BuiltPreset {
  name: string;
  entry: ManifestPreset;
  agents: BuiltAgent[];
}

/** Pretrain (or reuse) every agent of preset `name` on `backend` and make its manifest entry. */
export async function pretrainPreset(
  backend: Backend,
  name: string,
  opts: BuildOptions = {},
): Promise<BuiltPreset> {
  const preset = getPreset(name);
  const seed = opts.seed ?? DEFAULT_PRESET_SEED;
  const specs = presetAgentSpecs(name, seed) as (AgentSpec & { checkpoint: string })[];
  const cache = opts.cache ?? new Map<string, PretrainResult>();
  const agents: BuiltAgent[] = [];
  for (const spec of specs) {
    let result = cache.get(spec.checkpoint);
    const fresh = !result;
    if (!result) {
      result = await pretrainAgent(backend, spec, preset.task, opts);
      cache.set(spec.checkpoint, result);
    }
    agents.push({ spec, result, fresh });
  }
  const task = makeTask(preset.task);
  const probeSet = task.evalSet(PROBE_PROBLEMS);
  const completions: Record<string, string[]> = {};
  for (const a of agents) {
    const { model, tokenizer } = a.result.agent;
    completions[a.spec.id] = (
      await greedyScores(model, tokenizer, a.spec.view, probeSet, a.result.meta.maxNewTokens)
    ).texts;
  }
  const entry: ManifestPreset = {
    description: preset.description,
    task: task.config,
    seed,
    agents: agents.map(
      ({ spec, result }): ManifestAgent => ({
        ...spec,
        bytes: result.bytes.length,
        hash: hashBytes(result.bytes),
        params: result.meta.params,
        steps: result.meta.steps,
        valAccuracy: result.meta.valAccuracy,
        valSampledAccuracy: result.meta.valSampledAccuracy,
        inBand: result.meta.inBand,
      }),
    ),
    probe: { problems: probeSet.length, completions },
  };
  return { name, entry, agents };
}
