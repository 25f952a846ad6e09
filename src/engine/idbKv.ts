// A small key-value store over one IndexedDB object store, for the engine's caches that live in the page
// or a worker (kernel choices per adapter, backend auto's choice per adapter and shape). Where IndexedDB
// is missing or fails (private mode, Node) reads give null and writes give false: the caller measures
// again, never an error.

export interface KvStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<boolean>;
}

/** The store `store` of database `db` (created on first use). */
export function idbKv(db: string, store: string): KvStore {
  const open = (): Promise<IDBDatabase | null> => {
    const idb = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (!idb) return Promise.resolve(null);
    return new Promise((resolve) => {
      const req = idb.open(db, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(store);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
    });
  };
  return {
    async get(key) {
      const d = await open();
      if (!d) return null;
      return new Promise((resolve) => {
        const req = d.transaction(store, 'readonly').objectStore(store).get(key);
        req.onsuccess = () => resolve(req.result ?? null);
        req.onerror = () => resolve(null);
      }).finally(() => d.close());
    },
    async set(key, value) {
      const d = await open();
      if (!d) return false;
      return new Promise<boolean>((resolve) => {
        const tx = d.transaction(store, 'readwrite');
        tx.objectStore(store).put(value, key);
        tx.oncomplete = () => resolve(true);
        tx.onerror = () => resolve(false);
      }).finally(() => d.close());
    },
  };
}
