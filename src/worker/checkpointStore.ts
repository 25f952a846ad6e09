// Where the page keeps base checkpoints it pretrained (the in-page content-addressed cache of
// src/worker/axisBuilds.ts): IndexedDB, readable from the page and its workers, kept across reloads; a
// Map in memory where IndexedDB is missing (Node tests, some private windows).
/** One stored build: its checkpoint bytes and the "LENGTH HASH" recorded when it was stored. */
export interface StoredBuild {
  bytes: Uint8Array;
  sum: string;
}

/** A key-value store of builds. */
export interface CheckpointStore {
  /** Where the builds live, for notices ("this page's IndexedDB cache"). */
  readonly where: string;
  get(key: string): Promise<StoredBuild | undefined>;
  put(key: string, build: StoredBuild): Promise<void>;
}

/** The IndexedDB database and object store the page's builds live in. */
export const CACHE_DB = 'corl-checkpoint-cache';
export const CACHE_STORE = 'builds';

/** A store in memory (lost with the worker). */
export function memoryStore(): CheckpointStore {
  const m = new Map<string, StoredBuild>();
  return {
    where: "this worker's memory (IndexedDB is not available: builds are lost on reload)",
    get: (k) => Promise.resolve(m.get(k)),
    put: (k, b) => {
      m.set(k, b);
      return Promise.resolve();
    },
  };
}

const request = <T>(r: IDBRequest<T>): Promise<T> =>
  new Promise((res, rej) => {
    r.onsuccess = () => res(r.result);
    r.onerror = () => rej(r.error ?? new Error('IndexedDB request failed'));
  });

/** The IndexedDB store, or the memory one where IndexedDB cannot be opened. */
export async function openCheckpointStore(): Promise<CheckpointStore> {
  const idb = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!idb) return memoryStore();
  let db: IDBDatabase;
  try {
    const open = idb.open(CACHE_DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(CACHE_STORE);
    db = await request(open);
  } catch {
    return memoryStore();
  }
  const tx = (mode: IDBTransactionMode) => db.transaction(CACHE_STORE, mode).objectStore(CACHE_STORE);
  return {
    where: "this page's IndexedDB cache",
    async get(key) {
      const v = (await request(tx('readonly').get(key))) as Partial<StoredBuild> | undefined;
      if (!v || typeof v !== 'object') return undefined;
      const bytes = v.bytes instanceof Uint8Array ? v.bytes : undefined;
      return bytes ? { bytes, sum: typeof v.sum === 'string' ? v.sum : '' } : undefined;
    },
    async put(key, b) {
      await request(tx('readwrite').put({ bytes: b.bytes, sum: b.sum }, key));
    },
  };
}
