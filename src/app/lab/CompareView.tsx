// The Compare view (issue 15): the current run, imported run files, kept copies and the runs saved in
// this browser on the same charts; runs that differ only by seed drawn as one mean line with a min-max
// band; the runs table names the settings that differ; one smoothing slider for every chart.
import { useEffect, useMemo, useState } from 'react';
import type { RewardMethod } from '../../rl/rewards';
import { importLabFiles, keepCurrentRun, loadSavedRuns } from '../../store/labBridge';
import { currentLabRun } from '../../formats/labRuns';
import { useStore } from '../../store/store';
import { METHOD_LABEL } from '../train/chartData';
import { CompareChart } from './CompareChart';
import { COMPARE_METRICS, differingSettings, groupRuns, methodsOf } from './compareData';
import { FileButton, Toggle } from './controls';
import { GridPanel } from './GridPanel';
import { LabNotice } from './LabNotice';
import { RunsTable } from './RunsTable';
import { SmoothingSlider } from './SmoothingSlider';
import './lab.css';

export default function CompareView() {
  const runSettings = useStore((s) => s.runSettings);
  const runStatus = useStore((s) => s.runStatus);
  const metrics = useStore((s) => s.metrics);
  const kept = useStore((s) => s.labRuns);
  const shownIds = useStore((s) => s.labShown);
  const smoothing = useStore((s) => s.smoothing);
  const { setLabShown, removeLabRun } = useStore.getState();
  const [bySeed, setBySeed] = useState(true);
  const [chosen, setChosen] = useState<RewardMethod | null>(null);

  useEffect(() => {
    void loadSavedRuns();
  }, []);

  const hasCurrent = metrics.methods.some(
    (m) => (metrics.steps[m]?.length ?? 0) + (metrics.evals[m]?.length ?? 0) > 0,
  );
  const all = useMemo(
    () => [...(hasCurrent ? [currentLabRun({ runSettings, runStatus, metrics })] : []), ...kept],
    [hasCurrent, runSettings, runStatus, metrics, kept],
  );
  const shownSet = useMemo(() => new Set(shownIds), [shownIds]);
  const shown = useMemo(() => all.filter((r) => shownSet.has(r.id)), [all, shownSet]);
  const groups = useMemo(() => groupRuns(shown, bySeed), [shown, bySeed]);
  const differs = useMemo(() => differingSettings(shown), [shown]);
  const methods = methodsOf(shown);
  const method =
    chosen && methods.includes(chosen) ? chosen : (methods.find((m) => m === 'co-rl') ?? methods[0] ?? null);

  return (
    <div className="compare-view">
      <section className="panel" aria-labelledby="compare-title">
        <h2 id="compare-title">Compare runs</h2>
        <p className="caption">
          Tick runs to overlay them. Runs whose settings differ only by the seed form one line: the mean over
          their seeds, with the band from the lowest to the highest run. The table names exactly the settings
          that differ between the shown runs. Add runs from exported run files, keep a copy of the current run
          before starting another, or pick runs saved in this browser (each tab&apos;s last run).
        </p>
        <div className="lab-controls">
          <FileButton label="Import run files" testId="compare-import" onFiles={importLabFiles} />
          <button type="button" data-testid="compare-keep" disabled={!hasCurrent} onClick={keepCurrentRun}>
            Keep a copy of the current run
          </button>
          <Toggle
            label="one line per seed group"
            testId="compare-byseed"
            checked={bySeed}
            onChange={setBySeed}
          />
        </div>
        <LabNotice />
        {all.length === 0 ? (
          <p className="muted" data-testid="compare-empty">
            No runs yet: train one in the Train view, or import run files.
          </p>
        ) : (
          <RunsTable
            runs={all}
            shown={shownSet}
            groups={groups}
            differs={differs}
            onShow={setLabShown}
            onRemove={removeLabRun}
          />
        )}
      </section>
      <GridPanel />
      {method && groups.length > 0 && (
        <section className="panel" aria-label="Compare charts">
          <div className="lab-controls">
            <label>
              Method{' '}
              <select
                data-testid="compare-method"
                value={method}
                onChange={(e) => setChosen(e.target.value as RewardMethod)}
              >
                {methods.map((m) => (
                  <option key={m} value={m}>
                    {METHOD_LABEL[m]}
                  </option>
                ))}
              </select>
            </label>
            <SmoothingSlider testId="compare-smoothing" />
          </div>
          <ul className="compare-legend" aria-label="Lines">
            {groups.map((g) => (
              <li key={g.key}>
                <span className="run-swatch" style={{ background: g.colour, borderColor: g.colour }} />{' '}
                {g.label}
              </li>
            ))}
          </ul>
          <div className="compare-charts">
            {COMPARE_METRICS.map((m) => (
              <CompareChart key={m.id} metric={m} groups={groups} method={method} smoothing={smoothing} />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
