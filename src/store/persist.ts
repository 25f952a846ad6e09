// Runs kept in the browser (IndexedDB database "co-rl-playground"): object store `runs` holds RunFile
// records (src/formats/runFile.ts), `snapshots` the trainer snapshot bytes of each run (src/rl/snapshot.ts),
// and `meta` the "last run" pointer. A run and its snapshot are written in ONE readwrite transaction, so a
// crash mid-save leaves the previous complete pair, never half of one. Each tab writes only its own run key
// and holds a Web Lock on it while it owns the run, so two tabs never write, or resume, the same run.
// Every failure (a quota error included) rejects with a message saying what failed; nothing is swallowed.
import type { RunFile } from '../formats/runFile';

export const DB_NAME = 'co-rl-playground';
export const DB_VERSION = 1;
const RUNS = 'runs';
const SNAPSHOTS = 'snapshots';
const META = 'meta';
const LAST = 'last';

/** The "last run" pointer: the most recently saved run key of any tab. */
export interface LastRun {
  key: string;
  savedAt: string;
}

/** A failed IndexedDB request or transaction, with its DOMException name (e.g. QuotaExceededError). */
export class PersistError extends Error {
  constructor(
    readonly what: string,
    readonly errorName: string,
    detail: string,
  ) {
    super(
      `${what} failed: ${errorName}${detail ? ` (${detail})` : ''}${errorName === 'QuotaExceededError' ? ' - the browser storage quota for this site is full' : ''}`,
    );
    this.name = 'PersistError';
  }
}

const toPersistError = (what: string, e: unknown): PersistError =>
  e instanceof PersistError
    ? e
    : e instanceof DOMException || e instanceof Error
      ? new PersistError(what, e.name, e.message)
      : new PersistError(what, 'Error', String(e));

/** Whether this page can keep runs (IndexedDB exists). */
export function persistenceAvailable(): boolean {
  return typeof indexedDB !== 'undefined';
}

let dbPromise: Promise<IDBDatabase> | null = null;

/** Open (and on first use create) the database; one connection per page. */
export function openDb(): Promise<IDBDatabase> {
  dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
    if (!persistenceAvailable()) {
      reject(new PersistError('opening the run store', 'NotSupportedError', 'this browser has no IndexedDB'));
      return;
    }
    const req = indexedDB.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      for (const name of [RUNS, SNAPSHOTS, META])
        if (!db.objectStoreNames.contains(name)) db.createObjectStore(name);
    };
    req.onsuccess = () => {
      const db = req.result;
      // a newer version of the app in another tab wants to upgrade: let it (this tab reopens on next use)
      db.onversionchange = () => {
        db.close();
        dbPromise = null;
      };
      db.onclose = () => {
        dbPromise = null;
      };
      resolve(db);
    };
    req.onerror = () => reject(toPersistError('opening the run store', req.error));
    req.onblocked = () =>
      reject(
        new PersistError(
          'opening the run store',
          'BlockedError',
          'another tab holds an older version of the database open',
        ),
      );
  });
  dbPromise.catch(() => (dbPromise = null));
  return dbPromise;
}

/** Run `body` in one transaction; resolves with its result when the transaction has committed. */
async function inTransaction<T>(
  what: string,
  stores: string[],
  mode: IDBTransactionMode,
  body: (tx: IDBTransaction) => () => T,
): Promise<T> {
  const db = await openDb();
  return new Promise<T>((resolve, reject) => {
    let tx: IDBTransaction;
    try {
      tx = db.transaction(stores, mode);
    } catch (e) {
      reject(toPersistError(what, e));
      return;
    }
    let result: () => T;
    try {
      result = body(tx);
    } catch (e) {
      // e.g. DataCloneError from put(): nothing of this transaction is kept
      try {
        tx.abort();
      } catch {
        /* already finished */
      }
      reject(toPersistError(what, e));
      return;
    }
    tx.oncomplete = () => resolve(result());
    tx.onabort = () =>
      reject(toPersistError(what, tx.error ?? new DOMException('the transaction was aborted', 'AbortError')));
    tx.onerror = (ev) => {
      ev.preventDefault(); // the abort handler reports it
    };
  });
}

/**
 * Save `run` under `key` with, in the same transaction, its snapshot bytes (`snapshot`: ArrayBuffer to
 * write, null to delete the key's snapshot, undefined to leave it) and the "last run" pointer.
 */
export function saveRun(key: string, run: RunFile, snapshot?: ArrayBuffer | null): Promise<void> {
  return inTransaction(`saving run ${key}`, [RUNS, SNAPSHOTS, META], 'readwrite', (tx) => {
    tx.objectStore(RUNS).put(run, key);
    if (snapshot === null) tx.objectStore(SNAPSHOTS).delete(key);
    else if (snapshot !== undefined) tx.objectStore(SNAPSHOTS).put(snapshot, key);
    const last: LastRun = { key, savedAt: run.savedAt };
    tx.objectStore(META).put(last, LAST);
    return () => undefined;
  });
}

/** The run saved under `key` (unchecked: validate it) and its snapshot bytes, read in one transaction. */
export function loadRun(key: string): Promise<{ run: unknown; snapshot: ArrayBuffer | null } | null> {
  return inTransaction(`reading run ${key}`, [RUNS, SNAPSHOTS], 'readonly', (tx) => {
    const r = tx.objectStore(RUNS).get(key);
    const s = tx.objectStore(SNAPSHOTS).get(key);
    return () => {
      if (r.result === undefined) return null;
      const snap: unknown = s.result;
      return { run: r.result as unknown, snapshot: snap instanceof ArrayBuffer ? snap : null };
    };
  });
}

/** The "last run" pointer, or null. */
export function lastRun(): Promise<LastRun | null> {
  return inTransaction('reading the last-run pointer', [META], 'readonly', (tx) => {
    const r = tx.objectStore(META).get(LAST);
    return () => {
      const v = r.result as Partial<LastRun> | undefined;
      return v && typeof v.key === 'string' ? { key: v.key, savedAt: String(v.savedAt ?? '') } : null;
    };
  });
}

/** Delete the run saved under `key` and its snapshot (and the pointer when it names `key`), atomically. */
export function deleteRun(key: string): Promise<void> {
  return inTransaction(`deleting run ${key}`, [RUNS, SNAPSHOTS, META], 'readwrite', (tx) => {
    tx.objectStore(RUNS).delete(key);
    tx.objectStore(SNAPSHOTS).delete(key);
    const meta = tx.objectStore(META);
    const r = meta.get(LAST);
    r.onsuccess = () => {
      if ((r.result as Partial<LastRun> | undefined)?.key === key) meta.delete(LAST);
    };
    return () => undefined;
  });
}

/** Keys of every saved run (tests and housekeeping). */
export function runKeys(): Promise<string[]> {
  return inTransaction('listing saved runs', [RUNS], 'readonly', (tx) => {
    const r = tx.objectStore(RUNS).getAllKeys();
    return () => (r.result as IDBValidKey[]).map(String);
  });
}

const held = new Map<string, () => void>();

/**
 * Claim run `key` for this tab: true when no other tab holds it (Web Locks; held until `releaseRun` or
 * the page goes away). Without Web Locks (old browsers) every claim succeeds.
 */
export function claimRun(key: string): Promise<boolean> {
  if (held.has(key)) return Promise.resolve(true);
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return Promise.resolve(true);
  return new Promise<boolean>((resolve, reject) => {
    locks
      .request(`co-rl-run:${key}`, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(false);
          return undefined;
        }
        resolve(true);
        return new Promise<void>((release) => held.set(key, release));
      })
      .catch((e: unknown) => reject(toPersistError(`claiming run ${key}`, e)));
  });
}

/** Let other tabs claim run `key`. */
export function releaseRun(key: string): void {
  held.get(key)?.();
  held.delete(key);
}
