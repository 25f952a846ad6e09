// Reading shipped checkpoints in the page or a worker: fetch relative to the app's base URL (Vite's
// BASE_URL), so the same paths work in the dev server, the built app and a sub-path deployment.
import type { ReadBytes } from './manifest';

/** The app's base URL (Vite BASE_URL), resolved against the page or worker location. */
export function appBaseUrl(): string {
  const base = (import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/';
  return new URL(base, globalThis.location?.href ?? 'http://localhost/').href;
}

/** A ReadBytes that fetches `path` (relative to public/) from `base` (default: the app's base URL). */
export function fetchReader(base: string = appBaseUrl()): ReadBytes {
  return async (path) => {
    const url = new URL(path, base).href;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`could not fetch ${url}: HTTP ${res.status} ${res.statusText}`);
    return new Uint8Array(await res.arrayBuffer());
  };
}
