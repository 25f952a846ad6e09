// The app's views and how the URL selects one: `#theory` (also `#/theory`, `#view=theory`) or `?view=theory`.
import type { ViewId } from '../store/uiSlice';

/** The views in tab order, with their tab labels. The default view is the training playground. */
export const VIEWS: readonly { id: ViewId; label: string }[] = [
  { id: 'demo', label: 'Engine demo' },
  { id: 'train', label: 'Train' },
  { id: 'compare', label: 'Compare' },
  { id: 'sweep', label: 'Sweep' },
  { id: 'theory', label: 'Theory' },
  { id: 'help', label: 'Help' },
];

/** The view an empty or unknown URL opens. */
export const DEFAULT_VIEW: ViewId = 'train';

const isView = (s: string | null): s is ViewId => VIEWS.some((v) => v.id === s);

/**
 * The view a URL opens: the hash wins (`#theory`, `#/theory`, `#view=theory`), then the `view=` query
 * parameter, else the training playground. Unknown names fall back to it.
 */
export function viewFromUrl(search: string, hash: string): ViewId {
  const h = hash.replace(/^#\/?/, '');
  const fromHash = h.startsWith('view=') ? new URLSearchParams(h).get('view') : h.split(/[?&/]/)[0];
  if (isView(fromHash)) return fromHash;
  const fromQuery = new URLSearchParams(search).get('view');
  return isView(fromQuery) ? fromQuery : DEFAULT_VIEW;
}

/** The hash that opens a view. */
export function hashFor(view: ViewId): string {
  return `#${view}`;
}

/** The view `delta` tabs away from `view` (wrapping), for arrow-key navigation. */
export function neighbourView(view: ViewId, delta: number): ViewId {
  const i = VIEWS.findIndex((v) => v.id === view);
  const n = VIEWS.length;
  return VIEWS[(((i + delta) % n) + n) % n].id;
}
