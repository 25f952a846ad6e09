// The Sweep view (issue 15): open a sweep's report.json (npm run sweep; src/formats/sweep/report.ts) or its whole
// folder, and see Co-RL's gain against the base agents' kappa per cohort, the paper's claims as a
// checklist, and the cells; a cell whose result file was opened shows its curves in the compare view.
import {
  CartesianGrid,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ReferenceLine,
} from 'recharts';
import { downloadBlob } from '../../store/shareBridge';
import { openSweepFiles, showCellInCompare } from '../../store/sweepBridge';
import { useStore } from '../../store/store';
import type { SweepReportView } from '../../formats/sweep/sweepReport';
import { FileButton } from './controls';
import { LabNotice } from './LabNotice';
import './lab.css';

const MARK = { holds: '✓', 'does not hold': '✗', 'not tested': '–' } as const;
const pts = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;

/** Per cohort with a kappa: Co-RL's mean gain, and Co-RL minus TTRL, in accuracy points. */
export function scatterPoints(r: SweepReportView): { coRl: Pt[]; vsTtrl: Pt[] } {
  const coRl: Pt[] = [];
  const vsTtrl: Pt[] = [];
  for (const g of r.groups) {
    const c = g.methods['co-rl']?.gain;
    if (!g.overlap || !c) continue;
    coRl.push({ kappa: g.overlap.kappa, gain: 100 * c.mean, label: g.label, n: c.n });
    const t = g.methods.ttrl?.gain;
    if (t)
      vsTtrl.push({
        kappa: g.overlap.kappa,
        gain: 100 * (c.mean - t.mean),
        label: g.label,
        n: Math.min(c.n, t.n),
      });
  }
  return { coRl, vsTtrl };
}
interface Pt {
  kappa: number;
  gain: number;
  label: string;
  n: number;
}

function GainScatter({ report }: { report: SweepReportView }) {
  const { coRl, vsTtrl } = scatterPoints(report);
  return (
    <figure
      className="chart sweep-scatter"
      data-testid="sweep-scatter"
      data-points={coRl.length}
      data-ttrl-points={vsTtrl.length}
    >
      <h3>Co-RL gain against the base agents&apos; kappa (one point per cohort, mean over seeds)</h3>
      <ResponsiveContainer width="100%" height={260}>
        <ScatterChart margin={{ top: 8, right: 12, bottom: 18, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis
            type="number"
            dataKey="kappa"
            name="kappa"
            domain={[-0.2, 1]}
            ticks={[-0.2, 0, 0.2, 0.4, 0.6, 0.8, 1]}
            tick={{ fontSize: 11 }}
            label={{ value: 'base kappa', position: 'insideBottomRight', offset: -10, fontSize: 11 }}
          />
          <YAxis
            type="number"
            dataKey="gain"
            name="gain (points)"
            width={48}
            tick={{ fontSize: 11 }}
            label={{ value: 'gain (points)', angle: -90, position: 'insideLeft', offset: 10, fontSize: 11 }}
          />
          <ReferenceLine y={0} stroke="#9ca3af" />
          <Tooltip
            formatter={(v) => (typeof v === 'number' ? v.toFixed(2) : String(v))}
            labelFormatter={() => ''}
            contentStyle={{ fontSize: 12, padding: '4px 8px' }}
          />
          <Scatter name="Co-RL gain" data={coRl} fill="#2563eb" isAnimationActive={false} />
          <Scatter
            name="Co-RL minus TTRL"
            data={vsTtrl}
            fill="#dc2626"
            shape="diamond"
            isAnimationActive={false}
          />
        </ScatterChart>
      </ResponsiveContainer>
      <figcaption className="caption">
        Blue: Co-RL&apos;s held-out accuracy gain (final − base, points); red: Co-RL&apos;s gain minus
        TTRL&apos;s. The paper predicts larger gains at lower kappa (more decoupled errors). Cohorts:{' '}
        {coRl.map((p) => `${p.label} (κ ${p.kappa.toFixed(2)}, ${pts(p.gain / 100)})`).join('; ') ||
          'none with Co-RL and a kappa'}
        .
      </figcaption>
    </figure>
  );
}

export default function SweepView() {
  const sweep = useStore((s) => s.sweep);
  const r = sweep?.report;
  return (
    <div className="sweep-view">
      <section className="panel" aria-labelledby="sweep-title">
        <h2 id="sweep-title">Sweep report</h2>
        <p className="caption">
          Open the report.json that <code>npm run sweep</code> writes (choose it together with files from
          DIR/cells to see those cells&apos; curves), the whole sweep folder, or cell results alone (a folder
          without report.json, or DIR/cells/*.json): the report is then built here, as <code>--merge</code>{' '}
          builds it. A small grid run in the Compare view shows its report here too. Files of another version
          or damaged ones are refused with every problem listed, and what is shown stays.
        </p>
        <div className="lab-controls">
          <FileButton label="Report and cell files" testId="sweep-open" onFiles={openSweepFiles} />
          <FileButton label="Sweep folder" testId="sweep-folder" onFiles={openSweepFiles} folder />
        </div>
        <LabNotice />
        {!r && (
          <p className="muted" data-testid="sweep-empty">
            No sweep open.
          </p>
        )}
      </section>
      {r && sweep && (
        <>
          <section className="panel" data-testid="sweep-summary" data-cells={r.cells.length}>
            <h3>
              {r.sweep.name}{' '}
              <span className="muted small">
                ({sweep.file}; axes {r.sweep.axes.join(', ') || 'none'})
              </span>
            </h3>
            <p className="small">
              {r.counts.done} cells done, {r.counts.failed} failed, {r.counts.missing} missing;{' '}
              {r.groups.length} cohorts.{' '}
              <button
                type="button"
                data-testid="sweep-download"
                onClick={() =>
                  downloadBlob(
                    new Blob([`${JSON.stringify(r, null, 1)}\n`], { type: 'application/json' }),
                    'report.json',
                  )
                }
              >
                Download report.json
              </button>
            </p>
            <GainScatter report={r} />
          </section>
          <section className="panel">
            <h3>The paper&apos;s claims</h3>
            <ol className="claims" data-testid="sweep-claims">
              {r.claims.map((c) => (
                <li key={c.n} className={`claim ${c.status.replace(/ /g, '-')}`} data-status={c.status}>
                  <span className="claim-mark" aria-hidden="true">
                    {MARK[c.status]}
                  </span>{' '}
                  <strong>{c.claim}</strong>: {c.status}
                  <div className="claim-figure small">{c.figure}</div>
                </li>
              ))}
            </ol>
          </section>
          <section className="panel">
            <h3>Cells</h3>
            <div className="runs-table-wrap">
              <table className="runs-table" data-testid="sweep-cells">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">cell</th>
                    <th scope="col">status</th>
                    <th scope="col">Co-RL gain</th>
                    <th scope="col">curves</th>
                  </tr>
                </thead>
                <tbody>
                  {r.cells.map((c) => (
                    <tr key={c.id} data-testid="sweep-cell" data-cell={c.id}>
                      <td>{c.index}</td>
                      <td className="run-name">{c.label}</td>
                      <td title={c.error ?? undefined}>{c.status}</td>
                      <td>{c.methods['co-rl'] ? pts(c.methods['co-rl'].gain) : '–'}</td>
                      <td>
                        {sweep.cells[c.id] ? (
                          <button
                            type="button"
                            data-testid="sweep-cell-compare"
                            onClick={() => showCellInCompare(c.id)}
                          >
                            in Compare
                          </button>
                        ) : (
                          <span className="muted small">open cells/{c.id}.json</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </div>
  );
}
