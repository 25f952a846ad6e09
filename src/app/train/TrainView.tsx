// The Train view (the default view): build a cohort, pick methods and hyperparameters, run them in the
// training worker in lock step, and watch the live charts. Layout: settings column + chart grid.
import { useEffect } from 'react';
import { useStore } from '../../store/store';
import { settingsProblems } from '../../store/runConfigSlice';
import { loadCatalog } from '../../store/trainBridge';
import { EngineBanner } from '../demo/EngineBanner';
import { CohortBuilder } from './CohortBuilder';
import { HyperParams } from './HyperParams';
import { RunControls } from './RunControls';
import { TrainCharts } from './TrainCharts';
import './train.css';

export function TrainView() {
  const settings = useStore((s) => s.runSettings);
  const presets = useStore((s) => s.presets);
  const started = useStore((s) => s.runStatus.phase !== 'idle');
  const agents = presets.find((p) => p.name === settings.preset)?.agents.length;
  const problems = settingsProblems(settings, agents);

  useEffect(() => {
    void loadCatalog();
  }, []);

  return (
    <div className="train-view">
      <aside className="train-settings">
        <CohortBuilder settings={settings} presets={presets} problem={problems.methods ?? problems.preset} />
        <HyperParams settings={settings} problems={problems} />
      </aside>
      <div className="train-main">
        <RunControls canStart={Object.keys(problems).length === 0} />
        {started && <EngineBanner />}
        <TrainCharts />
      </div>
    </div>
  );
}
