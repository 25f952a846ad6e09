// The life of one training run in the worker (TrainController's run loop, in a file of its own): load the
// backend and the cohort, evaluate the base agents (or restore a saved run), then take lock steps while the
// step budget allows, with the faults of docs/architecture.md: a divergence rolls the lock step back and
// pauses; a lost device is recreated and the run reloaded from the kept snapshot, no step lost or repeated.
import type { ReadBytes } from '../cohort/manifest';
import type { BackendPreference } from '../engine/select';
import type { ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';
import { TrainingDivergedError } from '../rl/trainer';
import type { PretrainOptions } from './browserPretrain';
import { lostReason } from './deviceLoss';
import type { TrainCommand } from './protocol';
import type { TrainController } from './trainController';
import { TrainSession } from './trainSession';
import { runRegimeAtStart } from './regimeRequest';
import { autoShapeOf } from './autoShape';
import { registerKept } from './taskFiles';
import { poolModels } from './pagePool';

/** A saved run to continue (see the 'start' command). */
type Resume = NonNullable<Extract<TrainCommand, { type: 'start' }>['resume']>;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** In-memory snapshots are kept after every lock step while one costs less than this share of a lock step. */
export const KEEP_SHARE = 0.1;

/** The whole life of one run of controller `c`: load, evaluate the base agents, then step while the budget allows. */
export async function runLoop(
  c: TrainController,
  id: number,
  config: ExperimentConfig,
  pref: BackendPreference,
  pretrain: PretrainOptions | undefined,
  resume?: Resume,
): Promise<void> {
  const aborted = () => id !== c.runId;
  const total = config.steps;
  c.good = null;
  c.keepDue = false;
  c.lostFlag = false;
  let session: TrainSession | null = null;
  /** A finished run stays loaded (as `current`) for the inspector until the next start, reset or close. */
  let kept = false;
  const note = (m: string, work?: number) => c.status(id, 'loading', resume?.step ?? 0, total, m, work);
  /** The step of the latest snapshot posted (none yet: -1). */
  let snapped = -1;
  const snap = async (s: TrainSession, phase: 'running' | 'paused' | 'done') => {
    if (snapped === s.step || aborted()) return;
    snapped = s.step;
    await c.postSnapshot(id, s, phase);
  };
  try {
    if (c.taskFile) {
      note(`Reading the task file ${c.taskFile.name}…`);
      registerKept(c.taskFile); // the page's dropped file, checked again here: the config names its hash
    }
    note('Looking for a GPU…');
    const be = await c.getBackend(pref, autoShapeOf(config));
    if (aborted()) return;
    const built = await c.axisBuilds.resolve(be, config, {
      recipe: pretrain?.recipe,
      aborted,
      note,
      notice: (message) => c.env.post({ type: 'notice', runId: id, message }),
      shipped: c.read, // builds shipped with the app (public/checkpoints/cache)
      pool: (builds) =>
        c.pool.builds(be, c.workers, builds, (message) => c.env.post({ type: 'notice', runId: id, message })),
    });
    if (!built || aborted()) return;
    config = built;
    if (pretrain && !(await c.pretrainCache.pretrain(be, config, pretrain, aborted, note))) return;
    const shipped = c.read;
    const read: ReadBytes = (path) => {
      // pretrained bytes only stand in when this run pretrains; imported ones whenever the page sent them
      const own =
        c.axisBuilds.served.get(path) ??
        (pretrain ? c.pretrainCache.get(path) : undefined) ??
        c.imported.get(path);
      return own ? Promise.resolve(own) : shipped(path);
    };
    const models = async (b: typeof be, cfg: ExperimentConfig) => {
      const m = poolModels(cfg);
      const f = await c.pool.factory(b, c.workers, m, (message) =>
        c.env.post({ type: 'notice', runId: id, message }),
      );
      c.env.post({ type: 'pool', runId: id, workers: f ? Math.min(c.workers, m) : 1 });
      return f;
    };
    session = await TrainSession.open(be, config, read, note, await models(be, config));
    c.current = session;
    c.lastConfig = session.config;
    if (aborted()) return;
    const onEval = (record: EvalRecord) => c.env.post({ type: 'eval', runId: id, record });
    const s0 = session;
    c.arm(s0);
    /** Lock steps whose step records, and the latest step whose evaluation, the page has (a re-run posts neither again). */
    let posted = resume?.step ?? 0;
    let evaled = resume ? resume.step : -1;
    if (resume) {
      note(`Restoring the saved run at step ${resume.step}…`);
      const had = { lr: s0.config.train.lr, temperature: s0.config.train.temperature };
      const kept0 = new Uint8Array(resume.snapshot).slice();
      const live = await c.exclusive(() => s0.restore(resume.snapshot, resume.step));
      c.good = { runId: id, step: s0.step, bytes: kept0 };
      snapped = s0.step; // the page holds this snapshot already
      const changed = Object.fromEntries(
        Object.entries(live).filter(([k, v]) => had[k as keyof typeof had] !== v),
      );
      if (Object.keys(changed).length) c.env.post({ type: 'live', runId: id, params: changed });
    } else {
      if (!(await c.exclusive(() => s0.evaluate(onEval, aborted, note)))) return;
      evaled = 0;
      await runRegimeAtStart(c, id, s0, c.startRegime, note);
      if (aborted()) return;
      await snap(s0, c.budget > 0 ? 'running' : 'paused'); // step 0: a reload can resume from the base
    }
    // ---- faults (docs/architecture.md "Faults") ----
    /** Seconds the latest in-memory snapshot took, and the latest lock step (with its evaluation). */
    let keepCost = 0;
    let stepCost = Infinity;
    const keep = async (s: TrainSession) => {
      if (!c.keepDue && c.good?.runId === id && c.good.step === s.step) return;
      c.keepDue = false;
      const t0 = performance.now();
      try {
        const bytes = await c.exclusive(() => s.snapshot());
        if (!aborted()) c.good = { runId: id, step: s.step, bytes };
      } catch {
        c.keepDue = true; // the older snapshot stays the recovery point; try again after the next step
      }
      keepCost = (performance.now() - t0) / 1000;
    };
    /** One lock step (and its evaluation if due); records the page already has are not posted again. */
    const advance = async (s: TrainSession, running: (m: string) => void): Promise<boolean> => {
      const rs: StepRecord[] = [];
      const postSteps = () =>
        rs.forEach((record) => record.step > posted && c.env.post({ type: 'step', runId: id, record }));
      let ok: boolean;
      try {
        ok = await c.exclusive(() => s.lockStep((r) => rs.push(r), aborted, running));
      } catch (e) {
        // a divergence, a lost device or a stopped model worker undoes the lock step: none of it is shown; any other error shows what finished
        if (!(e instanceof TrainingDivergedError) && (await lostReason(c.backend)) === null && !c.pool.broken)
          postSteps();
        throw e;
      }
      if (!ok) return false;
      postSteps();
      posted = Math.max(posted, s.step);
      if (!s.evalDue) return true;
      const es: EvalRecord[] = [];
      const postEvals = () => s.step > evaled && es.forEach(onEval);
      try {
        ok = await c.exclusive(() => s.evaluate((r) => es.push(r), aborted, running));
      } catch (e) {
        if ((await lostReason(c.backend)) === null && !c.pool.broken) postEvals();
        throw e;
      }
      if (!ok) return false;
      postEvals();
      evaled = Math.max(evaled, s.step);
      return true;
    };
    /** Put `s` back at the kept snapshot and re-run (silently) up to lock step `to`, keeping the live values it has now. */
    const rollBack = async (s: TrainSession, to: number, note2: (m: string) => void): Promise<boolean> => {
      const g = c.good;
      if (!g || g.runId !== id || g.step > to)
        throw new Error(`no snapshot at or before step ${to} was kept to roll back to`);
      const live = { lr: s.config.train.lr, temperature: s.config.train.temperature };
      await c.exclusive(() => s.restore(g.bytes.slice(), g.step));
      while (s.step < to) if (!(await advance(s, note2))) return false;
      s.setLive(live);
      return true;
    };
    /** A NaN/inf in lock step `e.step`: undo the whole lock step for every method, keep what was shown, pause. */
    const diverged = async (s: TrainSession, e: TrainingDivergedError): Promise<string> => {
      const f = e.step;
      const method = s.trainers.find((t) => t.stepCount < f)?.opts.method ?? 'a method';
      // the diverging trainer put its agents back itself; methods earlier in the lock step finished it: undo theirs
      if (s.trainers.some((t) => t.stepCount >= f))
        await rollBack(s, f - 1, (m) => c.status(id, 'running', f - 1, total, m));
      const what = (/^non-finite (.+?) for agent/.exec(e.message)?.[1] ?? 'value').replace(
        / \((.*)\)$/,
        ': $1',
      );
      const msg =
        `Paused: ${method} agent ${e.agent} diverged at step ${f} (${what}). ${e.agent} was rolled back to its state after step ${f - 1}, ` +
        `and so was every other agent (the lock step was not applied); the metrics up to step ${f - 1} are kept. Lower the learning rate, then Resume.`;
      c.env.post({ type: 'fault', runId: id, kind: 'diverged', step: s.step, message: msg });
      for (const t of s.trainers) delete t.opts.faultInjection; // the test hook fires once (a transient fault)
      c.injectNaN = undefined;
      return msg;
    };
    /** The device is lost: a new backend, the session opened again, the kept snapshot restored, the steps after it re-run. */
    const recover = async (old: TrainSession, reason: string, worker = false): Promise<boolean> => {
      const what = worker ? `A model worker stopped (${reason})` : `The GPU device was lost (${reason})`;
      const g = c.good;
      if (!g || g.runId !== id)
        throw new Error(`${what} before the run kept a snapshot to reload from; start the run again.`);
      const msg = `${what}. ${worker ? 'Restarting the model workers' : 'Recreating it'} and reloading the agents from step ${g.step}…`;
      c.env.post({ type: 'fault', runId: id, kind: 'deviceLost', step: g.step, message: msg });
      c.status(id, 'loading', posted, total, msg);
      const live = { lr: old.config.train.lr, temperature: old.config.train.temperature };
      if (c.current === old) c.current = null;
      session = null;
      await c.exclusive(async () => {
        try {
          old.dispose();
        } catch {
          // its buffers went with the device
        }
      });
      const dead = c.backend;
      c.backend = null;
      try {
        dead?.destroy();
      } catch {
        // already gone
      }
      const be = await c.getBackend(pref, autoShapeOf(old.config));
      if (aborted()) return false;
      const ns = await TrainSession.open(
        be,
        old.config,
        read,
        (m) => c.status(id, 'loading', posted, total, m),
        await models(be, old.config),
      );
      session = ns;
      c.current = ns;
      c.arm(ns);
      if (aborted()) return false;
      if (!(await rollBack(ns, posted, (m) => c.status(id, 'loading', posted, total, `${msg} ${m}`))))
        return false;
      ns.setLive(live);
      c.keepDue = true;
      const done =
        `${what}; recovered: every agent was reloaded from step ${g.step} ${worker ? 'into new model workers' : be.info.name === 'webgpu' ? 'on a new WebGPU device' : `on the ${be.info.name === 'wasm' ? 'WebAssembly SIMD engine' : 'CPU backend'} (WebGPU could not be recreated)`}` +
        (g.step + 1 === ns.step
          ? ` and step ${ns.step} was re-run`
          : g.step < ns.step
            ? ` and steps ${g.step + 1}-${ns.step} were re-run`
            : '') +
        `; training continues from step ${ns.step}, nothing was lost or repeated.`;
      c.env.post({ type: 'fault', runId: id, kind: 'recovered', step: ns.step, message: done });
      return true;
    };
    let pauseNote = '';
    while (session.step < total) {
      if (aborted()) return;
      if (c.lostFlag) {
        if (!(await recover(session, (await lostReason(c.backend)) ?? 'unknown reason'))) return;
        continue;
      }
      if (c.budget <= 0) {
        await snap(session, 'paused');
        c.status(
          id,
          'paused',
          session.step,
          total,
          pauseNote || 'Paused: Resume, or Step for one more step of every method.',
        );
        pauseNote = '';
        await new Promise<void>((r) => (c.wake = r));
        c.wake = null;
        continue;
      }
      const s = session;
      if (c.keepDue) await keep(s); // a live change: the recovery point gets the new values
      c.budget--;
      const running = (m: string) => c.status(id, 'running', s.step, total, m);
      const t0 = performance.now();
      try {
        if (!(await advance(s, running))) return;
      } catch (e) {
        if (aborted()) return;
        c.budget++; // the lock step did not happen
        if (e instanceof TrainingDivergedError) {
          pauseNote = await diverged(s, e);
          c.budget = 0;
          continue;
        }
        const lost = await lostReason(c.backend);
        if (lost === null && c.pool.broken) {
          // a model worker died mid-step: new workers, the kept snapshot, the steps after it re-run
          if (!(await recover(s, message(e), true))) return;
          continue;
        }
        if (lost === null) throw e;
        if (!(await recover(s, lost))) return;
        continue;
      }
      stepCost = (performance.now() - t0) / 1000;
      if (c.snapshotEvery > 0 && s.step % c.snapshotEvery === 0 && s.step < total)
        await snap(s, c.budget > 0 ? 'running' : 'paused');
      else if (
        s.step < total &&
        (keepCost < (c.env.keepShare ?? KEEP_SHARE) * stepCost ||
          s.step - (c.good?.step ?? 0) >= (c.snapshotEvery || 5))
      )
        await keep(s);
      // yield to the message queue between lock steps (pause, live changes), and apply the speed delay
      await sleep(c.budget > 0 ? c.delayMs : 0);
    }
    kept = true;
    await snap(session, 'done');
    c.status(
      id,
      'done',
      session.step,
      total,
      `Done: ${total} steps of ${session.config.methods.join(', ')}.`,
    );
  } catch (e) {
    if (aborted()) return;
    c.status(id, 'error', session?.step ?? 0, total, message(e));
    c.env.post({ type: 'error', runId: id, message: message(e) });
  } finally {
    if (!kept) {
      if (c.current === session) c.current = null;
      const gone = session;
      await c.exclusive(async () => gone?.dispose()); // after any inspector forward in flight
    }
  }
}
