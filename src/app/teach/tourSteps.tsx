// The guided tour's steps (a class's path through the idea): a majority vote, grading yourself vs grading a
// peer (both computed with the trainer's own vote and reward code), the phase portrait, a live run of the
// default preset, the charts, the overlap matrix and the live phase portrait. docs/method.md ("One training step" to "Theory").
import type { ReactNode } from 'react';
import { labelFreeRewards } from '../../rl/rewards';
import { majorityVote } from '../../rl/vote';
import type { PanelName } from './panels';

export interface TourStep {
  title: string;
  /** The view the step opens. */
  view: 'train' | 'theory';
  /** Panels to point at, the first one on the page wins (a later view's panel with a fallback). */
  target?: readonly PanelName[];
  body: ReactNode;
  /** The step offers "Start the default run". */
  startRun?: boolean;
}

const SAMPLES = ['12', '13', '12', null, '12', '11', '13', '12'];

function VoteDemo() {
  const v = majorityVote(SAMPLES);
  return (
    <p className="tour-demo" data-testid="tour-vote" data-vote={v.vote ?? ''}>
      8 sampled answers to “7 + 5”:{' '}
      {SAMPLES.map((a, i) => (
        <code key={i}>{a ?? '✗'}</code>
      ))}{' '}
      → vote <strong>{v.vote}</strong> ({v.count} of {v.parseable} parseable; ✗ did not parse and never
      votes).
    </p>
  );
}

/** Agent A is sure of a wrong 13; agent B mostly says the right 12. What each method rewards A for. */
function GradeDemo() {
  const cohort = {
    B: 1,
    K: 4,
    answers: [
      ['13', '13', '12', '13'],
      ['12', '12', '13', '12'],
    ],
  };
  const self = labelFreeRewards({ method: 'ttrl', cohort }).rewards[0];
  const peer = labelFreeRewards({ method: 'co-rl', cohort }).rewards[0];
  return (
    <div className="tour-demo" data-testid="tour-grade">
      <p>
        Agent A answers <code>13 13 12 13</code> (its vote: 13, wrong); agent B answers{' '}
        <code>12 12 13 12</code> (vote 12, right).
      </p>
      <p>
        Grading itself (TTRL), A’s rewards are <strong data-testid="tour-self">{self.join(' ')}</strong>: its
        mistake is reinforced. Graded by its peer B (Co-RL), they are{' '}
        <strong data-testid="tour-peer">{peer.join(' ')}</strong>: the one right answer is pushed up.
      </p>
    </div>
  );
}

export const TOUR_STEPS: readonly TourStep[] = [
  {
    title: '1 · A majority vote',
    view: 'train',
    body: (
      <>
        <p>
          No labels are used. Each agent samples K answers to a prompt and takes the most frequent one as its
          pseudo-label.
        </p>
        <VoteDemo />
      </>
    ),
  },
  {
    title: '2 · Grading yourself vs grading a peer',
    view: 'train',
    body: (
      <>
        <p>A completion earns reward 1 when it matches a label. Whose label is the whole difference.</p>
        <GradeDemo />
      </>
    ),
  },
  {
    title: '3 · The phase portrait',
    view: 'theory',
    target: ['portrait'],
    body: (
      <p>
        Reduce a prompt to right/wrong: pA and pB are the agents’ chances of being right. Under Co-RL every
        start above the line pA + pB = 1 ends with both right, below it both wrong. Click the portrait to draw
        a trajectory; self-rewarding only keeps agents on their own side of ½.
      </p>
    ),
  },
  {
    title: '4 · A live run of the default preset',
    view: 'train',
    target: ['controls'],
    startRun: true,
    body: (
      <p>
        The default link trains two small transformers (different families) with Co-RL, TTRL and GT side by
        side on the same prompts and seeds, here in your browser. Start it; the status line shows the step and
        the throughput.
      </p>
    ),
  },
  {
    title: '5 · Watch the curves separate',
    view: 'train',
    target: ['heldout'],
    body: (
      <p>
        Held-out accuracy on problems never trained on: Co-RL (blue) should rise without any label, TTRL (red)
        tends to rise and then fall, GT (green) is the supervised ceiling. The other charts show why (reward
        spread, agreement, pseudo-label accuracy).
      </p>
    ),
  },
  {
    title: '6 · The overlap matrix',
    view: 'train',
    target: ['overlap'],
    body: (
      <p>
        Peers help only when their errors differ. Per pair: problems both get right, only one, or neither,
        with Cohen’s kappa (low = decoupled errors). The paper found different-family pairs at kappa ≤ 0.42.
      </p>
    ),
  },
  {
    title: '7 · The live phase portrait',
    view: 'train',
    target: ['live-portrait', 'portrait'],
    body: (
      <p>
        Each held-out problem of the real run as a dot at (pA, pB), over the same field as the Theory view:
        the theorem happening on your own cohort. (Where this build has no live portrait, the Theory view’s
        portrait is shown instead.)
      </p>
    ),
  },
  {
    title: '8 · Take it to class',
    view: 'train',
    body: (
      <p>
        Every setting is in the link. For a slide, an embed link shows only chosen panels, e.g.{' '}
        <code>?embed=1&amp;show=heldout,agreement&amp;run=1</code> (panel names in Help). Open this tour again
        with <code>#tour</code>.
      </p>
    ),
  },
];
