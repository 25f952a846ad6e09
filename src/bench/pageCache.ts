// The page's IndexedDB cache of builds (src/worker/checkpointStore.ts: database corl-checkpoint-cache, store
// builds) read from Node through Playwright: key -> SHA-256 of the entry's bytes. Used by the app section's
// in-page pretraining row (./pagePretrainBench.ts) and e2e/poolPretrain.spec.ts. The function handed to the
// page names no inner function: tsx's keep-names would make it call a helper the page does not have.
import type { Page } from '@playwright/test';

/** The page's cache entries as key -> SHA-256 (hex) of the bytes; `clear` empties the cache afterwards. */
export const pageCacheHashes = (page: Page, clear: boolean): Promise<Record<string, string>> =>
  page.evaluate(async (clear) => {
    const db: IDBDatabase = await new Promise((res, rej) => {
      const r = indexedDB.open('corl-checkpoint-cache');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    const entries: [string, Uint8Array<ArrayBuffer>][] = await new Promise((res, rej) => {
      const got: [string, Uint8Array<ArrayBuffer>][] = [];
      const q = db.transaction('builds', 'readonly').objectStore('builds').openCursor();
      q.onsuccess = () => {
        const c = q.result;
        if (!c) return res(got);
        got.push([String(c.key), (c.value as { bytes: Uint8Array<ArrayBuffer> }).bytes]);
        c.continue();
      };
      q.onerror = () => rej(q.error);
    });
    const out: Record<string, string> = {};
    for (const [k, bytes] of entries) {
      const h = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      out[k] = [...h].map((b) => b.toString(16).padStart(2, '0')).join('');
    }
    if (clear) {
      const tx = db.transaction('builds', 'readwrite');
      tx.objectStore('builds').clear();
      await new Promise((res) => (tx.oncomplete = res));
    }
    db.close();
    return out;
  }, clear);
