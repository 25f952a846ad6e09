// "Export checkpoints" in the Train view: asks the training worker for every method's agents as .ckpt
// files (answered between lock steps) and downloads them, saying what was exported or why nothing was
// (the persist slice's `exporting` and `exportMessage`).
import { downloadBlob } from './shareBridge';
import { useStore } from './store';
import { onTrainEvents, sendTrainCommand } from './trainBridge';
import type { TrainEvent } from '../worker/protocol';

const setPersist = (p: Parameters<ReturnType<typeof useStore.getState>['setPersist']>[0]) =>
  useStore.getState().setPersist(p);

let listening = false;

/** The worker's answer for the store's run, while an export is asked for. */
function receiveCheckpoints(events: readonly TrainEvent[]): void {
  const runId = useStore.getState().metrics.runId;
  for (const e of events) {
    if (e.type !== 'checkpoints' || e.runId !== runId || !useStore.getState().persist.exporting) continue;
    if (e.files.length === 0) {
      setPersist({ exporting: false, exportMessage: `Nothing exported: ${e.message}` });
      continue;
    }
    for (const f of e.files) downloadBlob(new Blob([f.bytes], { type: 'application/octet-stream' }), f.name);
    setPersist({
      exporting: false,
      exportMessage: `Exported ${e.files.length} checkpoint files at step ${e.step}: ${e.files.map((f) => f.name).join(', ')}`,
    });
  }
}

/** Download every method's agents as .ckpt files (answered by the worker between lock steps). */
export function exportCheckpoints(): void {
  if (!listening) onTrainEvents(receiveCheckpoints);
  listening = true;
  setPersist({ exporting: true, exportMessage: 'Collecting the agents…' });
  sendTrainCommand({ type: 'exportCheckpoints' });
}
