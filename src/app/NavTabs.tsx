// The header's tab bar (WAI-ARIA tabs pattern): arrow keys, Home and End move between views.
import { useRef, type KeyboardEvent } from 'react';
import type { ViewId } from '../store/uiSlice';
import { VIEWS, neighbourView } from './route';

interface Props {
  view: ViewId;
  onSelect(view: ViewId): void;
}

export const tabId = (v: ViewId): string => `tab-${v}`;
export const panelId = (v: ViewId): string => `panel-${v}`;

export function NavTabs({ view, onSelect }: Props) {
  const refs = useRef<Partial<Record<ViewId, HTMLButtonElement | null>>>({});
  const go = (v: ViewId) => {
    onSelect(v);
    refs.current[v]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const target =
      e.key === 'ArrowRight'
        ? neighbourView(view, 1)
        : e.key === 'ArrowLeft'
          ? neighbourView(view, -1)
          : e.key === 'Home'
            ? VIEWS[0].id
            : e.key === 'End'
              ? VIEWS[VIEWS.length - 1].id
              : null;
    if (!target) return;
    e.preventDefault();
    go(target);
  };
  return (
    <nav className="tabs" role="tablist" aria-label="Views" onKeyDown={onKeyDown}>
      {VIEWS.map((v) => (
        <button
          key={v.id}
          ref={(el) => {
            refs.current[v.id] = el;
          }}
          id={tabId(v.id)}
          role="tab"
          type="button"
          aria-selected={view === v.id}
          aria-controls={panelId(v.id)}
          tabIndex={view === v.id ? 0 : -1}
          className={view === v.id ? 'tab active' : 'tab'}
          onClick={() => onSelect(v.id)}
        >
          {v.label}
        </button>
      ))}
    </nav>
  );
}
