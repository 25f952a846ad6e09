// The panels an embed link can show (`?embed=1&show=heldout,portrait`, after TensorFlow Playground's hide
// flags) and the tour can point at: a name, the view that holds it, and CSS selectors for its element
// (the first that exists counts, so a panel another view adds later can be named with a fallback).
import type { ViewId } from '../../store/uiSlice';

export interface PanelDef {
  view: Exclude<ViewId, 'demo' | 'help'>;
  /** Selectors tried in order; the first matching element is the panel. */
  selectors: readonly string[];
  /** In words, for the notice and the docs. */
  label: string;
}

const chart = (name: string, label: string): PanelDef => ({
  view: 'train',
  selectors: [`[data-testid="chart-${name}"]`],
  label,
});

export const PANELS = {
  controls: {
    view: 'train',
    selectors: ['.run-controls'],
    label: 'Start / Pause / Step, status and throughput',
  },
  settings: { view: 'train', selectors: ['.train-settings'], label: 'cohort, methods and hyperparameters' },
  heldout: chart('heldout', 'held-out accuracy chart'),
  agreement: chart('agreement', 'pairwise agreement chart'),
  'pseudo-label': chart('pseudo-label', 'pseudo-label accuracy chart'),
  'reward-std': chart('reward-std', 'reward std chart'),
  'zero-std': chart('zero-std', 'zero-std groups chart'),
  length: chart('length', 'completion length chart'),
  entropy: chart('entropy', 'token entropy chart'),
  kl: chart('kl', 'KL to the base chart'),
  diagnostics: { view: 'train', selectors: ['#diagnostics-chart'], label: 'co-labeling diagnostics chart' },
  inspector: { view: 'train', selectors: ['[data-testid="inspector"]'], label: 'step inspector' },
  overlap: { view: 'train', selectors: ['[data-testid="overlap-view"]'], label: 'error overlap matrix' },
  'live-portrait': {
    view: 'train',
    selectors: ['[data-testid="live-portrait"]'],
    label: 'live phase portrait of the cohort',
  },
  portrait: { view: 'theory', selectors: ['.portrait-card'], label: 'Theory: two-agent phase portrait' },
  trajectory: {
    view: 'theory',
    selectors: ['.side-column > :first-child'],
    label: 'Theory: trajectory controls',
  },
  'worked-example': { view: 'theory', selectors: ['.card.worked'], label: 'Theory: worked example' },
  tabular: { view: 'theory', selectors: ['.card.tabular'], label: 'Theory: tabular agents next to the ODE' },
} as const satisfies Record<string, PanelDef>;

export type PanelName = keyof typeof PANELS;
export const PANEL_NAMES = Object.keys(PANELS) as PanelName[];

/** The first element a panel's selectors match under `root`, or null. */
export function findPanel(root: ParentNode, name: PanelName): Element | null {
  for (const s of PANELS[name].selectors) {
    const el = root.querySelector(s);
    if (el) return el;
  }
  return null;
}
