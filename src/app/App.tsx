// The app shell: header with the tab bar, and the view the URL selects (train, engine demo, theory, help).
import { lazy, Suspense, useEffect, useState } from 'react';
import { useStore } from '../store/store';
import { startDemo } from '../store/demoBridge';
import type { ViewId } from '../store/uiSlice';
import { NavTabs, panelId, tabId } from './NavTabs';
import { hashFor, viewFromUrl } from './route';
import { EngineDemo } from './demo/EngineDemo';
import { TrainView } from './train/TrainView';
import { TheoryView } from './theory/TheoryView';
import { HelpView } from './help/HelpView';
import { EmbedMode } from './teach/EmbedMode';
import { Tour } from './teach/Tour';
import { parseEmbed, parseTour } from './teach/teachUrl';
import { TOUR_STEPS } from './teach/tourSteps';
import './app.css';
import './teach/teach.css';

// the lab views load when first opened, so they add nothing to the default link's load
const CompareView = lazy(() => import('./lab/CompareView'));
const SweepView = lazy(() => import('./lab/SweepView'));

/** The view the URL asks for; `?autostart=1` (the engine demo's autostart) opens the demo unless a view is named. */
const urlView = (): ViewId => {
  const autostart = new URLSearchParams(location.search).get('autostart') === '1';
  const named = location.hash.length > 1 || new URLSearchParams(location.search).has('view');
  return autostart && !named ? 'demo' : viewFromUrl(location.search, location.hash);
};
const syncViewFromUrl = () => useStore.getState().setView(urlView());
syncViewFromUrl(); // before the first render, so a link to a view never flashes the default one
/** Embed mode is read once, from the link the page opened with. */
const EMBED = parseEmbed(location.search);
const tourFromUrl = () => parseTour(location.hash, TOUR_STEPS.length);

export function App() {
  return EMBED.on ? <EmbedMode opts={EMBED} /> : <FullApp />;
}

function FullApp() {
  const view = useStore((s) => s.view);
  const [tour, setTour] = useState(tourFromUrl);
  // a link to the tour (or a hash change to it) opens it; closing it is the tour's own button
  useEffect(() => {
    const open = () => setTour((t) => (t.on ? t : tourFromUrl()));
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, []);

  useEffect(() => {
    window.addEventListener('hashchange', syncViewFromUrl);
    const q = new URLSearchParams(location.search);
    if (q.get('autostart') === '1')
      startDemo(Number(q.get('steps') ?? 300) || 300, q.get('backend') === 'cpu' ? 'cpu' : 'auto');
    return () => window.removeEventListener('hashchange', syncViewFromUrl);
  }, []);

  const select = (v: ViewId) => {
    if (location.hash !== hashFor(v))
      location.hash = hashFor(v); // hashchange updates the store
    else useStore.getState().setView(v);
  };

  return (
    <>
      <header className="app-header">
        <div className="brand">
          <h1>Co-RL Playground</h1>
          <span className="tagline">
            small language models that grade each other, trained in your browser
          </span>
          {!tour.on && (
            <button
              type="button"
              className="tour-link"
              data-testid="tour-open"
              onClick={() => setTour({ on: true, step: 0, problems: [] })}
            >
              Guided tour
            </button>
          )}
        </div>
        <NavTabs view={view} onSelect={select} />
      </header>
      <main id={panelId(view)} role="tabpanel" aria-labelledby={tabId(view)} className={`view view-${view}`}>
        {view === 'train' && <TrainView />}
        {view === 'demo' && <EngineDemo />}
        {view === 'compare' && (
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <CompareView />
          </Suspense>
        )}
        {view === 'sweep' && (
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <SweepView />
          </Suspense>
        )}
        {view === 'theory' && <TheoryView />}
        {view === 'help' && <HelpView />}
      </main>
      {tour.on && (
        <Tour
          start={tour.step}
          problems={tour.problems}
          onClose={() => setTour({ on: false, step: 0, problems: [] })}
        />
      )}
    </>
  );
}
