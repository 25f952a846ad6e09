// The kernel registry (defineKernel in ./context.ts) that WebGpuBackend.prepare() compiles ahead of the
// first dispatch: it must hold every compute entry point the shaders define, each once, with the code
// that declares it. Node only: no GPU needed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineKernel, kernelKey, registeredKernels } from './context';
// importing the backend imports every op module (and registers the backend's own fill kernel)
import './webgpuBackend';

const root = join(__dirname, '..', '..', '..');
/** `@compute ... fn name` entry points of a WGSL source. */
const computeEntries = (code: string): string[] =>
  [...code.matchAll(/@compute[^{]*?\bfn\s+([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);

describe('kernel registry', () => {
  const ks = registeredKernels();

  it('holds every compute entry point of shaders/*.wgsl exactly once', () => {
    const dir = join(root, 'shaders');
    const defined = readdirSync(dir)
      .filter((f) => f.endsWith('.wgsl'))
      .flatMap((f) => computeEntries(readFileSync(join(dir, f), 'utf8')));
    expect(defined.length).toBeGreaterThan(40);
    expect(new Set(defined).size).toBe(defined.length);
    expect(ks.map((k) => k.entry).sort()).toEqual([...defined].sort());
  });

  it('has unique (label, entry) pairs, each entry declared by its own code, one code per label', () => {
    const pairs = ks.map((k) => `${k.label}|${k.entry}`);
    expect(new Set(pairs).size).toBe(ks.length);
    for (const k of ks) expect(computeEntries(k.code), `${k.label}:${k.entry}`).toContain(k.entry);
    const codeOf = new Map<string, string>();
    for (const k of ks) {
      const had = codeOf.get(k.label);
      expect(had === undefined || had === k.code, `label ${k.label} has two different codes`).toBe(true);
      codeOf.set(k.label, k.code);
    }
  });

  it('every kernel literal in the op modules goes through defineKernel', () => {
    const dir = join(root, 'src', 'engine', 'webgpu', 'ops');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const src = readFileSync(join(dir, f), 'utf8');
      // a kernel object's label is a string, or (generic.ts) the shader a declaration names
      const literals = src.match(/\{\s*label:\s*('|d\.gpu\.)/g) ?? [];
      const defined = src.match(/defineKernel\(\{\s*label:\s*('|d\.gpu\.)/g) ?? [];
      expect(literals.length, f).toBeGreaterThan(0);
      expect(defined.length, f).toBe(literals.length);
    }
  });

  it('refuses a second kernel with the same key and different code, accepts the same one again', () => {
    const k = ks.find((x) => x.label === 'matmul')!;
    expect(defineKernel({ ...k })).toEqual(k);
    expect(registeredKernels().length).toBe(ks.length);
    expect(() => defineKernel({ ...k, code: `${k.code}\n// changed` })).toThrow(
      /matmul:.*defined twice with different WGSL code/,
    );
    expect(registeredKernels().find((x) => kernelKey(x) === kernelKey(k))!.code).toBe(k.code);
  });
});
