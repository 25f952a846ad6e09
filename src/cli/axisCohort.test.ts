// The build log's agent label (src/cli/axisCohort.ts): an agent whose architecture is overridden must say so,
// or a 24-wide nat-chunk reads as nat-chunk.s in every log and report built from it.
import { describe, expect, it } from 'vitest';
import { agentLabel } from './axisCohort';
import type { AgentSpec } from '../cohort/agent';

const spec: AgentSpec = { id: 'C', family: 'nat-chunk', size: 's', seed: 3, view: 'plain' };

describe('agentLabel', () => {
  it('names family, size, seed and view of an agent with no overrides', () => {
    expect(agentLabel(spec)).toBe('C nat-chunk.s seed 3 plain');
  });
  it('names every architecture override, so a narrowed agent is not read as its size', () => {
    expect(agentLabel({ ...spec, arch: { nEmbd: 24 } })).toBe('C nat-chunk.s (nEmbd 24) seed 3 plain');
    expect(agentLabel({ ...spec, arch: { nLayer: 3, blockSize: 64 }, tokenizer: 'chunk2' })).toBe(
      'C nat-chunk.s (nLayer 3, blockSize 64) seed 3 plain tokenizer chunk2',
    );
  });
});
