// Connects the Train view's regime check (docs/method.md, "The regime") to the training worker: sends a
// 'regime' command for the settings' base agents (the cohort, its task, the rollout K and temperature,
// regimeProblems validation problems) and folds the answers into the regime slice; the run's start command
// carries the panel's report so the worker reuses it at step 0 when it matches (src/worker/regimeRequest.ts).
import { appBaseUrl } from '../cohort/fetchReader';
import type { TrainEvent } from '../worker/protocol';
import { cohortContext } from '../formats/customCohort';
import { cohortStartFields } from './cohortStart';
import { taskFileStartField } from '../formats/taskFileTask';
import { settingsProblems, toExperimentConfig } from '../formats/runSettings';
import { regimeKey } from './regimeSlice';
import { useStore } from './store';
import { onTrainEvents, sendTrainCommand } from './trainBridge';

/** Why the settings cannot be checked now ('' when they can): the fields the check reads must be valid. */
export function regimeProblem(): string {
  const s = useStore.getState();
  const preset = s.presets.find((p) => p.name === s.runSettings.preset);
  const pr = settingsProblems(
    s.runSettings,
    preset?.agents.length,
    cohortContext(s.presets, s.importedCheckpoints, s.taskFiles),
  );
  const fields = [
    'preset',
    'customAgents',
    'customTask',
    'samples',
    'temperature',
    'regimeProblems',
  ] as const;
  const bad = fields.filter((f) => pr[f]).map((f) => `${f}: ${pr[f]}`);
  if (!(Number.isInteger(s.runSettings.regimeProblems) && s.runSettings.regimeProblems >= 10))
    bad.push(`regimeProblems: the check needs at least 10 problems, got ${s.runSettings.regimeProblems}`);
  return bad.join('; ');
}

let listening = false;

function onEvents(events: readonly TrainEvent[]): void {
  const st = useStore.getState();
  for (const e of events) {
    if (!('requestId' in e) || e.requestId !== useStore.getState().regimeCheck.requestId) continue;
    if (e.type === 'regimeStatus') st.setRegimeCheck({ message: e.message });
    else if (e.type === 'regime')
      st.setRegimeCheck({
        phase: 'done',
        report: e.report,
        backend: e.backend,
        seconds: e.seconds,
        message: `Measured on ${e.backend} in ${e.seconds.toFixed(1)} s.`,
      });
    else if (e.type === 'regimeError') st.setRegimeCheck({ phase: 'error', message: e.message });
  }
}

/** Check the regime of the settings' base agents in the worker; returns the problem instead if invalid. */
export function checkRegime(): string {
  const problem = regimeProblem();
  if (problem) return problem;
  if (!listening) {
    onTrainEvents(onEvents);
    listening = true;
  }
  const s = useStore.getState();
  const requestId = s.regimeCheck.requestId + 1;
  const config = toExperimentConfig(s.runSettings);
  s.setRegimeCheck({
    phase: 'running',
    requestId,
    key: regimeKey(s.runSettings),
    report: null,
    message: 'Starting the regime check…',
  });
  sendTrainCommand({
    type: 'regime',
    requestId,
    config,
    backend: s.runSettings.backend,
    problems: s.runSettings.regimeProblems,
    baseUrl: appBaseUrl(),
    ...cohortStartFields(s.runSettings, s.importedCheckpoints),
    ...taskFileStartField(s.runSettings, s.taskFiles),
  });
  return '';
}
