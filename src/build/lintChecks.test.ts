// The checks npm run lint adds (issue 19, step 4) fail on a planted violation: the repository's own
// .dependency-cruiser.cjs run over a small tree of rooms in a temporary folder reports an upward
// import, util importing one of ours, React below the store, node:* in a page file, a page file
// importing a Node-only file, WebGPU importing the CPU backend, the schema layer importing a package
// other than valibot, a circle (once) and a folder without a row in the table, and nothing for the allowed imports beside them; knip with knip.json's settings
// reports a planted unused export.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A temporary folder holding `files` (path -> text), with the repository's node_modules linked in. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'lint-check-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

describe('dependency-cruiser with .dependency-cruiser.cjs', () => {
  it('reports each planted violation by its rule, and none for the allowed imports', async () => {
    const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;
    const dir = tree({
      'package.json': readFileSync(join(ROOT, 'package.json'), 'utf8'), // react is a dependency
      'src/store/slice.ts': 'export const x = 1;\n',
      'src/app/view.ts': "import { x } from '../store/slice';\nexport const v = x;\n", // allowed: app -> store
      'src/engine/up.ts': "import { x } from '../store/slice';\nexport const y = x;\n", // upward
      'src/util/mine.ts': "import { y } from '../engine/up';\nexport const z = y;\n", // util imports ours
      'src/rl/hook.ts': "import { useState } from 'react';\nexport const h = useState;\n",
      'src/cohort/files.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
      'src/cli/tool.ts': "import { readFileSync } from 'node:fs';\nexport const t = readFileSync;\n", // Node's room
      'src/sweep/page.ts': "import { t } from '../cli/tool';\nexport const p = t;\n", // sweep -> cli
      'src/model/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/model/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'src/newroom/x.ts': "import { x } from '../store/slice';\nexport const n = x;\n",
      'src/engine/cpu/k.ts': 'export const k = 1;\n',
      'src/engine/wasm/w.ts': "import { k } from '../cpu/k';\nexport const w = k;\n", // allowed: the CPU fallback
      'src/engine/webgpu/g.ts': "import { k } from '../cpu/k';\nexport const g = k;\n",
      'src/schema/rule.ts': "import * as v from 'valibot';\nexport const s = v.string();\n", // allowed: valibot
      'src/schema/other.ts': "import fc from 'fast-check';\nexport const o = fc;\n", // another package
    });
    const { options, ...ruleSet } = config;
    const { tsConfig: _ts, ...rest } = options ?? {};
    const out = await cruise(['src'], { ...rest, baseDir: dir, ruleSet, validate: true, outputType: 'json' });
    const result = (typeof out.output === 'string' ? JSON.parse(out.output) : out.output) as ICruiseResult;
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    expect(found).toEqual(
      [
        'not-in-allowed: src/engine/up.ts -> src/store/slice.ts',
        'not-in-allowed: src/newroom/x.ts -> src/store/slice.ts',
        'not-in-allowed: src/sweep/page.ts -> src/cli/tool.ts',
        'not-in-allowed: src/util/mine.ts -> src/engine/up.ts',
        'no-circular: src/model/a.ts -> src/model/b.ts',
        'page-imports-node-core: src/cohort/files.ts -> fs',
        'page-imports-node-only-file: src/sweep/page.ts -> src/cli/tool.ts',
        'engine-backends-apart: src/engine/webgpu/g.ts -> src/engine/cpu/k.ts',
        'react-below-store: src/rl/hook.ts -> node_modules/react/index.js',
        'room-not-in-table: src/newroom/x.ts -> src/store/slice.ts',
        'schema-imports-valibot-only: src/schema/other.ts -> node_modules/fast-check/lib/cjs/fast-check.d.ts',
      ].sort(),
    );
  }, 60_000);
});

describe('knip with knip.json', () => {
  it('reports a planted unused export and passes without it', () => {
    const settings = JSON.parse(readFileSync(join(ROOT, 'knip.json'), 'utf8')) as Record<string, unknown>;
    const lib = 'export const used = 1;\nexport const inFile = 2;\nexport const twice = inFile * 2;\n';
    const files = (planted: string) => ({
      'package.json': '{ "name": "fixture", "private": true, "type": "module" }\n',
      'knip.json': JSON.stringify({
        ignoreExportsUsedInFile: settings.ignoreExportsUsedInFile,
        entry: ['src/main.ts'],
        project: ['src/**/*.ts'],
      }),
      'src/main.ts': "import { twice, used } from './lib';\nconsole.log(used, twice);\n",
      'src/lib.ts': lib + planted,
    });
    const knip = (dir: string) =>
      execFileSync(join(ROOT, 'node_modules/.bin/knip'), ['--directory', dir, '--no-progress'], {
        encoding: 'utf8',
      });
    expect(knip(tree(files('')))).toBe('');
    let report = '';
    try {
      knip(tree(files('export const planted = 3;\n')));
    } catch (e) {
      report = String((e as { stdout?: string }).stdout);
    }
    expect(report).toMatch(/Unused exports \(1\)\s+planted\s+src\/lib\.ts:4:14/);
  }, 60_000);
});
