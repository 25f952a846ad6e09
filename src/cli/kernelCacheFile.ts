// The Node side of the per-adapter kernel choice cache (src/engine/webgpu/choices.ts): one JSON file of
// records by adapter name, read before a WebGPU run and updated after it. A missing or unreadable file
// is an empty cache (the choices are measured again), never an error.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The file's records by adapter (null when there is no usable file). */
export function readKernelCache(path: string): Record<string, unknown> | null {
  if (!existsSync(path)) return null;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch (e) {
    process.stderr.write(
      `kernel cache ${path} is not valid JSON (${(e as Error).message}); measuring again and rewriting it\n`,
    );
    return null;
  }
}

/** Store `record` as the file's entry for `adapter`, keeping the other adapters' entries. */
export function writeKernelCache(path: string, adapter: string, record: unknown): void {
  const all = readKernelCache(path) ?? {};
  all[adapter] = record;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(all, null, 2) + '\n');
}
