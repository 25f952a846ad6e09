// Tests for the checkpoint-import check: a shipped base checkpoint passes; a truncated file, a foreign
// file, another format version, another task, a model checkpoint that is no base agent, and a header
// whose family disagrees with its weights are each refused with a message saying what is wrong.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TASK } from './presets';
import { checkImportedCheckpoint } from './importCheckpoint';
import { PUBLIC_DIR } from './nodeFiles';

const shipped = new Uint8Array(readFileSync(join(PUBLIC_DIR, 'checkpoints/add-d2/rope-carry.s.s1.ckpt')));

/** The checkpoint with its JSON header rewritten by `edit` (padding and data moved accordingly). */
function rewriteHeader(bytes: Uint8Array, edit: (h: Record<string, unknown>) => void): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hlen = dv.getUint32(12, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + hlen))) as Record<
    string,
    unknown
  >;
  edit(header);
  const data = bytes.subarray(Math.ceil((16 + hlen) / 4) * 4);
  const h = new TextEncoder().encode(JSON.stringify(header));
  const start = Math.ceil((16 + h.length) / 4) * 4;
  const out = new Uint8Array(start + data.length);
  out.set(bytes.subarray(0, 12));
  new DataView(out.buffer).setUint32(12, h.length, true);
  out.set(h, 16);
  out.set(data, start);
  return out;
}

const refusal = (bytes: Uint8Array): string => {
  const r = checkImportedCheckpoint(bytes, DEFAULT_TASK);
  if (r.ok) throw new Error('accepted');
  return r.error;
};

describe('checkImportedCheckpoint', () => {
  it('accepts a shipped base checkpoint and reads its agent', () => {
    const r = checkImportedCheckpoint(shipped, DEFAULT_TASK);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.meta).toMatchObject({
      family: 'rope-carry',
      size: 's',
      seed: 1,
      view: 'plain',
      task: { kind: 'add', digits: 2 },
    });
    expect(r.params).toBe(13280); // the manifest's figure for this checkpoint
  });

  it('accepts the file after an empty header rewrite (so the refusals below are due to the edits)', () => {
    expect(
      checkImportedCheckpoint(
        rewriteHeader(shipped, () => {}),
        DEFAULT_TASK,
      ).ok,
    ).toBe(true);
  });

  it('refuses truncated, foreign and other-version files', () => {
    expect(refusal(shipped.slice(0, 10))).toMatch(/^not a checkpoint: 10 bytes/);
    expect(refusal(shipped.slice(0, shipped.length - 100))).toMatch(/^truncated checkpoint: tensor /);
    expect(refusal(shipped.slice(0, 200))).toMatch(/^truncated checkpoint: header of \d+ bytes/);
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1,
    ]);
    expect(refusal(png)).toMatch(/^not a checkpoint: magic ".PNG/);
    expect(refusal(new TextEncoder().encode('{"format":"co-rl-playground-run","version":1}'))).toBe(
      'not a checkpoint: magic "{\\"format", expected "CORLCKPT" (this is a JSON text file, not a .ckpt)',
    );
    const v2 = shipped.slice();
    new DataView(v2.buffer).setUint32(8, 2, true);
    expect(refusal(v2)).toBe('unsupported checkpoint format version 2; this build reads version 1');
  });

  it('refuses a base checkpoint of another task, naming both tasks', () => {
    const mod = rewriteHeader(shipped, (h) => {
      (h.meta as Record<string, unknown>).task = {
        kind: 'mod',
        digits: 2,
        modulus: 7,
        op: '+',
        evalFraction: 0.2,
      };
    });
    expect(refusal(mod)).toBe(
      'this is a checkpoint of task mod-d2-modulus7-opplus, the cohort trains add-d2',
    );
    const add3 = rewriteHeader(shipped, (h) => {
      (h.meta as Record<string, unknown>).task = { kind: 'add', digits: 3 };
    });
    expect(refusal(add3)).toBe('this is a checkpoint of task add-d3, the cohort trains add-d2');
    // and a cohort on 3-digit addition refuses the 2-digit file
    const r = checkImportedCheckpoint(shipped, { kind: 'add', digits: 3 });
    expect(!r.ok && r.error).toBe('this is a checkpoint of task add-d2, the cohort trains add-d3');
  });

  it('refuses model checkpoints that are no base agent of ours, or whose header contradicts the weights', () => {
    const plain = rewriteHeader(shipped, (h) => {
      h.meta = { step: 10 };
    });
    expect(refusal(plain)).toMatch(
      /not a base agent of ours \(meta format null; accepted: "co-rl-base-agent\/1"/,
    );
    const gpt5 = rewriteHeader(shipped, (h) => {
      (h.meta as Record<string, unknown>).family = 'gpt5';
    });
    expect(refusal(gpt5)).toMatch(/unknown family "gpt5"; this app knows lp-nocarry, rope-carry/);
    const xl = rewriteHeader(shipped, (h) => {
      (h.meta as Record<string, unknown>).size = 'xl';
    });
    expect(refusal(xl)).toBe('checkpoint of family rope-carry at size "xl"; its sizes are s, m');
    const lp = rewriteHeader(shipped, (h) => {
      (h.meta as Record<string, unknown>).family = 'lp-nocarry';
    });
    expect(refusal(lp)).toMatch(
      /^checkpoint says lp-nocarry.s but its model differs: nLayer 1 \(family has 2\)/,
    );
    const words = rewriteHeader(shipped, (h) => {
      (h.meta as Record<string, unknown>).view = 'words';
    });
    expect(refusal(words)).toMatch(/vocabulary \(\d+ tokens\) is not the words view's for add-d2/);
  });
});
