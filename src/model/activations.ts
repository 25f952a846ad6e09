// The activation buffers of a GPT's forward and backward passes: one set per (B, T) shape, allocated once
// and reused, the least recently used set freed past MAX_SHAPES shapes (src/model/gpt.ts owns one cache).
import type { Backend } from '../engine/backend';
import type { Tensor } from '../engine/tensor';
import type { GPTConfig } from './config';

/** Activations of one block for one (B, T) shape. */
export interface LayerActs {
  ln1: Tensor; // (B, T, C)
  ln1Mean: Tensor; // (B, T)
  ln1Rstd: Tensor; // (B, T)
  qkv: Tensor; // (B, T, 3C)
  qkvr: Tensor; // (B, T, 3C): rotated qkv for rope, else the same tensor as qkv
  atty: Tensor; // (B, T, C)
  att: Tensor; // (B, NH, T, T)
  attproj: Tensor; // (B, T, C)
  res2: Tensor; // (B, T, C)
  ln2: Tensor; // (B, T, C)
  ln2Mean: Tensor; // (B, T)
  ln2Rstd: Tensor; // (B, T)
  fch: Tensor; // (B, T, H)
  fchg: Tensor; // (B, T, H)
  fcproj: Tensor; // (B, T, C)
  res3: Tensor; // (B, T, C)
}

/** Every buffer of a forward/backward pass at one (B, T) shape, allocated once and reused. */
export interface Acts {
  B: number;
  T: number;
  encoded: Tensor; // (B, T, C)
  layers: LayerActs[];
  lnf: Tensor; // (B, T, C)
  lnfMean: Tensor; // (B, T)
  lnfRstd: Tensor; // (B, T)
  logits: Tensor; // (B, T, V)
  dlogits: Tensor; // (B, T, V)
  // backward scratch (zeroed before each use, since backward ops accumulate)
  dres: Tensor; // (B, T, C) gradient of the residual stream
  dbtc: Tensor; // (B, T, C) gradient of a layer-norm output
  datty: Tensor; // (B, T, C)
  dqkv: Tensor; // (B, T, 3C)
  dqkvr: Tensor | null; // (B, T, 3C), rope only
  dfch: Tensor; // (B, T, H)
  dfchg: Tensor; // (B, T, H)
  owned: Tensor[];
  freed: boolean;
}

/** How many (B, T) activation sets the model keeps before freeing the least recently used. */
const MAX_SHAPES = 3;

function allocActs(be: Backend, cfg: GPTConfig, B: number, T: number): Acts {
  const { nEmbd: C, nHead: NH, vocabSize: V } = cfg;
  const H = cfg.mlpRatio * C;
  const owned: Tensor[] = [];
  const al = (shape: number[], label: string): Tensor => {
    const t = be.alloc(shape, 'f32', label);
    owned.push(t);
    return t;
  };
  const rope = cfg.pos === 'rope';
  const layers: LayerActs[] = [];
  for (let l = 0; l < cfg.nLayer; l++) {
    const qkv = al([B, T, 3 * C], `h${l}.qkv`);
    layers.push({
      ln1: al([B, T, C], `h${l}.ln1`),
      ln1Mean: al([B, T], `h${l}.ln1Mean`),
      ln1Rstd: al([B, T], `h${l}.ln1Rstd`),
      qkv,
      qkvr: rope ? al([B, T, 3 * C], `h${l}.qkvr`) : qkv,
      atty: al([B, T, C], `h${l}.atty`),
      att: al([B, NH, T, T], `h${l}.att`),
      attproj: al([B, T, C], `h${l}.attproj`),
      res2: al([B, T, C], `h${l}.res2`),
      ln2: al([B, T, C], `h${l}.ln2`),
      ln2Mean: al([B, T], `h${l}.ln2Mean`),
      ln2Rstd: al([B, T], `h${l}.ln2Rstd`),
      fch: al([B, T, H], `h${l}.fch`),
      fchg: al([B, T, H], `h${l}.fchg`),
      fcproj: al([B, T, C], `h${l}.fcproj`),
      res3: al([B, T, C], `h${l}.res3`),
    });
  }
  return {
    B,
    T,
    layers,
    owned,
    freed: false,
    encoded: al([B, T, C], 'encoded'),
    lnf: al([B, T, C], 'lnf'),
    lnfMean: al([B, T], 'lnfMean'),
    lnfRstd: al([B, T], 'lnfRstd'),
    logits: al([B, T, V], 'logits'),
    dlogits: al([B, T, V], 'dlogits'),
    dres: al([B, T, C], 'dres'),
    dbtc: al([B, T, C], 'dbtc'),
    datty: al([B, T, C], 'datty'),
    dqkv: al([B, T, 3 * C], 'dqkv'),
    dqkvr: rope ? al([B, T, 3 * C], 'dqkvr') : null,
    dfch: al([B, T, H], 'dfch'),
    dfchg: al([B, T, H], 'dfchg'),
  };
}

/** The activation sets of one model, by (B, T), most recently used last. */
export class ActivationCache {
  private readonly sets = new Map<string, Acts>();

  constructor(
    private readonly be: Backend,
    private readonly cfg: GPTConfig,
    /** Called with each set as it is freed. */
    private readonly onFree: (a: Acts) => void,
  ) {}

  /** The set of shape (B, T), allocated on first use. */
  get(B: number, T: number): Acts {
    const key = `${B}x${T}`;
    const hit = this.sets.get(key);
    if (hit) {
      this.sets.delete(key);
      this.sets.set(key, hit); // most recently used last
      return hit;
    }
    if (this.sets.size >= MAX_SHAPES) {
      const [oldKey, old] = this.sets.entries().next().value!;
      this.sets.delete(oldKey);
      this.free(old);
    }
    const a = allocActs(this.be, this.cfg, B, T);
    this.sets.set(key, a);
    return a;
  }

  /** Free every set (they are reallocated on next use). */
  release(): void {
    for (const a of this.sets.values()) this.free(a);
    this.sets.clear();
  }

  private free(a: Acts): void {
    for (const t of a.owned) this.be.free(t);
    a.freed = true;
    this.onFree(a);
  }
}
