// The notice a link with broken or unknown run-settings parameters gets: what was ignored and why (those
// fields keep their defaults). Dismissible; the values are shown as text only.
import { useStore } from '../../store/store';
import './share.css';

export function UrlNotice() {
  const items = useStore((s) => s.urlNotice);
  const dismiss = useStore((s) => s.dismissUrlNotice);
  if (items.length === 0) return null;
  return (
    <div className="banner warn url-notice" role="status" data-testid="url-notice">
      <div className="url-notice-head">
        <strong>Ignored from the link ({items.length}):</strong>{' '}
        <span className="small">these fields keep their defaults; the rest of the link is applied.</span>
        <button
          type="button"
          className="dismiss"
          data-testid="url-notice-dismiss"
          aria-label="Dismiss the notice"
          onClick={dismiss}
        >
          ×
        </button>
      </div>
      <ul className="small">
        {items.map((t, i) => (
          <li key={i}>{t}</li>
        ))}
      </ul>
    </div>
  );
}
