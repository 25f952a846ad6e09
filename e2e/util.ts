// Shared helpers of the Playwright specs: console-error collection, and the harness page that runs
// browser checks (src/**/*.browsercheck.ts) and kernel parity cases.
import { expect, test, type Page } from '@playwright/test';

/** What a browser check returns. */
export type Report = { ok: boolean; lines: string[]; figures: Record<string, number> };
type Harness = { adapter(): Promise<string>; check(name: string): Promise<unknown> };

/** Collect console errors and uncaught page errors into the returned array. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Open the harness page, echo browser errors, and print the WebGPU adapter it runs on. */
export async function openHarness(page: Page): Promise<void> {
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[browser error] ${m.text()}`);
  });
  await page.goto('/e2e/harness.html');
  await page.waitForFunction(() => document.title === 'harness ready');
  const adapter = await page.evaluate(() => (window as unknown as { harness: Harness }).harness.adapter());
  console.log(`WebGPU adapter: ${adapter}`);
}

/** Run one named browser check in the harness and print its lines, figures and time. */
export async function runCheck(page: Page, name: string): Promise<Report> {
  const t0 = Date.now();
  const r = (await page.evaluate(
    (n) => (window as unknown as { harness: Harness }).harness.check(n),
    name,
  )) as Report;
  console.log(`${name} (${Date.now() - t0} ms):`);
  for (const l of r.lines) console.log(`  ${l}`);
  console.log(`  figures: ${JSON.stringify(r.figures)}`);
  return r;
}

/** One test per named browser check, each on a fresh harness page; a check passes when it reports ok. */
export function checkSuite(title: string, names: readonly string[]): void {
  test.describe(title, () => {
    for (const name of names) {
      test(name, async ({ page }) => {
        await openHarness(page);
        const r = await runCheck(page, name);
        expect(r.ok, `${name} failed:\n${r.lines.filter((l) => !l.startsWith('ok')).join('\n')}`).toBe(true);
      });
    }
  });
}

/** Fill the Train view's hyperparameter fields (data-testid `hp-<field>`), e.g. a tiny run for SwiftShader. */
export async function setHyper(page: Page, values: Record<string, number>): Promise<void> {
  for (const [field, v] of Object.entries(values)) await page.getByTestId(`hp-${field}`).fill(String(v));
}

/** Up to five elements under `scope` that stick out past the right edge of the viewport (a phone layout check). */
export function overflowing(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate(
    (sel) =>
      [...document.querySelectorAll(`${sel} *`)]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((e) => `${e.tagName}.${e.getAttribute('class') ?? ''}`)
        .slice(0, 5),
    scope,
  );
}

/**
 * Where a spec's screenshot goes: test-results/img/ (so a test run never rewrites committed files), or
 * docs/img/ when DOCS_IMAGES=1 (`npm run docs:images` regenerates the documented pictures on purpose).
 */
export function docImage(name: string): string {
  return `${process.env.DOCS_IMAGES === '1' ? 'docs/img' : 'test-results/img'}/${name}`;
}
