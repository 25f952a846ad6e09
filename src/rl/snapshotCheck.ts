// The checks a trainer snapshot must pass before CohortTrainer.restore writes it (used by ./trainer.ts).
import type { Agent } from '../cohort/agent';
import type { RewardMethod } from './rewards';
import type { TrainerSnapshot } from './snapshot';

/** Throw (naming the mismatch) unless `snap` fits a trainer of `method` and `seed` over `agents` built from `baseHashes`. */
export function checkSnapshotFits(
  snap: TrainerSnapshot,
  method: RewardMethod,
  seed: number,
  agents: Agent[],
  baseHashes: string[],
): void {
  const refuse = (why: string): never => {
    throw new Error(
      `cannot restore the ${snap.method} snapshot (step ${snap.step}) into this ${method} trainer: ${why}`,
    );
  };
  if (snap.method !== method) refuse(`it is a snapshot of method ${snap.method}`);
  if (snap.seed !== seed) refuse(`it was taken with seed ${snap.seed}, this run uses seed ${seed}`);
  if (!Number.isInteger(snap.step) || snap.step < 0) refuse(`step ${snap.step} is not a whole number >= 0`);
  const ids = agents.map((a) => a.spec.id);
  const theirs = snap.agents.map((a) => a.id);
  if (ids.join('\u0000') !== theirs.join('\u0000'))
    refuse(`its agents are [${theirs.join(', ')}], this cohort has [${ids.join(', ')}]`);
  for (const [n, s] of snap.agents.entries()) {
    const total = agents[n].model.layout.total;
    for (const [k, t] of [
      ['params', s.params],
      ['m', s.m],
      ['v', s.v],
    ] as const) {
      if (t.length !== total)
        refuse(`agent ${s.id}: ${k} has ${t.length} values, the model has ${total} parameters`);
      for (let i = 0; i < t.length; i++)
        if (!Number.isFinite(t[i])) refuse(`agent ${s.id}: ${k}[${i}] is ${t[i]}`);
    }
    if (!Number.isInteger(s.optSteps) || s.optSteps < 0)
      refuse(`agent ${s.id}: optSteps ${s.optSteps} is not a whole number >= 0`);
    if (s.baseHash !== baseHashes[n]) {
      refuse(
        `agent ${s.id} started from other base parameters (fingerprint ${s.baseHash}, these agents ${baseHashes[n]})`,
      );
    }
  }
}
