// NODE ONLY (fs): read and write shipped checkpoints and the manifest under public/. Used by the CLIs
// (npm run pretrain / overlap) and the Node tests; the page and the worker use fetchReader.ts instead.
// Not exported from src/cohort/index.ts, so nothing in the browser bundle imports node:fs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyManifest, MANIFEST_PATH, parseManifest, type Manifest, type ReadBytes } from './manifest';

/** The repository's public/ folder. */
export const PUBLIC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../public');

/** A ReadBytes over a folder (default public/). */
export function nodeReader(root: string = PUBLIC_DIR): ReadBytes {
  return async (path) => {
    const file = join(root, path);
    if (!existsSync(file))
      throw new Error(`missing file ${file} (make it with npm run pretrain -- --preset NAME)`);
    return new Uint8Array(readFileSync(file));
  };
}

/** The manifest under `root`, or an empty one when there is none yet. */
export function readManifestSync(root: string = PUBLIC_DIR): Manifest {
  const file = join(root, MANIFEST_PATH);
  if (!existsSync(file)) return emptyManifest();
  return parseManifest(JSON.parse(readFileSync(file, 'utf8')));
}

/** Write `bytes` to `path` under `root`, making folders. */
export function writeFileUnder(root: string, path: string, bytes: Uint8Array | string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

/** Write the manifest under `root` (presets sorted by name, 2-space JSON, trailing newline). */
export function writeManifest(root: string, m: Manifest): void {
  const presets = Object.fromEntries(Object.entries(m.presets).sort(([a], [b]) => a.localeCompare(b)));
  writeFileUnder(root, MANIFEST_PATH, `${JSON.stringify({ ...m, presets }, null, 2)}\n`);
}
