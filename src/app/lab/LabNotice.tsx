// The lab views' notice: why files were refused (every problem, per file), or what was added.
import { useStore } from '../../store/store';

export function LabNotice() {
  const n = useStore((s) => s.labNotice);
  const set = useStore((s) => s.setLabNotice);
  if (!n) return null;
  return (
    <div
      className={`banner ${n.kind === 'error' ? 'warn' : 'info'} lab-notice`}
      role={n.kind === 'error' ? 'alert' : 'status'}
      data-testid="lab-notice"
      data-kind={n.kind}
    >
      <strong>{n.title}</strong>
      <button type="button" className="dismiss" aria-label="Dismiss" onClick={() => set(null)}>
        ✕
      </button>
      {n.lines.length > 0 && <pre className="lab-notice-lines">{n.lines.join('\n')}</pre>}
    </div>
  );
}
