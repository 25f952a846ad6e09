// The compare view's runs table (issue 15): every kept run with a box to show it, its colour (its seed
// group's), where it came from, and the values of exactly the settings that differ between shown runs.
import type { LabRun } from '../../formats/labRuns';
import type { RunSettings } from '../../formats/runSettings';
import type { RunGroup } from './compareData';

interface Props {
  runs: LabRun[];
  shown: ReadonlySet<string>;
  groups: RunGroup[];
  differs: (keyof RunSettings)[];
  onShow(id: string, shown: boolean): void;
  onRemove(id: string): void;
}

const SOURCE: Record<LabRun['source'], string> = {
  current: 'this tab',
  imported: 'file',
  kept: 'kept copy',
  saved: 'saved in browser',
};
const value = (v: unknown): string =>
  Array.isArray(v)
    ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(',')
    : String(v);

export function RunsTable({ runs, shown, groups, differs, onShow, onRemove }: Props) {
  const colourOf = (id: string) => groups.find((g) => g.runs.some((r) => r.id === id))?.colour;
  return (
    <div className="runs-table-wrap">
      <table className="runs-table" data-testid="runs-table" data-differs={differs.join(',')}>
        <thead>
          <tr>
            <th scope="col">show</th>
            <th scope="col">run</th>
            {differs.map((k) => (
              <th key={k} scope="col" className="differs" data-setting={k}>
                {k}
              </th>
            ))}
            <th scope="col">steps</th>
            <th scope="col" aria-label="remove" />
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => {
            const c = shown.has(r.id) ? colourOf(r.id) : undefined;
            return (
              <tr key={r.id} data-testid="runs-row" data-run={r.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`show ${r.name}`}
                    checked={shown.has(r.id)}
                    onChange={(e) => onShow(r.id, e.target.checked)}
                  />
                </td>
                <td>
                  <span
                    className="run-swatch"
                    style={{ background: c ?? 'transparent', borderColor: c ?? '#9ca3af' }}
                  />{' '}
                  <span className="run-name">{r.name}</span>{' '}
                  <span className="muted small">({SOURCE[r.source]})</span>
                </td>
                {differs.map((k) => (
                  <td key={k}>{value(r.settings[k])}</td>
                ))}
                <td>
                  {r.step}/{r.config.steps}
                </td>
                <td>
                  {r.source !== 'current' && (
                    <button
                      type="button"
                      className="link"
                      aria-label={`remove ${r.name} from the list`}
                      onClick={() => onRemove(r.id)}
                    >
                      ✕
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
