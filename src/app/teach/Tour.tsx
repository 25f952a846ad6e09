// The guided tour (`#tour`, `#tour?step=N`): a card that walks a class through the idea in TOUR_STEPS,
// opening each step's view and outlining its panel. Keyboard: focus moves to the step title; Tab reaches
// Back / Next / Close; ← and → page, Esc closes. The hash follows the step so a link opens any step.
import { useEffect, useRef, useState } from 'react';
import { useStore } from '../../store/store';
import { startTraining } from '../../store/trainBridge';
import { hashFor } from '../route';
import { findPanel, PANELS, type PanelName } from './panels';
import { tourHash, type UrlProblem } from './teachUrl';
import { TOUR_STEPS } from './tourSteps';

/**
 * Outline the step's panel: its targets in order, each in its own view (opened for it), retried while the
 * view renders; a target not there after TRY_MS gives way to the next (a panel this build lacks).
 */
function useOutline(names: readonly PanelName[] | undefined, key: number): string {
  const [found, setFound] = useState({ key: -1, name: '' });
  useEffect(() => {
    if (!names?.length) return;
    let el: Element | null = null;
    let at = 0;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    const look = () => {
      const n = names[at];
      if (useStore.getState().view !== PANELS[n].view) useStore.getState().setView(PANELS[n].view);
      el = findPanel(document, n);
      if (el) {
        el.classList.add('tour-target');
        el.scrollIntoView({ block: 'start', behavior: 'auto' }); // the card sits at the bottom right
        setFound({ key, name: n });
        return;
      }
      if (++tries * 100 >= TRY_MS && at < names.length - 1) {
        at++;
        tries = 0;
      }
      if (tries * 100 < TRY_MS * 3) timer = setTimeout(look, 100);
    };
    timer = setTimeout(look, 0);
    return () => {
      clearTimeout(timer);
      (el as Element | null)?.classList.remove('tour-target');
    };
  }, [names, key]);
  return found.key === key ? found.name : '';
}

/** How long a target may take to appear before the next one is tried. */
const TRY_MS = 1500;

/** Leave the tour: the hash goes back to the view on screen. */
function closeTour(onClose: () => void): void {
  history.replaceState(
    history.state,
    '',
    `${location.pathname}${location.search}${hashFor(useStore.getState().view)}`,
  );
  onClose();
}

export function Tour({
  start,
  problems,
  onClose,
}: {
  start: number;
  problems: readonly UrlProblem[];
  onClose(): void;
}) {
  const [i, setI] = useState(start);
  const [runNote, setRunNote] = useState('');
  const title = useRef<HTMLHeadingElement>(null);
  const step = TOUR_STEPS[i];
  const last = TOUR_STEPS.length - 1;
  const found = useOutline(step.target, i);
  const phase = useStore((s) => s.runStatus.phase);

  useEffect(() => {
    useStore.getState().setView(step.view);
    history.replaceState(history.state, '', `${location.pathname}${location.search}${tourHash(i)}`);
    title.current?.focus();
  }, [i, step.view]);

  const go = (d: number) => setI((x) => Math.min(last, Math.max(0, x + d)));
  const close = () => closeTour(onClose);
  // ← → Esc anywhere on the page (a button that just disabled itself leaves the focus on the body), except
  // where the keys already mean something: fields, and the tab bar's own arrow keys
  useEffect(() => {
    const on = (e: globalThis.KeyboardEvent) => {
      const t = e.target as Element | null;
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (t?.closest?.('input, select, textarea, [role="tablist"], [contenteditable="true"]')) return;
      if (e.key === 'ArrowRight') setI((x) => Math.min(last, x + 1));
      else if (e.key === 'ArrowLeft') setI((x) => Math.max(0, x - 1));
      else if (e.key === 'Escape') closeTour(onClose);
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', on);
    return () => document.removeEventListener('keydown', on);
  }, [last, onClose]);
  const run = () => {
    const p = startTraining();
    setRunNote(
      Object.keys(p).length
        ? `The settings have problems (${Object.keys(p).join(', ')}): fix them in the Train view.`
        : 'Started: the charts fill as it trains.',
    );
  };
  const fallback = step.target && found && found !== step.target[0];

  return (
    <aside
      className="tour-card"
      role="dialog"
      aria-modal="false"
      aria-labelledby="tour-title"
      data-testid="tour"
      data-step={i + 1}
    >
      <p className="tour-count small muted">
        Guided tour · step {i + 1} of {TOUR_STEPS.length} · ← → to page, Esc to close
      </p>
      <h2 id="tour-title" ref={title} tabIndex={-1} data-testid="tour-title">
        {step.title}
      </h2>
      <div className="tour-body">{step.body}</div>
      {fallback && (
        <p className="small muted" data-testid="tour-fallback">
          (Showing the {PANELS[found as PanelName].label} instead.)
        </p>
      )}
      {step.startRun && (
        <p>
          <button
            type="button"
            className="primary"
            data-testid="tour-start"
            onClick={run}
            disabled={phase === 'loading' || phase === 'running'}
          >
            {phase === 'running' ? 'Running…' : 'Start the default run'}
          </button>{' '}
          <span className="small" data-testid="tour-run-note">
            {runNote}
          </span>
        </p>
      )}
      {problems.length > 0 && (
        <p className="small tour-notice" data-testid="tour-notice">
          Ignored from the link: {problems.map((p) => `${p.key}=${p.value} (${p.reason})`).join('; ')}
        </p>
      )}
      <div className="tour-buttons">
        <button type="button" data-testid="tour-back" onClick={() => go(-1)} disabled={i === 0}>
          Back
        </button>
        {i < last ? (
          <button type="button" className="primary" data-testid="tour-next" onClick={() => go(1)}>
            Next
          </button>
        ) : (
          <button type="button" className="primary" data-testid="tour-done" onClick={close}>
            Finish
          </button>
        )}
        <button type="button" data-testid="tour-close" onClick={close} aria-label="Close the tour">
          Close
        </button>
      </div>
    </aside>
  );
}
