// The co-labeling diagnostics chart (docs/method.md ("Extensions from the public code"), an extension from the public Co-RL code): pick one of
// supervision fraction, peer tie rate, unanimous rate, supervision contains truth, own vote's accuracy.
import { useMemo, useState } from 'react';
import { useStore } from '../../store/store';
import { coLabelingChart, DIAGNOSTICS, type Diagnostic } from './coLabelingChart';
import { MetricChart } from './MetricChart';

export function DiagnosticsChart({ slot }: { slot: number }) {
  const { runId, methods, steps } = useStore((s) => s.metrics);
  const teacher = useStore((s) => s.runStatus.config?.train.teacher ?? s.runSettings.teacher);
  const [which, setWhich] = useState<Diagnostic>('supervisionFraction');
  const data = useMemo(
    () => coLabelingChart({ runId, methods, steps, evals: {} }, which),
    [runId, methods, steps, which],
  );
  const d = DIAGNOSTICS[which];
  return (
    <div className="diagnostics-chart" id="diagnostics-chart">
      <label className="diagnostic-pick small">
        Co-labeling diagnostic{' '}
        <select
          data-testid="diagnostic-pick"
          value={which}
          onChange={(e) => setWhich(e.target.value as Diagnostic)}
        >
          {(Object.keys(DIAGNOSTICS) as Diagnostic[]).map((k) => (
            <option key={k} value={k}>
              {DIAGNOSTICS[k].title}
            </option>
          ))}
        </select>
      </label>
      <MetricChart
        name="diagnostics"
        slot={slot}
        title={`${d.title} (co-labeling; Co-RL teacher: ${teacher})`}
        caption={`${d.caption[0].toUpperCase()}${d.caption.slice(1)}. From the public Co-RL code's logs: an extension, not in the paper.`}
        data={data}
        yMax={1}
      />
    </div>
  );
}
