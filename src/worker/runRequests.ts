// The training worker's answers to the page's requests about the loaded run, made between lock steps: the
// inspector's latest step and attention maps, and every method's agents as checkpoint files. Never throw:
// a bad request or a failure is posted as an event with the reason.
import type { InspectCommand, TrainEvent } from './protocol';
import type { TrainSession } from './trainSession';

type Post = (e: TrainEvent, transfer?: Transferable[]) => void;
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Answer an inspector request from `session` (null: none loaded) of run `id`. */
export async function answerInspect(
  session: TrainSession | null,
  id: number,
  cmd: InspectCommand,
  post: Post,
): Promise<void> {
  try {
    const methods = session?.config.methods ?? [];
    const tr = session?.trainers.find((t) => t.opts.method === cmd.method);
    if (session && !tr)
      throw new Error(
        `method ${JSON.stringify(cmd.method)} is not in this run; its methods: ${methods.join(', ')}`,
      );
    if (cmd.type === 'inspect') {
      post({ type: 'inspection', runId: id, method: cmd.method, inspection: tr?.latestInspection ?? null });
      return;
    }
    if (!tr) throw new Error('no run is loaded: start a run first');
    const a = await tr.attention(cmd.agent, cmd.prompt, cmd.sample, cmd.layer);
    const { method, agent, prompt, sample, layer } = cmd;
    post({ type: 'attention', runId: id, method, agent, prompt, sample, layer, ...a });
  } catch (e) {
    post({ type: 'inspectError', runId: id, request: cmd, message: message(e) });
  }
}

/** Post every method's agents of `s` (null: none loaded) as checkpoint files. */
export async function postCheckpoints(s: TrainSession | null, id: number, post: Post): Promise<void> {
  if (!s) {
    post({
      type: 'checkpoints',
      runId: id,
      step: 0,
      files: [],
      message: 'no run is loaded: start a run first',
    });
    return;
  }
  try {
    const made = await s.exportCheckpoints();
    const files = made.map((f) => ({
      method: f.method,
      agent: f.agent,
      name: f.name,
      bytes: f.bytes.buffer as ArrayBuffer,
    }));
    post(
      { type: 'checkpoints', runId: id, step: s.step, files, message: '' },
      files.map((f) => f.bytes),
    );
  } catch (e) {
    post({
      type: 'checkpoints',
      runId: id,
      step: s.step,
      files: [],
      message: `could not export the checkpoints: ${message(e)}`,
    });
  }
}
