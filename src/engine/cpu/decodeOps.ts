// The fused decode ops (src/engine/decode.ts) on CPU tensors: the twins of src/engine/cpu/decode.ts behind
// the DecodeOps interface, for the parity cases. The CPU backend itself does not offer them: its
// register-blocked matmul makes the per-op path faster in JavaScript than the row-at-a-time twins, so
// generation on the CPU keeps the per-op path.
import type { Tensor } from '../tensor';
import type { DecodeOps } from '../decode';
import type { CpuTensor } from './cpuBackend';
import * as dec from './decode';

const f = (t: Tensor): Float32Array => (t as CpuTensor).data as Float32Array;
const fo = (t: Tensor | null): Float32Array | null => (t ? f(t) : null);
const u = (t: Tensor): Uint32Array => (t as CpuTensor).data as Uint32Array;

/** DecodeOps over CpuBackend tensors (each call is a literal twin of its WGSL kernel). */
export const cpuDecodeOps: DecodeOps = {
  decodeQkv(q, kc, vc, x, tok, wte, wpe, lnw, lnb, w, b, ...n) {
    dec.decodeQkv(
      f(q),
      f(kc),
      f(vc),
      f(x),
      tok ? u(tok) : null,
      fo(wte),
      fo(wpe),
      f(lnw),
      f(lnb),
      f(w),
      f(b),
      ...n,
    );
  },
  decodeAttn(out, q, kc, vc, x, w, b, ...n) {
    dec.decodeAttn(f(out), f(q), f(kc), f(vc), f(x), f(w), f(b), ...n);
  },
  decodeMlp(out, x, lnw, lnb, fcw, fcb, pw, pb, ...n) {
    dec.decodeMlp(f(out), f(x), f(lnw), f(lnb), f(fcw), f(fcb), f(pw), f(pb), ...n);
  },
  decodeHead(tok, logp, logits, x, lnw, lnb, wte, ...n) {
    dec.decodeHead(u(tok), fo(logp), f(logits), f(x), f(lnw), f(lnb), f(wte), ...n);
  },
};
