// Which saved run this tab owns (used by ./persistBridge.ts): the tab's run key kept in sessionStorage (it
// survives a reload of the tab, not a new tab), new keys, claims retried while a reloaded page's old
// document lets go, and how the document was reached (a reload or a navigation to a link).
import { claimRun } from './persist';

/** sessionStorage key of this tab's run key. */
const TAB_KEY = 'co-rl-playground:run-key';

/** This tab's run key from an earlier document of the tab, or null (none, or storage blocked). */
export function readTabKey(): string | null {
  try {
    return sessionStorage.getItem(TAB_KEY);
  } catch {
    return null; // storage blocked: no per-tab key
  }
}

/** Remember `key` as this tab's run key (nothing when storage is blocked). */
export function writeTabKey(key: string): void {
  try {
    sessionStorage.setItem(TAB_KEY, key);
  } catch {
    /* storage blocked */
  }
}

/** How this document was reached: 'navigate' (a link, the address bar), 'reload', 'back_forward'. */
export function navigationType(): string {
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav?.type ?? 'navigate';
}

/** A fresh run key. */
export function newKey(): string {
  return typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** Claim a run key, trying `tries` times 250 ms apart (a reloaded page's old document may still hold it). */
export async function claimWithRetry(k: string, tries: number): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 250));
    if (await claimRun(k)) return true;
  }
  return false;
}
