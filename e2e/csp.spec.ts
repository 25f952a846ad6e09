// The built app under its Content-Security-Policy (issue 7): `vite build` into a temp folder, served by
// `vite preview` (which also sends the policy as a header); the meta tag is there, no policy violation
// is reported, and a tiny training run works in the worker on WebGPU.
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview, type PreviewServer } from 'vite';
import { collectErrors, setHyper } from './util';

const port = Number(process.env.E2E_PREVIEW_PORT ?? 5190);
let server: PreviewServer | null = null;
let outDir = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  outDir = mkdtempSync(join(tmpdir(), 'corl-build-'));
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  server = await preview({ logLevel: 'warn', build: { outDir }, preview: { port, strictPort: true } });
});

test.afterAll(async () => {
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

test('built app: CSP meta tag and header present, no violations, training runs under it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const res = await page.goto(`http://localhost:${port}/`);
  const header = res?.headers()['content-security-policy'] ?? '';
  expect(header).toContain("script-src 'self'");
  expect(header).not.toMatch(/(?<!wasm-)unsafe-eval/); // 'wasm-unsafe-eval' allows WebAssembly compilation only
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toContain("script-src 'self'");
  expect(meta).not.toMatch(/(?<!wasm-)unsafe-eval|unsafe-inline/);
  // a user can train: tiny run of the default preset
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 2, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 150_000 });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', '2');
  expect(
    Number(await page.getByTestId('chart-agreement').getAttribute('data-points')),
  ).toBeGreaterThanOrEqual(2);
  // the wasm engine compiles its module under the policy too
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('engine')).toContainText('WebAssembly SIMD engine', { timeout: 60_000 });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 150_000 });
  // the other views render under the policy too
  await page.getByRole('tab', { name: 'Theory' }).click();
  await expect(page.locator('svg').first()).toBeVisible();
  const violations = await page.evaluate(
    () => (window as unknown as { cspViolations: string[] }).cspViolations,
  );
  console.log(
    `CSP violations: ${violations.length ? violations.join('; ') : 'none'}; console errors: ${errors.length}`,
  );
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
});
