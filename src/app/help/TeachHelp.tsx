// Help on teaching and the public code's extensions: the guided tour, embed links (with every panel name),
// the throughput figures and how backend auto chooses, and the co-rl teacher modes (docs/method.md ("Extensions from the public code")).
import { PANEL_NAMES, PANELS } from '../teach/panels';

export function TeachHelp() {
  return (
    <>
      <section id="help-teach">
        <h2>Teaching with it: the tour and embed links</h2>
        <p className="small">
          <strong>Guided tour</strong> (the button in the header, or a link ending in <code>#tour</code>;{' '}
          <code>#tour?step=3</code> opens step 3): eight steps through a majority vote, grading yourself vs
          grading a peer (the numbers come from the trainer&apos;s own vote and reward code), the phase
          portrait, a live run of the default preset, the held-out curves, the overlap matrix and the live
          phase portrait. Next and Back, or ← and →; Esc closes; every control is reachable with Tab.
        </p>
        <p className="small">
          <strong>Embed links</strong> show only the panels you name, for a slide or an article:{' '}
          <code>?embed=1&amp;show=heldout,agreement</code>, plus <code>run=1</code> to start training at once,
          and any run setting (<code>&amp;steps=50</code>). Unknown panels or values are listed in a notice at
          the top and the defaults kept. Panels:
        </p>
        <ul className="small panel-names" data-testid="help-panels">
          {PANEL_NAMES.map((n) => (
            <li key={n}>
              <code>{n}</code>: {PANELS[n].label}
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2>Speed and the backend</h2>
        <p className="small">
          Beside the status line: milliseconds per lock step (every method&apos;s step, one after the other),
          rollouts per second and generated tokens per second, over the latest five lock steps (compute time;
          evaluations not included). Backend <em>auto</em> uses a hardware GPU as it is. On a software WebGPU
          adapter (SwiftShader, or one marked as a fallback adapter) it first spends about a second timing the
          adapter against the CPU engine on the default shapes and trains on the faster one; the engine line
          gives both figures. Choose WebGPU or CPU in the settings to skip the measurement.
        </p>
      </section>
      <section>
        <h2>Co-RL teachers and co-labeling diagnostics (extension, not in the paper)</h2>
        <p className="small">
          The paper grades agent n by its ring predecessor (the default). For three or more agents the public
          Co-RL code offers teachers made from all peers&apos; votes: <code>strict_majority</code> (a strict
          majority of the peers&apos; votes; a tie leaves the problem unlabelled),{' '}
          <code>self_plus_peers</code> (the agent&apos;s own vote breaks a tie among the peers) and{' '}
          <code>union</code> (an answer matching any peer&apos;s vote earns the reward). With two agents they
          are refused: there is only one peer. The diagnostics chart follows its logs: supervision fraction
          (problems with a usable label), peer tie rate (no strict majority among the peers, where all peers
          voted), unanimous rate (all agents vote the same), supervision contains truth (the label, or a union
          candidate, is right: measured with the truth, never seen by the rewards) and the own vote&apos;s
          oracle accuracy.
        </p>
      </section>
    </>
  );
}
