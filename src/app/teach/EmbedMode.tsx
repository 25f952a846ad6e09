// Embed mode (`?embed=1&show=heldout,portrait&run=1`): the app without its header, showing only the chosen
// panels, for a slide or an article (TensorFlow Playground's hide flags). The views that hold the panels are
// rendered as usual and everything that is neither a chosen panel nor on the path to one is hidden, so a
// panel keeps its live behaviour. Problems with the link are listed in a notice; defaults are kept.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useStore } from '../../store/store';
import { startTraining } from '../../store/trainBridge';
import { TheoryView } from '../theory/TheoryView';
import { TrainView } from '../train/TrainView';
import { findPanel, PANELS, type PanelName } from './panels';
import type { EmbedOptions } from './teachUrl';

/** Mark the chosen panels (data-embed-keep) and their ancestors up to `root` (data-embed-path); returns those found. */
export function markPanels(root: HTMLElement, show: readonly PanelName[]): PanelName[] {
  for (const el of root.querySelectorAll('[data-embed-path],[data-embed-keep]:not([data-embed-fixed])')) {
    el.removeAttribute('data-embed-path');
    el.removeAttribute('data-embed-keep');
  }
  root.setAttribute('data-embed-path', '');
  const found: PanelName[] = [];
  const keep = (el: Element) => {
    el.setAttribute('data-embed-keep', '');
    for (let p = el.parentElement; p && p !== root; p = p.parentElement)
      p.setAttribute('data-embed-path', '');
  };
  for (const n of show) {
    const el = findPanel(root, n);
    if (!el) continue;
    found.push(n);
    keep(el);
  }
  const notice = root.querySelector('[data-testid="url-notice"]');
  if (notice) keep(notice);
  return found;
}

/** Start the run once the preset catalogue has loaded (the Train view loads it). */
function useAutoRun(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    let done = false;
    const tryStart = (s = useStore.getState()) => {
      if (done || s.presets.length === 0) return;
      done = true;
      startTraining();
    };
    tryStart();
    const unsub = useStore.subscribe((s) => tryStart(s));
    return unsub;
  }, [on]);
}

export function EmbedMode({ opts }: { opts: EmbedOptions }) {
  const root = useRef<HTMLDivElement>(null);
  const [found, setFound] = useState<PanelName[]>([]);
  const [waited, setWaited] = useState(false);
  const views = new Set(opts.show.map((n) => PANELS[n].view));
  useAutoRun(opts.run);

  useLayoutEffect(() => {
    const el = root.current!;
    let frame = 0;
    const mark = () => {
      frame = 0;
      const f = markPanels(el, opts.show);
      setFound((prev) => (prev.join() === f.join() ? prev : f));
    };
    mark();
    const obs = new MutationObserver(() => {
      frame ||= requestAnimationFrame(mark);
    });
    obs.observe(el, { childList: true, subtree: true });
    const t = setTimeout(() => setWaited(true), 2000);
    return () => {
      obs.disconnect();
      cancelAnimationFrame(frame);
      clearTimeout(t);
    };
  }, [opts.show]);

  const missing = waited ? opts.show.filter((n) => !found.includes(n)) : [];
  const notes = [
    ...opts.problems.map((p) => `${p.key}=${p.value} (${p.reason})`),
    ...missing.map((n) => `show=${n} (${PANELS[n].label}: not on the page in this build or run yet)`),
  ];
  const full = `${location.pathname}${location.search.replace(/[?&](embed|show|run)=[^&]*/g, '').replace(/^&/, '?')}#${[...views][0] ?? 'train'}`;
  return (
    <div
      className="embed-mode"
      ref={root}
      data-testid="embed"
      data-show={opts.show.join(',')}
      data-found={found.join(',')}
    >
      {notes.length > 0 && (
        <div
          className="banner warn embed-notice"
          role="status"
          data-testid="embed-notice"
          data-embed-keep=""
          data-embed-fixed=""
        >
          Ignored from the embed link ({notes.length}): {notes.join('; ')}
        </div>
      )}
      {views.has('train') && <TrainView />}
      {views.has('theory') && <TheoryView />}
      <p className="embed-footer small muted" data-embed-keep="" data-embed-fixed="">
        Co-RL Playground, embedded:{' '}
        <a href={full} target="_blank" rel="noreferrer">
          open the full app
        </a>
      </p>
    </div>
  );
}
