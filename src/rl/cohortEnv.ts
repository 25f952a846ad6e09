// Where an experiment's agents come from: cohort presets and base checkpoints (src/cohort), read through
// a ReadBytes (fs in Node, fetch in a page), checked before any work starts (missing file, not a base
// checkpoint, family/size/seed/view/architecture/task mismatch), and loaded as fresh copies per method.
import {
  agentFromCheckpoint,
  baseMetaOf,
  familyArch,
  familyTokenizer,
  getFamily,
  getPreset,
  presetAgentSpecs,
  type Agent,
  type AgentSpec,
  type ReadBytes,
} from '../cohort';
import type { Backend } from '../engine/backend';
import { loadCheckpoint } from '../model/checkpoint';
import { isViewName, resolveTaskConfig, VIEW_NAMES, type TaskConfig } from '../tasks';
import { parseExperimentConfig, type CohortRef, type ExperimentConfig } from './config';

/** The specs and task of a cohort section (presets come from src/cohort), or the problems with it. */
export function resolveCohortRef(
  c: CohortRef,
): { specs: AgentSpec[]; task?: TaskConfig } | { errors: string[] } {
  if ('agents' in c) {
    const errors: string[] = [];
    c.agents.forEach((a, i) => {
      try {
        const fam = getFamily(a.family);
        familyArch(fam, a.size);
        // any view is allowed (a non-default one needs a checkpoint pretrained in it; the checkpoint check compares)
        if (!isViewName(a.view))
          errors.push(
            `agents[${i}].view: must be one of ${VIEW_NAMES.map((v) => `'${v}'`).join(' | ')} (family '${a.family}' reads '${fam.view}' by default), got ${JSON.stringify(a.view)}`,
          );
      } catch (e) {
        errors.push(`agents[${i}]: ${(e as Error).message}`);
      }
      if (!a.checkpoint)
        errors.push(
          `agents[${i}].checkpoint: missing (a path relative to public/, e.g. checkpoints/add-d2/rope-carry.s.s1.ckpt)`,
        );
    });
    return errors.length ? { errors } : { specs: c.agents };
  }
  try {
    return { specs: presetAgentSpecs(c.preset), task: getPreset(c.preset).task };
  } catch (e) {
    return { errors: [(e as Error).message] };
  }
}

const sameTask = (a: TaskConfig, b: TaskConfig): boolean =>
  JSON.stringify(resolveTaskConfig(a)) === JSON.stringify(resolveTaskConfig(b));

/**
 * Problems with an agent's base checkpoint: unreadable or missing file, not a base checkpoint, or a
 * family / size / seed / view / architecture / vocabulary / task that does not match the spec. [] if fine.
 */
export async function checkAgentCheckpoint(
  read: ReadBytes,
  spec: AgentSpec,
  task: TaskConfig | null,
): Promise<string[]> {
  if (!spec.checkpoint) return ['no checkpoint path'];
  let bytes: Uint8Array;
  try {
    bytes = await read(spec.checkpoint);
  } catch (e) {
    return [`checkpoint ${spec.checkpoint} cannot be read: ${(e as Error).message}`];
  }
  try {
    const ck = loadCheckpoint(bytes);
    const meta = baseMetaOf(ck.meta, spec.checkpoint);
    const errs: string[] = [];
    for (const k of ['family', 'size', 'seed', 'view'] as const) {
      if (meta[k] !== spec[k])
        errs.push(
          `checkpoint ${spec.checkpoint} holds ${k} ${JSON.stringify(meta[k])}, the spec says ${JSON.stringify(spec[k])}`,
        );
    }
    const fam = getFamily(spec.family);
    const arch = { ...familyArch(fam, spec.size), ...(spec.arch ?? {}) }; // axis overrides (src/cohort/axes.ts)
    for (const k of ['nLayer', 'nHead', 'nEmbd', 'mlpRatio', 'pos'] as const) {
      if (ck.config[k] !== arch[k])
        errs.push(
          `checkpoint ${spec.checkpoint} has ${k} ${JSON.stringify(ck.config[k])}, family '${spec.family}' size '${spec.size}' has ${JSON.stringify(arch[k])}`,
        );
    }
    if (task) {
      if (!sameTask(meta.task, task))
        errs.push(
          `checkpoint ${spec.checkpoint} was pretrained on ${JSON.stringify(meta.task)}, the experiment's task is ${JSON.stringify(task)}`,
        );
      else if (familyTokenizer(fam, task, spec.view, spec.tokenizer).vocabSize !== ck.config.vocabSize)
        errs.push(
          `checkpoint ${spec.checkpoint} has vocabSize ${ck.config.vocabSize}, the family's tokenizer for this task in the ${spec.view} view has ${familyTokenizer(fam, task, spec.view, spec.tokenizer).vocabSize}`,
        );
    }
    return errs;
  } catch (e) {
    return [`checkpoint ${spec.checkpoint}: ${(e as Error).message}`];
  }
}

/**
 * Validate a raw config completely before any work: structure, values, the cohort, and every agent's
 * checkpoint through `read`. Every problem is listed.
 */
export async function validateExperiment(
  raw: unknown,
  read: ReadBytes,
): Promise<{ ok: true; config: ExperimentConfig; specs: AgentSpec[] } | { ok: false; errors: string[] }> {
  const r = parseExperimentConfig(raw, { resolveCohort: resolveCohortRef });
  if (!r.ok) {
    // still report checkpoint problems of whatever agents could be resolved
    const errors = [...r.errors];
    const cohort = (raw as { cohort?: unknown } | null)?.cohort;
    const res = cohort && typeof cohort === 'object' ? resolveCohortRef(cohort as CohortRef) : null;
    if (res && 'specs' in res) {
      const task = (raw as { task?: TaskConfig }).task ?? res.task ?? null;
      for (const [i, s] of res.specs.entries()) {
        let safeTask: TaskConfig | null = null;
        try {
          if (task) safeTask = resolveTaskConfig(task);
        } catch {
          safeTask = null;
        }
        for (const e of await checkAgentCheckpoint(read, s, safeTask))
          errors.push(`cohort agent ${i} (${s.id}): ${e}`);
      }
    }
    return { ok: false, errors };
  }
  const specs = r.specs!;
  const errors: string[] = [];
  for (const [i, s] of specs.entries())
    for (const e of await checkAgentCheckpoint(read, s, r.config.task))
      errors.push(`cohort agent ${i} (${s.id}): ${e}`);
  return errors.length ? { ok: false, errors } : { ok: true, config: r.config, specs };
}

/** Reads each checkpoint once and builds any number of independent copies of the cohort. */
export class CohortLoader {
  private readonly bytes = new Map<string, Uint8Array>();
  constructor(
    private readonly read: ReadBytes,
    readonly specs: readonly AgentSpec[],
  ) {}

  /** Fresh agents on `backend` (own parameters and optimizer state), from the base checkpoints. */
  async load(backend: Backend): Promise<Agent[]> {
    const out: Agent[] = [];
    for (const s of this.specs) {
      let b = this.bytes.get(s.checkpoint!);
      if (!b) this.bytes.set(s.checkpoint!, (b = await this.read(s.checkpoint!)));
      out.push(agentFromCheckpoint(backend, b, s));
    }
    return out;
  }
}
