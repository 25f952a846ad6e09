// The page's side of the per-adapter kernel choice cache: one IndexedDB record per adapter name (the
// ChoiceCache of ./choices.ts, which checks adapter and kernel version when loading). Where IndexedDB is
// missing or fails (private mode, Node) the cache is empty and saving does nothing: choices are then
// measured again, never an error.
import { idbKv } from '../idbKv';

const kv = idbKv('co-rl-kernel-choices', 'choices');

/** The stored record for `adapter` (null when there is none or no IndexedDB). */
export const loadChoicesIdb = (adapter: string): Promise<unknown> => kv.get(adapter);

/** Store `record` for `adapter` (resolves false when it could not be stored). */
export const saveChoicesIdb = (adapter: string, record: unknown): Promise<boolean> => kv.set(adapter, record);
