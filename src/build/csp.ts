// The Content-Security-Policy of the built app (issue 7: no eval, no inline script). Injected as a
// <meta http-equiv> tag into the built index.html (so it holds on any static host) and sent as a header by
// `vite preview`. The dev server is exempt: React Fast Refresh needs an inline preamble there.
import type { Plugin } from 'vite';

/** One directive per entry; everything the app loads comes from its own origin. */
export const CSP_DIRECTIVES: readonly string[] = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'", // no 'unsafe-eval', no 'unsafe-inline'; wasm compile only (the wasm engine)
  "worker-src 'self'", // the training worker is a separate module file
  "style-src 'self'", // React sets style props through the CSSOM, which CSP allows
  "img-src 'self' data: blob:", // exported PNGs and canvases
  "connect-src 'self'", // the checkpoint manifest and files
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

export const CSP = CSP_DIRECTIVES.join('; ');

/** Vite plugin: the CSP meta tag in the built index.html (build only). */
export function cspPlugin(): Plugin {
  return {
    name: 'co-rl-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP },
          injectTo: 'head-prepend',
        },
      ],
    },
  };
}
