// Vite (app build, dev server) and Vitest (Node unit tests) configuration.
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { CSP, cspPlugin } from './src/build/csp.ts';

export default defineConfig({
  plugins: [react(), cspPlugin()],
  // Tests and tools set VITE_NO_HMR=1: a page under test must never reload because a file changed.
  // The dev server never opens a browser itself: a fresh or headless machine may have none to open.
  server: { port: 5173, strictPort: true, open: false, hmr: process.env.VITE_NO_HMR ? false : undefined },
  // Pre-bundle every dependency up front, so the first page load never triggers a reload.
  optimizeDeps: {
    entries: [
      'index.html',
      'e2e/harness.html',
      'src/bench/bench.html',
      'src/rl/runner.html',
      'src/soak/soak.html',
    ],
    include: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'zustand', 'recharts'],
  },
  preview: { port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CSP } },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    rollupOptions: {
      input: { main: 'index.html' },
    },
  },
  test: {
    environment: 'node',
    testTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'src/**/*.relaxed.test.ts'],
          pool: 'threads',
        },
      },
      {
        // the wasm engine's relaxed-SIMD (fused multiply-add) kernels: Node 20's V8 has them behind a flag
        extends: true,
        test: {
          name: 'relaxed-simd',
          include: ['src/**/*.relaxed.test.ts'],
          pool: 'forks',
          execArgv: ['--experimental-wasm-relaxed-simd'],
        },
      },
    ],
  },
});
