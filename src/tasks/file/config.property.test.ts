// The file task's config through the schema layer under a property test (issue 19): random and mutated
// `{ kind: "file", ... }` configs never throw: fileTaskConfigErrors names every problem (or none), what it
// accepts names a loaded file and resolves to that file's identity, and many inputs really are refused.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hostile, messagesAreText } from '../../schema/mutate.fixture';
import { fileTaskConfigErrors, resolveFileTaskConfig, type FileTaskConfig } from './config';
import { loadTaskFile } from './load';
import { registerTaskFile, registeredTaskFile } from './registry';
import { bytesOf, goodRows } from './testFiles';

describe('file task configs: property test', () => {
  const file = loadTaskFile(bytesOf(goodRows(600)));
  registerTaskFile(file);
  const base = { kind: 'file', path: 'tasks.jsonl', hash: file.hash, normalize: 'exact', evalFraction: 0.2 };

  it('1000 mutated or random configs are accepted (naming the loaded file) or refused with messages', () => {
    let refused = 0;
    let accepted = 0;
    fc.assert(
      fc.property(
        hostile(base).filter((x) => typeof x === 'object' && x !== null && !Array.isArray(x)),
        (raw) => {
          const obj = raw as Record<string, unknown>;
          const errs = fileTaskConfigErrors({ ...obj, kind: 'file' });
          if (errs.length) {
            refused++;
            expect(messagesAreText(errs)).toBe(true);
            return;
          }
          accepted++;
          const c = resolveFileTaskConfig(obj as unknown as FileTaskConfig);
          expect(registeredTaskFile(c)).toBe(file);
          expect(fileTaskConfigErrors({ ...c })).toEqual([]);
        },
      ),
      { numRuns: 1000, seed: 19 },
    );
    expect(refused).toBeGreaterThan(300);
    expect(accepted).toBeGreaterThan(50);
  });
});
