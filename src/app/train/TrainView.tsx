// The Train view (the default view): build a cohort, pick methods and hyperparameters, run them in the
// training worker in lock step, and watch the live charts. Layout: settings column + chart grid.
import { lazy, Suspense, useEffect } from 'react';
import { useStore } from '../../store/store';
import { settingsProblems } from '../../formats/runSettings';
import { cohortContext } from '../../formats/customCohort';
import { loadCatalog } from '../../store/trainBridge';
import { EngineBanner } from '../demo/EngineBanner';
import { CohortBuilder } from './CohortBuilder';
import { HyperParams } from './HyperParams';
import { ConfigEditor } from './ConfigEditor';
import { RunControls } from './RunControls';
import { TrainCharts } from './TrainCharts';
import { Inspector } from './Inspector';
import { OverlapView } from './OverlapView';
import { KeepShare } from './KeepShare';
import { UrlNotice } from './UrlNotice';
import { PersistControls } from './PersistControls';
import { GuardNotice } from './GuardNotice';
import { RegimePanel } from './RegimePanel';
import { SmoothingSlider } from '../lab/SmoothingSlider';
import './train.css';
import './composer.css';

// the lab panels load on first use, so they never delay the first chart point
const LivePortrait = lazy(() => import('../lab/LivePortrait'));

export function TrainView() {
  const settings = useStore((s) => s.runSettings);
  const presets = useStore((s) => s.presets);
  const started = useStore((s) => s.runStatus.phase !== 'idle');
  const agents = presets.find((p) => p.name === settings.preset)?.agents.length;
  const imported = useStore((s) => s.importedCheckpoints);
  const taskFiles = useStore((s) => s.taskFiles);
  const problems = settingsProblems(settings, agents, cohortContext(presets, imported, taskFiles));
  const evaluated = useStore((s) => s.metrics.methods.some((m) => (s.metrics.evals[m]?.length ?? 0) > 0));

  useEffect(() => {
    void loadCatalog();
  }, []);

  return (
    <div className="train-view">
      <aside className="train-settings">
        <CohortBuilder
          settings={settings}
          presets={presets}
          problem={problems.methods ?? problems.preset}
          agentsProblem={problems.customAgents}
          taskProblem={problems.customTask}
        />
        <HyperParams settings={settings} problems={problems} />
        <ConfigEditor />
        <KeepShare />
      </aside>
      <div className="train-main">
        <UrlNotice />
        <RunControls canStart={Object.keys(problems).length === 0} />
        <GuardNotice />
        <PersistControls />
        <RegimePanel />
        {started && <EngineBanner />}
        <div className="chart-tools">
          <SmoothingSlider />
        </div>
        <TrainCharts />
        {evaluated && (
          <Suspense fallback={null}>
            <LivePortrait />
          </Suspense>
        )}
        <Inspector />
        <OverlapView />
      </div>
    </div>
  );
}
