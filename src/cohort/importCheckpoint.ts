// Checks a checkpoint file a user brings (the app's "Import checkpoint"): it must be a base-agent
// checkpoint of ours (CORLCKPT, the version this build reads, meta co-rl-base-agent/1) of a known family
// and size, in a known view, pretrained on the task the cohort trains, with the architecture and
// vocabulary its family has there. Every refusal is one sentence saying what is wrong and what is
// accepted; nothing is loaded until the file passes.
import { loadCheckpoint } from '../model/checkpoint';
import { isViewName, resolveTaskConfig, VIEW_NAMES, type TaskConfig } from '../tasks';
import { familyArch, FAMILIES, FAMILY_NAMES } from './families';
import { BASE_META_FORMAT, type BaseMeta } from './baseMeta';
import { familyTokenizer } from './pretrain';
import { taskTag } from './presets';

export type ImportedCheckpoint = { ok: true; meta: BaseMeta; params: number } | { ok: false; error: string };

const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** Validate `bytes` as a base checkpoint of ours for `task` (see the file comment). Never throws. */
export function checkImportedCheckpoint(bytes: Uint8Array, task: TaskConfig): ImportedCheckpoint {
  let ck: ReturnType<typeof loadCheckpoint>;
  try {
    ck = loadCheckpoint(bytes);
  } catch (e) {
    const msg = (e as Error).message;
    // a JSON file (a run export, the manifest) is the likeliest wrong file: say so
    const json = bytes.length > 0 && (bytes[0] === 0x7b || bytes[0] === 0x5b);
    return {
      ok: false,
      error:
        json && msg.startsWith('not a checkpoint') ? `${msg} (this is a JSON text file, not a .ckpt)` : msg,
    };
  }
  const meta = ck.meta;
  if (meta.format !== BASE_META_FORMAT) {
    return {
      ok: false,
      error:
        `a model checkpoint, but not a base agent of ours (meta format ${JSON.stringify(meta.format ?? null)}; ` +
        `accepted: "${BASE_META_FORMAT}", as written by npm run pretrain or the app's pretraining)`,
    };
  }
  const family = typeof meta.family === 'string' ? FAMILIES[meta.family] : undefined;
  if (!family)
    return {
      ok: false,
      error: `checkpoint of an unknown family ${JSON.stringify(meta.family)}; this app knows ${FAMILY_NAMES.join(', ')}`,
    };
  if (typeof meta.size !== 'string' || !(meta.size in family.sizes)) {
    return {
      ok: false,
      error: `checkpoint of family ${family.name} at size ${JSON.stringify(meta.size)}; its sizes are ${Object.keys(family.sizes).join(', ')}`,
    };
  }
  if (!isViewName(meta.view))
    return {
      ok: false,
      error: `checkpoint in view ${JSON.stringify(meta.view)}; the views are ${VIEW_NAMES.join(', ')}`,
    };
  if (
    typeof meta.seed !== 'number' ||
    !Number.isInteger(meta.seed) ||
    meta.seed < 0 ||
    meta.seed > 0xffffffff
  ) {
    return {
      ok: false,
      error: `checkpoint with seed ${JSON.stringify(meta.seed)}; a seed is an integer in [0, ${0xffffffff}]`,
    };
  }
  let theirs: string;
  try {
    if (!isObj(meta.task)) throw new Error('no task');
    theirs = taskTag(meta.task as unknown as TaskConfig);
  } catch {
    return {
      ok: false,
      error: `checkpoint without a readable task (${JSON.stringify(meta.task ?? null)}); it cannot be checked against the cohort's`,
    };
  }
  const ours = taskTag(task);
  if (
    JSON.stringify(resolveTaskConfig(meta.task as unknown as TaskConfig)) !==
    JSON.stringify(resolveTaskConfig(task))
  ) {
    return { ok: false, error: `this is a checkpoint of task ${theirs}, the cohort trains ${ours}` };
  }
  const arch = familyArch(family, meta.size);
  const diff = (['nLayer', 'nHead', 'nEmbd', 'mlpRatio', 'pos'] as const)
    .filter((k) => ck.config[k] !== arch[k])
    .map((k) => `${k} ${JSON.stringify(ck.config[k])} (family has ${JSON.stringify(arch[k])})`);
  if (diff.length)
    return {
      ok: false,
      error: `checkpoint says ${family.name}.${meta.size} but its model differs: ${diff.join(', ')}`,
    };
  const tok = familyTokenizer(family, task, meta.view);
  if (meta.alphabet !== tok.alphabet || ck.config.vocabSize !== tok.vocabSize) {
    return {
      ok: false,
      error: `checkpoint's vocabulary (${ck.config.vocabSize} tokens) is not the ${meta.view} view's for ${ours} (${tok.vocabSize} tokens)`,
    };
  }
  const params = [...ck.params.values()].reduce((n, a) => n + a.length, 0);
  return { ok: true, meta: meta as unknown as BaseMeta, params };
}
