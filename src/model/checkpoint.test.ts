// Checkpoint round trip and refusals (config mismatch, wrong magic/version, truncated data).
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeGPTConfig } from './config';
import { applyCheckpoint, loadCheckpoint, saveCheckpoint } from './checkpoint';
import { GPT } from './gpt';

const cfg = makeGPTConfig({ vocabSize: 19, blockSize: 11, nLayer: 2, nHead: 2, nEmbd: 12, seed: 3 });

describe('checkpoint', () => {
  it('round-trips parameters, config and meta', async () => {
    const be = new CpuBackend();
    const a = new GPT(be, cfg);
    const bytes = await saveCheckpoint(a, { family: 'adders', step: 42 });
    expect(String.fromCharCode(...bytes.subarray(0, 8))).toBe('CORLCKPT');
    const ck = loadCheckpoint(bytes);
    expect(ck.config).toEqual(cfg);
    expect(ck.meta).toEqual({ family: 'adders', step: 42 });
    const b = new GPT(be, { ...cfg, seed: 99 });
    expect(await b.readParams()).not.toEqual(await a.readParams());
    applyCheckpoint(b, ck);
    expect(await b.readParams()).toEqual(await a.readParams());
    // a copy at a non-zero byte offset decodes the same
    const shifted = new Uint8Array(bytes.length + 3).subarray(3);
    shifted.set(bytes);
    expect(loadCheckpoint(shifted).params.get('h1.fcw')).toEqual(ck.params.get('h1.fcw'));
  });

  it('refuses a config mismatch, listing every differing field', async () => {
    const be = new CpuBackend();
    const ck = loadCheckpoint(await saveCheckpoint(new GPT(be, cfg)));
    const other = new GPT(be, { ...cfg, nLayer: 1, nEmbd: 16, pos: 'rope' });
    expect(() => applyCheckpoint(other, ck)).toThrow(
      /nLayer: expected 1, got 2[\s\S]*nEmbd: expected 16, got 12[\s\S]*pos: expected "rope", got "learned"/,
    );
  });

  it('rejects wrong magic, version and truncated data', async () => {
    const bytes = await saveCheckpoint(new GPT(new CpuBackend(), cfg));
    const bad = bytes.slice();
    bad[0] = 0x58;
    expect(() => loadCheckpoint(bad)).toThrow(/not a checkpoint: magic "XORLCKPT"/);
    const v2 = bytes.slice();
    new DataView(v2.buffer).setUint32(8, 2, true);
    expect(() => loadCheckpoint(v2)).toThrow(/unsupported checkpoint format version 2/);
    expect(() => loadCheckpoint(bytes.slice(0, bytes.length - 4))).toThrow(
      /truncated checkpoint: tensor lnfb/,
    );
    expect(() => loadCheckpoint(bytes.slice(0, 40))).toThrow(/truncated checkpoint: header/);
    expect(() => loadCheckpoint(bytes.slice(0, 5))).toThrow(/shorter than the 16-byte preamble/);
  });
});
