// GPT model configuration: a typed object with defaults and validation, in the style of nanoGPT's
// GPTConfig (karpathy/nanoGPT model.py). Validation names every bad field and its allowed values.

/** How token positions enter the model: a learned table added to the embedding, or rotary (RoPE). */
export type PosVariant = 'learned' | 'rope';

/** The positional variants, in display order. */
export const POS_VARIANTS: readonly PosVariant[] = ['learned', 'rope'];

export interface GPTConfig {
  /** Number of token ids: rows of the embedding table and logits per position. */
  vocabSize: number;
  /** Context length: the most positions one sequence may span (prompt + generated tokens - 1). */
  blockSize: number;
  /** Number of transformer blocks. */
  nLayer: number;
  /** Attention heads per block; must divide nEmbd. */
  nHead: number;
  /** Model width C (embedding and residual stream size). */
  nEmbd: number;
  /** Hidden width of the MLP as a multiple of nEmbd (GPT-2: 4). */
  mlpRatio: number;
  /** Positional encoding: 'learned' (GPT-2 wpe table) or 'rope' (rotary, applied to q and k). */
  pos: PosVariant;
  /** Seed of the deterministic parameter initialisation (u32). */
  seed: number;
}

/** A small default model (the playground's tiny agents). */
export const DEFAULT_GPT_CONFIG: Readonly<GPTConfig> = {
  vocabSize: 32,
  blockSize: 32,
  nLayer: 2,
  nHead: 4,
  nEmbd: 64,
  mlpRatio: 4,
  pos: 'learned',
  seed: 1337,
};

const FIELDS = Object.keys(DEFAULT_GPT_CONFIG) as (keyof GPTConfig)[];

/** Defaults overridden by `partial`, then validated (throws listing every bad field). */
export function makeGPTConfig(partial: Partial<GPTConfig> = {}): GPTConfig {
  const cfg = { ...DEFAULT_GPT_CONFIG, ...partial };
  assertGPTConfig(cfg);
  return cfg;
}

const isPosInt = (x: unknown): boolean => typeof x === 'number' && Number.isInteger(x) && x > 0;

/**
 * Every problem with `cfg`, one message per bad field (empty when valid). Accepts untrusted input
 * (parsed JSON, URL state), so it also reports missing and unknown fields.
 */
export function validateGPTConfig(cfg: unknown): string[] {
  if (typeof cfg !== 'object' || cfg === null || Array.isArray(cfg)) return ['GPT config must be an object'];
  const c = cfg as Record<string, unknown>;
  const errs: string[] = [];
  for (const k of Object.keys(c)) {
    if (!(FIELDS as string[]).includes(k))
      errs.push(`unknown field '${k}' (allowed fields: ${FIELDS.join(', ')})`);
  }
  const posInt = (k: keyof GPTConfig, hint = ''): void => {
    if (!(k in c)) errs.push(`${k}: missing (a positive integer${hint})`);
    else if (!isPosInt(c[k]))
      errs.push(`${k}: got ${JSON.stringify(c[k])}, must be a positive integer${hint}`);
  };
  posInt('vocabSize');
  posInt('blockSize', ', the context length');
  posInt('nLayer');
  posInt('nHead', ' dividing nEmbd');
  posInt('nEmbd', ' divisible by nHead');
  posInt('mlpRatio', ' (GPT-2 uses 4)');
  if (!POS_VARIANTS.includes(c.pos as PosVariant)) {
    errs.push(
      `pos: got ${JSON.stringify(c.pos)}, allowed values: ${POS_VARIANTS.map((p) => `'${p}'`).join(' | ')}`,
    );
  }
  const s = c.seed;
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s > 0xffffffff) {
    errs.push(`seed: got ${JSON.stringify(s)}, must be an integer in [0, 4294967295]`);
  }
  if (isPosInt(c.nHead) && isPosInt(c.nEmbd)) {
    const nh = c.nHead as number;
    const ne = c.nEmbd as number;
    if (ne % nh !== 0) {
      errs.push(`nHead/nEmbd: nHead=${nh} must divide nEmbd=${ne} (head size = nEmbd/nHead)`);
    } else if (c.pos === 'rope' && (ne / nh) % 2 !== 0) {
      errs.push(
        `nEmbd/nHead: head size ${ne / nh} (nEmbd=${ne} / nHead=${nh}) must be even for pos='rope' (rotation pairs)`,
      );
    }
  }
  return errs;
}

/** Thrown for an invalid GPT config; `problems` lists every bad field. */
export class GPTConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid GPT config:\n  - ${problems.join('\n  - ')}`);
    this.name = 'GPTConfigError';
  }
}

/** Throw a GPTConfigError naming every bad field; narrows `cfg` to GPTConfig. */
export function assertGPTConfig(cfg: unknown): asserts cfg is GPTConfig {
  const errs = validateGPTConfig(cfg);
  if (errs.length > 0) throw new GPTConfigError(errs);
}

/**
 * Check that a prompt of `promptLen` tokens followed by `maxNewTokens` generated tokens fits the
 * context: positions 0 .. promptLen + maxNewTokens - 2 are fed to the model (the last sampled token
 * is never fed), so promptLen + maxNewTokens - 1 <= blockSize. Throws a clear message otherwise.
 */
export function assertFitsContext(cfg: GPTConfig, promptLen: number, maxNewTokens: number): void {
  if (!isPosInt(promptLen)) throw new Error(`prompt length must be a positive integer, got ${promptLen}`);
  if (!isPosInt(maxNewTokens))
    throw new Error(`maxNewTokens must be a positive integer, got ${maxNewTokens}`);
  if (promptLen > cfg.blockSize) {
    throw new Error(
      `prompt of ${promptLen} tokens is longer than the model's context (blockSize ${cfg.blockSize})`,
    );
  }
  const need = promptLen + maxNewTokens - 1;
  if (need > cfg.blockSize) {
    throw new Error(
      `prompt of ${promptLen} tokens + ${maxNewTokens} new tokens needs ${need} positions, ` +
        `more than the model's context (blockSize ${cfg.blockSize}); use at most ${cfg.blockSize - promptLen + 1} new tokens`,
    );
  }
}
