// The checkpoint header (CORLCKPT's JSON: format, version, config, tensors, meta) under a property test
// (issue 19): a real checkpoint's header mutated at random places, the weights kept, is loaded or
// refused with the loader's own Error naming what is wrong, never a TypeError or RangeError from inside;
// what loads holds the config's tensors, each of its shape.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mutated } from '../schema/mutate.fixture';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeGPTConfig } from './config';
import { loadCheckpoint, saveCheckpoint } from './checkpoint';
import { GPT } from './gpt';
import { paramLayout } from './params';

/** `bytes` (a checkpoint) with its header replaced by `header`'s JSON, the data section kept. */
function withHeader(bytes: Uint8Array, header: unknown): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const oldStart = Math.ceil((16 + dv.getUint32(12, true)) / 4) * 4;
  const h = new TextEncoder().encode(JSON.stringify(header) ?? 'null');
  const start = Math.ceil((16 + h.length) / 4) * 4;
  const out = new Uint8Array(start + bytes.length - oldStart);
  out.set(bytes.subarray(0, 12));
  new DataView(out.buffer).setUint32(12, h.length, true);
  out.set(h, 16);
  out.set(bytes.subarray(oldStart), start);
  return out;
}

describe('checkpoint header: property test', () => {
  it('1000 mutated headers are loaded (every tensor of the config, of its shape) or refused by the loader', async () => {
    const cfg = makeGPTConfig({ vocabSize: 19, blockSize: 11, nLayer: 1, nHead: 2, nEmbd: 8, seed: 3 });
    const bytes = await saveCheckpoint(new GPT(new CpuBackend(), cfg), { family: 'adders', step: 4 });
    const len = new DataView(bytes.buffer).getUint32(12, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + len))) as unknown;
    expect(loadCheckpoint(withHeader(bytes, header)).config).toEqual(cfg);
    let refused = 0;
    fc.assert(
      fc.property(mutated(header, 3), (h) => {
        let ck;
        try {
          ck = loadCheckpoint(withHeader(bytes, h));
        } catch (e) {
          refused++;
          expect((e as Error).constructor.name).toMatch(/^(Error|GPTConfigError)$/);
          expect((e as Error).message.length).toBeGreaterThan(8);
          return;
        }
        for (const s of paramLayout(ck.config).specs) expect(ck.params.get(s.name)?.length).toBe(s.size);
      }),
      { numRuns: 1000, seed: 19 },
    );
    expect(refused).toBeGreaterThan(300);
    // found by random headers: a null header, and a config of a billion layers (its layout once filled the heap)
    expect(() => loadCheckpoint(withHeader(bytes, null))).toThrow(
      /^corrupt checkpoint header: must be a JSON object/,
    );
    const huge = { ...(header as object), config: { ...cfg, nLayer: 1e9 } };
    expect(() => loadCheckpoint(withHeader(bytes, huge))).toThrow(
      'checkpoint tensors do not match its config: nLayer 1000000000 needs more than the 16 tensors the header lists',
    );
  });
});
