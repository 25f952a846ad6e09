// The Compare view's small grid run (issue 15): one or two numeric settings over comma-separated values
// (at most 8 cells), run cell after cell in the training worker from the Train view's settings; each
// finished cell joins the runs above (cells that differ only by seed draw one band), and the grid's
// sweep report opens in the Sweep view (src/formats/sweep/gridReport.ts).
import { useEffect, useState } from 'react';
import {
  cancelGrid,
  GRID_KEYS,
  gridCells,
  MAX_PAGE_CELLS,
  PAGE_GRID_FILE,
  runGrid,
  type GridAxis,
  type GridKey,
} from '../../store/gridRunner';
import { useStore } from '../../store/store';
import { loadCatalog } from '../../store/trainBridge';

export function GridPanel() {
  const grid = useStore((s) => s.grid);
  const base = useStore((s) => s.runSettings);
  const presets = useStore((s) => s.presets);
  const gridReport = useStore((s) => s.sweep?.file === PAGE_GRID_FILE);
  const [a, setA] = useState<GridAxis>({ key: 'seed', values: '1, 2, 3' });
  const [b, setB] = useState<GridAxis | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  useEffect(() => {
    void loadCatalog(); // the presets' agent counts, for the cells' checks (as the Train view does)
  }, []);
  const axes = b ? [a, b] : [a];
  const agents = presets.find((p) => p.name === base.preset)?.agents.length;
  const planned = gridCells(base, axes, agents);
  const run = () => {
    if (!planned.ok) return setErrors(planned.errors);
    setErrors([]);
    void runGrid(planned.cells, axes);
  };
  const keySelect = (v: GridAxis, set: (x: GridAxis) => void, id: string) => (
    <select
      data-testid={`${id}-key`}
      value={v.key}
      onChange={(e) => set({ ...v, key: e.target.value as GridKey })}
    >
      {GRID_KEYS.map((k) => (
        <option key={k} value={k}>
          {k}
        </option>
      ))}
    </select>
  );
  return (
    <details className="panel grid-panel" data-testid="grid-panel">
      <summary>
        <strong>Run a small grid here</strong>{' '}
        <span className="muted small">(up to {MAX_PAGE_CELLS} cells, one after another)</span>
      </summary>
      <p className="caption">
        Every cell is the Train view&apos;s settings with the values below, trained to its last step in the
        worker; each finished cell is kept in the list above. When the grid ends, its sweep report (the one
        npm run sweep writes: the paper&apos;s claims, gain against kappa) opens in the Sweep view, where it
        can be downloaded as report.json. Larger grids: npm run sweep.
      </p>
      <p className="small muted" data-testid="grid-base">
        From: {base.preset}, {base.methods.join(', ')}, {base.steps} steps, B {base.batchPrompts} · K{' '}
        {base.samples}, lr {base.lr}, seed {base.seed} (change them in the Train view).
      </p>
      <div className="lab-controls">
        <label>Axis 1 {keySelect(a, setA, 'grid-a')}</label>
        <input
          aria-label="axis 1 values"
          data-testid="grid-a-values"
          value={a.values}
          onChange={(e) => setA({ ...a, values: e.target.value })}
        />
        {b ? (
          <>
            <label>Axis 2 {keySelect(b, (x) => setB(x), 'grid-b')}</label>
            <input
              aria-label="axis 2 values"
              data-testid="grid-b-values"
              value={b.values}
              onChange={(e) => setB({ ...b, values: e.target.value })}
            />
            <button type="button" onClick={() => setB(null)}>
              remove axis 2
            </button>
          </>
        ) : (
          <button
            type="button"
            data-testid="grid-add-axis"
            onClick={() => setB({ key: 'lr', values: `${base.lr}` })}
          >
            add an axis
          </button>
        )}
      </div>
      <div className="lab-controls">
        {grid?.running ? (
          <button type="button" data-testid="grid-stop" onClick={cancelGrid}>
            Stop the grid
          </button>
        ) : (
          <button type="button" data-testid="grid-run" onClick={run}>
            Run {planned.ok ? planned.cells.length : '?'} cell
            {planned.ok && planned.cells.length === 1 ? '' : 's'} here
          </button>
        )}
        {grid && (
          <span
            className="small"
            data-testid="grid-status"
            data-done={grid.done}
            data-total={grid.total}
            data-running={grid.running}
          >
            {grid.message}
          </span>
        )}
        {gridReport && !grid?.running && (
          <a href="#sweep" data-testid="grid-report-link">
            open the grid&apos;s report
          </a>
        )}
      </div>
      {errors.length > 0 && (
        <pre className="lab-notice-lines error" data-testid="grid-errors" role="alert">
          {errors.join('\n')}
        </pre>
      )}
    </details>
  );
}
