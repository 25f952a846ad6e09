// The run's notices of base agents built on demand (src/worker/axisBuilds.ts): where each came from (this
// page's cache, or pretrained now, with its steps and validation accuracy) and damaged cache entries rebuilt.
import { useStore } from '../../store/store';

export function BuildNotices() {
  const notices = useStore((s) => s.runStatus.notices);
  if (!notices?.length) return null;
  return (
    <ul className="build-notices small" data-testid="build-notices">
      {notices.map((n, i) => (
        <li key={i} className={n.includes('damaged') ? 'error' : 'muted'} data-testid="build-notice">
          {n}
        </li>
      ))}
    </ul>
  );
}
