// A model worker's side of the pool: the models of every cohort it was given (one LocalModels per cohort,
// on the worker's own backend), answering the coordinator's requests one at a time in the order they came.
// Needs no tokenizer, task or reward: only model configurations, states and the plain data of ./protocol.ts.
// A `rung` trains one rung of an agent's pretraining here with the same deterministic code as Node's cache
// build (src/cohort/ladder.ts), its progress sent as it goes, and answers with the rung's figures and
// parameters; it lets messages in between steps, so a `cancel` (answered at once, not queued) stops it.
import { planAgent, runRung } from '../../cohort/ladder';
import type { Backend } from '../../engine/backend';
import { releaseDecoders } from '../../model/generate';
import { GPT } from '../../model/gpt';
import { breather } from '../../util/breathe';
import { LocalModels } from '../cohortModels';
import type { TokenFigures } from '../policy';
import type { HostMessage, HostReply } from './protocol';

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Handle `send`s replies to the requests given to `handle`, in order, on `backend`. */
export function modelHost(backend: Backend, send: (r: HostReply) => void): (m: HostMessage) => void {
  const cohorts = new Map<number, { models: GPT[]; local: LocalModels }>();
  /** Rungs asked to stop (by request id), running or queued. */
  const cancelled = new Set<number>();
  const get = (c: number) => {
    const x = cohorts.get(c);
    if (!x) throw new Error(`model worker: no cohort ${c} is open here`);
    return x;
  };
  const run = async (m: HostMessage): Promise<unknown> => {
    switch (m.op) {
      case 'open': {
        if (cohorts.has(m.cohort)) throw new Error(`model worker: cohort ${m.cohort} is open already`);
        const models = m.cfgs.map((cfg) => new GPT(backend, cfg));
        const local = new LocalModels(backend, models, m.setup);
        await local.writeState(m.states);
        await local.baseHashes(); // the frozen base copies now, before a restore writes other parameters
        cohorts.set(m.cohort, { models, local });
        return null;
      }
      case 'generate':
        return get(m.cohort).local.generate(m.jobs);
      case 'forward': {
        const figs = await get(m.cohort).local.forward(m.rows, m.plan);
        // the log-probs stay here for the update; the coordinator reads entropies and certainties
        return figs.map((f): TokenFigures => ({ ...f, logp: new Float32Array(0) }));
      }
      case 'update':
        return get(m.cohort).local.update(m.rewards, m.step, m.lr, m.fault);
      case 'rollback':
        return get(m.cohort).local.rollback();
      case 'read':
        return get(m.cohort).local.readState();
      case 'write':
        return get(m.cohort).local.writeState(m.states);
      case 'rung': {
        const stop = () => cancelled.has(m.id);
        try {
          const plan = planAgent(m.spec, m.task, { recipe: m.recipe });
          const r = await runRung(backend, plan, m.spec, m.index, {
            shouldStop: stop,
            breathe: breather(),
            onProgress: (value) => send({ kind: 'progress', id: m.id, value }),
          });
          if (stop()) throw new Error(`rung ${m.index} of agent ${m.spec.id} cancelled`);
          return r;
        } finally {
          cancelled.delete(m.id);
        }
      }
      case 'cancel':
        return null; // handled as it came (below)
      case 'close': {
        const x = cohorts.get(m.cohort);
        cohorts.delete(m.cohort);
        x?.local.dispose();
        for (const g of x?.models ?? []) {
          releaseDecoders(g);
          g.free();
        }
        return null;
      }
    }
  };
  let queue: Promise<void> = Promise.resolve();
  return (m) => {
    if (m.op === 'cancel') {
      cancelled.add(m.target); // a rung in flight sees it at its next step, a queued one at its first
      send({ kind: 'reply', id: m.id, value: null });
      return;
    }
    queue = queue.then(async () => {
      try {
        send({ kind: 'reply', id: m.id, value: (await run(m)) ?? null });
      } catch (e) {
        send({ kind: 'error', id: m.id, message: message(e) });
      }
    });
  };
}
