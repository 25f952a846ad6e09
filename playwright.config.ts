// Playwright: end-to-end tests in real headless Chromium with real WebGPU.
// CHROMIUM_PATH picks the browser (default: Debian's /usr/bin/chromium).
// WEBGPU_FLAGS gives the WebGPU switches (default: --enable-unsafe-webgpu, which runs on
// SwiftShader where no GPU exists and on the real GPU where one does), so the same specs run
// unchanged on CI without a GPU and on a GPU machine.
import { defineConfig } from '@playwright/test';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const webgpuFlags = (process.env.WEBGPU_FLAGS ?? '--enable-unsafe-webgpu').split(/\s+/).filter(Boolean);
const quietFlags = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
const port = Number(process.env.E2E_PORT ?? 5174);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 180_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: { executablePath: chromiumPath, args: [...quietFlags, ...webgpuFlags] },
    viewport: { width: 1440, height: 900 },
  },
  webServer: {
    command: `VITE_NO_HMR=1 npx vite --port ${port} --strictPort`,
    url: `http://localhost:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
  },
});
