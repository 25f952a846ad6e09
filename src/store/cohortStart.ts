// What a start command carries for the settings' cohort (src/formats/customCohort.ts): what the worker
// pretrains, and the bytes of imported checkpoints the store keeps (never in a link or a run file).
import type { PretrainRecipe } from '../cohort/familySpec';
import { isNaturalPreset } from '../cohort/naturalPresets';
import { importedPath, type CustomAgent } from '../formats/customCohort';

/**
 * DEV-ONLY test hook: a pretraining recipe override read from `window.__CORL_TEST_PRETRAIN_RECIPE__`
 * (e.g. `{ maxSteps: 6, evalEvery: 3, valSize: 16 }`), so browser tests can pretrain in seconds. Only
 * a dev server honours it (import.meta.env.DEV is false in a build) and only a script can set it; the
 * UI has no way to reach it. Documented in docs/cohorts.md.
 */
export function testPretrainRecipe(): Partial<PretrainRecipe> | undefined {
  if (!import.meta.env.DEV) return undefined;
  const r = (globalThis as { __CORL_TEST_PRETRAIN_RECIPE__?: unknown }).__CORL_TEST_PRETRAIN_RECIPE__;
  return typeof r === 'object' && r !== null ? (r as Partial<PretrainRecipe>) : undefined;
}

/** What a start command carries for the cohort: what to pretrain, and imported checkpoint bytes. */
export interface CohortStartFields {
  pretrain?: { recipe?: Partial<PretrainRecipe>; paths?: string[] };
  checkpoints?: Record<string, ArrayBuffer>;
}

/** The settings that decide a run's cohort: these fields of RunSettings (runConfigSlice.ts). */
interface CohortSettings {
  cohortMode: 'preset' | 'custom';
  customAgents: readonly CustomAgent[];
  pretrainHere: boolean;
  preset: string;
}

/** The start command's cohort fields for the settings (imported bytes are copied, the store keeps its own). */
export function cohortStartFields(
  s: CohortSettings,
  imported: Readonly<Record<string, Uint8Array>>,
  recipe: Partial<PretrainRecipe> | undefined = testPretrainRecipe(),
): CohortStartFields {
  // agents by axes (a natural preset's, a composed agent pretrained here) are built by the worker on
  // demand; `paths: []` only carries the test recipe there (nothing for the older preset pretraining)
  const onDemand = recipe ? { recipe, paths: [] } : undefined;
  if (s.cohortMode !== 'custom') {
    if (isNaturalPreset(s.preset)) return { pretrain: onDemand };
    return { pretrain: s.pretrainHere ? (recipe ? { recipe } : {}) : undefined };
  }
  const checkpoints: Record<string, ArrayBuffer> = {};
  for (const a of s.customAgents) {
    const bytes = a.source === 'imported' && a.importKey ? imported[a.importKey] : undefined;
    if (bytes) checkpoints[importedPath(a.importKey!)] = bytes.slice().buffer;
  }
  return {
    pretrain: s.customAgents.some((a) => a.source === 'pretrain') ? onDemand : undefined,
    checkpoints: Object.keys(checkpoints).length ? checkpoints : undefined,
  };
}
