// Runs a page of this app in headless Chromium with WebGPU from Node: starts a Vite dev server,
// launches Chromium (CHROMIUM_PATH, WEBGPU_FLAGS as in playwright.config.ts) and hands back the page.
import { chromium, type Browser, type Page } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';

export interface BrowserSession {
  page: Page;
  close(): Promise<void>;
}

/** Open `path` (e.g. '/src/bench/bench.html') in headless Chromium served by a fresh Vite server. */
export async function openPage(path: string): Promise<BrowserSession> {
  const server: ViteDevServer = await createServer({
    server: { port: 0, strictPort: false, hmr: false },
    logLevel: 'error',
  });
  await server.listen();
  const addr = server.httpServer?.address();
  const port = typeof addr === 'object' && addr ? addr.port : 5173;
  const flags = (process.env.WEBGPU_FLAGS ?? '--enable-unsafe-webgpu').split(/\s+/).filter(Boolean);
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        ...flags,
      ],
    });
  } catch (e) {
    await server.close();
    throw new Error(
      `could not launch Chromium (${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'}): ${(e as Error).message}\n` +
        'Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.',
      { cause: e },
    );
  }
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') process.stderr.write(`[browser] ${m.text()}\n`);
  });
  await page.goto(`http://localhost:${port}${path}`);
  return {
    page,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
