// GPT-2 parameter tensors (llm.c names) laid out in one flat buffer, each tensor's offset aligned to
// VIEW_ALIGN so backends bind views directly and AdamW / the gradient norm run once over the whole
// buffer. Initialisation follows GPT-2 (llm.c train_gpt2.py / nanoGPT): N(0, 0.02), residual
// projections N(0, 0.02/sqrt(2*nLayer)), layer-norm weights 1 and biases 0; the LM head is tied to wte.
import { VIEW_ALIGN } from '../engine/backend';
import { makeNormalStream, pcgHash } from '../engine/random';
import type { GPTConfig } from './config';

/** How a tensor is initialised. */
export type ParamInit = 'normal' | 'residual' | 'ones' | 'zeros';

/** One named parameter tensor inside the flat buffer. */
export interface ParamSpec {
  /** llm.c name; per-layer tensors are prefixed `h<layer>.`, e.g. `h0.qkvw`. */
  name: string;
  shape: number[];
  /** Number of elements (product of shape). */
  size: number;
  /** Element offset in the flat buffer (multiple of VIEW_ALIGN). */
  offset: number;
  init: ParamInit;
}

/** Where every parameter lives in the flat buffer. */
export interface ParamLayout {
  specs: ParamSpec[];
  byName: ReadonlyMap<string, ParamSpec>;
  /** Flat buffer length in elements, including alignment padding (a multiple of VIEW_ALIGN). */
  total: number;
  /** Number of trainable parameters (no padding). */
  count: number;
}

/** Names of the per-layer tensors, in layout order. */
export const LAYER_PARAM_NAMES = [
  'ln1w',
  'ln1b',
  'qkvw',
  'qkvb',
  'attprojw',
  'attprojb',
  'ln2w',
  'ln2b',
  'fcw',
  'fcb',
  'fcprojw',
  'fcprojb',
] as const;
export type LayerParamName = (typeof LAYER_PARAM_NAMES)[number];

/** Name of layer `l`'s tensor `n`, e.g. layerParam(0, 'qkvw') = 'h0.qkvw'. */
export const layerParam = (l: number, n: LayerParamName): string => `h${l}.${n}`;

const alignUp = (n: number): number => Math.ceil(n / VIEW_ALIGN) * VIEW_ALIGN;

/** The shapes and inits of every tensor of `cfg`, in layout order (without offsets). */
function tensorList(cfg: GPTConfig): { name: string; shape: number[]; init: ParamInit }[] {
  const { vocabSize: V, blockSize, nEmbd: C, nLayer: L } = cfg;
  const H = cfg.mlpRatio * C;
  const list: { name: string; shape: number[]; init: ParamInit }[] = [
    { name: 'wte', shape: [V, C], init: 'normal' },
  ];
  if (cfg.pos === 'learned') list.push({ name: 'wpe', shape: [blockSize, C], init: 'normal' });
  const per: Record<LayerParamName, [number[], ParamInit]> = {
    ln1w: [[C], 'ones'],
    ln1b: [[C], 'zeros'],
    qkvw: [[3 * C, C], 'normal'],
    qkvb: [[3 * C], 'zeros'],
    attprojw: [[C, C], 'residual'],
    attprojb: [[C], 'zeros'],
    ln2w: [[C], 'ones'],
    ln2b: [[C], 'zeros'],
    fcw: [[H, C], 'normal'],
    fcb: [[H], 'zeros'],
    fcprojw: [[C, H], 'residual'],
    fcprojb: [[C], 'zeros'],
  };
  for (let l = 0; l < L; l++) {
    for (const n of LAYER_PARAM_NAMES)
      list.push({ name: layerParam(l, n), shape: per[n][0], init: per[n][1] });
  }
  list.push({ name: 'lnfw', shape: [C], init: 'ones' }, { name: 'lnfb', shape: [C], init: 'zeros' });
  return list;
}

/** The flat layout of `cfg`'s parameters. */
export function paramLayout(cfg: GPTConfig): ParamLayout {
  const specs: ParamSpec[] = [];
  let offset = 0;
  let count = 0;
  for (const t of tensorList(cfg)) {
    const size = t.shape.reduce((a, b) => a * b, 1);
    specs.push({ ...t, size, offset });
    offset = alignUp(offset + size);
    count += size;
  }
  return { specs, byName: new Map(specs.map((s) => [s.name, s])), total: offset, count };
}

/** Number of trainable parameters of `cfg` (the LM head is tied to wte, so it adds none). */
export function paramCount(cfg: GPTConfig): number {
  return paramLayout(cfg).count;
}

/** A u32 hash of a string (FNV-1a), to give every tensor its own random stream. */
function hashName(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

/**
 * GPT-2 initial parameters as a flat host array (padding is zero). Each tensor draws from its own
 * stream seeded by (cfg.seed, tensor name), so the values do not depend on the layout order.
 */
export function initParams(cfg: GPTConfig, layout: ParamLayout = paramLayout(cfg)): Float32Array {
  const flat = new Float32Array(layout.total);
  const std = 0.02;
  const residualStd = 0.02 / Math.sqrt(2 * cfg.nLayer);
  for (const s of layout.specs) {
    const dst = flat.subarray(s.offset, s.offset + s.size);
    if (s.init === 'ones') dst.fill(1);
    else if (s.init === 'normal' || s.init === 'residual') {
      const scale = s.init === 'normal' ? std : residualStd;
      const rnd = makeNormalStream(pcgHash((cfg.seed ^ hashName(s.name)) >>> 0));
      for (let i = 0; i < s.size; i++) dst[i] = rnd() * scale;
    }
  }
  return flat;
}
