// The page's side of the per-adapter kernel choice cache: one IndexedDB record per adapter name (the
// ChoiceCache of ./choices.ts, which checks adapter and kernel version when loading). Where IndexedDB is
// missing or fails (private mode, Node) the cache is empty and saving does nothing: choices are then
// measured again, never an error.

const DB = 'co-rl-kernel-choices';
const STORE = 'choices';

function open(): Promise<IDBDatabase | null> {
  const idb = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!idb) return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = idb.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
  });
}

/** The stored record for `adapter` (null when there is none or no IndexedDB). */
export async function loadChoicesIdb(adapter: string): Promise<unknown> {
  const db = await open();
  if (!db) return null;
  return new Promise((resolve) => {
    const req = db.transaction(STORE, 'readonly').objectStore(STORE).get(adapter);
    req.onsuccess = () => resolve(req.result ?? null);
    req.onerror = () => resolve(null);
  }).finally(() => db.close());
}

/** Store `record` for `adapter` (resolves false when it could not be stored). */
export async function saveChoicesIdb(adapter: string, record: unknown): Promise<boolean> {
  const db = await open();
  if (!db) return false;
  return new Promise<boolean>((resolve) => {
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(record, adapter);
    tx.oncomplete = () => resolve(true);
    tx.onerror = () => resolve(false);
  }).finally(() => db.close());
}
