// The compare view's I/O (issue 15): import several run files at once (all checked first: one bad file
// and none is added, the problems listed per file), keep a copy of the current run, and list the runs
// saved in this browser (src/store/persist.ts: each tab's run) so earlier runs can be shown again.
import { loadRun as loadSaved, persistenceAvailable, runKeys } from './persist';
import { labRunFromFile, currentLabRun, type LabRun } from '../formats/labRuns';
import { parseRunFileBytes, RUN_FILE_MAX_CHARS, validateRunFile, type RunFile } from '../formats/runFile';
import { useStore } from './store';

let kept = 0;

/** Read one file into a run file, or its problems. */
async function readRunFile(f: File): Promise<{ ok: true; run: RunFile } | { ok: false; errors: string[] }> {
  if (f.size > RUN_FILE_MAX_CHARS)
    return {
      ok: false,
      errors: [`the file is ${(f.size / 1048576).toFixed(0)} MB, more than a run file can be`],
    };
  try {
    return parseRunFileBytes(new Uint8Array(await f.arrayBuffer()));
  } catch (e) {
    return { ok: false, errors: [`could not read the file: ${e instanceof Error ? e.message : String(e)}`] };
  }
}

/** A stable id for an imported file (name and save time), so importing it twice adds it once. */
const importId = (run: RunFile, file: string): string => `file:${file}|${run.savedAt}|${run.name}`;

/**
 * Add run files to the compare list, shown. Every file is checked before any is added: if one is
 * refused, the notice lists each refused file's problems and the list stays as it was.
 */
export async function importLabFiles(files: readonly File[]): Promise<boolean> {
  const st = useStore.getState();
  const read = await Promise.all(files.map(async (f) => ({ f, r: await readRunFile(f) })));
  const bad = read.filter((x) => !x.r.ok);
  if (bad.length) {
    const lines = bad.flatMap(({ f, r }) => (r.ok ? [] : [`${f.name}:`, ...r.errors.map((e) => `  ${e}`)]));
    st.setLabNotice({
      kind: 'error',
      title: `Refused ${bad.length} of ${files.length} file${files.length === 1 ? '' : 's'}; nothing was added`,
      lines,
    });
    return false;
  }
  const runs = read
    .map(({ f, r }) => (r.ok ? labRunFromFile(r.run, importId(r.run, f.name), 'imported') : null))
    .filter((x): x is LabRun => x !== null);
  st.addLabRuns(runs, true);
  st.setLabNotice({
    kind: 'ok',
    title: `Added ${runs.length} run${runs.length === 1 ? '' : 's'}`,
    lines: [],
  });
  return true;
}

/** Keep a copy of the current run in the list (it stays when a new run starts), shown. */
export function keepCurrentRun(): void {
  const s = useStore.getState();
  const name =
    s.runName.trim() || s.imported?.name || `${s.runSettings.methods.join('+')} seed ${s.runSettings.seed}`;
  keepRunAs(`${name} (kept at step ${s.runStatus.step})`);
}

/** Keep a copy of the current run under `name`, shown. */
export function keepRunAs(name: string): void {
  const s = useStore.getState();
  s.addLabRuns([{ ...currentLabRun(s), id: `kept:${++kept}:${Date.now()}`, name, source: 'kept' }], true);
}

/**
 * The runs saved in this browser (every tab's last run, IndexedDB), checked like imported files; those
 * that fail the checks are skipped and counted in the notice. Added to the list, not shown.
 */
export async function loadSavedRuns(): Promise<number> {
  if (!persistenceAvailable()) return 0;
  const st = useStore.getState();
  try {
    const own = st.persist.runKey; // this tab's run is the current run, always offered
    const keys = (await runKeys()).filter((k) => k !== own);
    const runs: LabRun[] = [];
    let skipped = 0;
    for (const key of keys) {
      const got = await loadSaved(key);
      const v = got ? validateRunFile(got.run) : null;
      if (v?.ok) runs.push(labRunFromFile(v.run, `saved:${key}`, 'saved'));
      else skipped++;
    }
    st.addLabRuns(runs, false);
    if (skipped)
      st.setLabNotice({
        kind: 'error',
        title: `${skipped} saved run${skipped === 1 ? '' : 's'} of another version or damaged were skipped`,
        lines: [],
      });
    return runs.length;
  } catch (e) {
    st.setLabNotice({
      kind: 'error',
      title: 'Could not list the runs saved in this browser',
      lines: [e instanceof Error ? e.message : String(e)],
    });
    return 0;
  }
}
