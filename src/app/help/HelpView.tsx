// The Help view: the method in plain words and how to read each chart (docs/method.md ("Setting" to "Theory")), for a class.
import type { ReactNode } from 'react';
import { TeachHelp } from './TeachHelp';
import './help.css';

function Badge({ live }: { live: boolean }) {
  return <span className={live ? 'badge live' : 'badge coming'}>{live ? 'live' : 'coming'}</span>;
}

function ChartItem({ title, live, children }: { title: string; live: boolean; children: ReactNode }) {
  return (
    <li className="chart-item">
      <h4>
        {title} <Badge live={live} />
      </h4>
      <p>{children}</p>
    </li>
  );
}

export function HelpView() {
  return (
    <article className="help-view">
      <section>
        <h2>What this playground shows</h2>
        <p>
          Can language models get better at reasoning <strong>without any labels</strong>? If a model grades
          itself by its own majority vote, it tends to reinforce its own mistakes and collapse.{' '}
          <strong>Co-RL</strong> (from the paper &quot;Co-RL: Unsupervised Reasoning Emerges from Diverse
          Cohort in Multi-agent RL&quot;) trains a <em>cohort</em> of independent models that grade each other
          instead, and keeps improving. The playground makes this visible with small transformers trained live
          in your browser, and with the theory behind it.
        </p>
      </section>

      <section>
        <h2>The method in plain words</h2>
        <ol className="steps">
          <li>
            <strong>A cohort.</strong> N agents, each a small language model with its own parameters and its
            own optimizer. They share no weights and exchange no gradients. They may differ in architecture
            (&quot;family&quot;), size, seed, training data, or how a problem is phrased to them. Each starts
            from a base model that is right only part of the time: RL needs something to work with.
          </li>
          <li>
            <strong>Sample and vote.</strong> Every agent gets the same batch of problems and samples K
            answers to each. Its most frequent answer is its <em>vote</em> (a pseudo-label; a tie goes to the
            answer that appeared first). If none of its answers can be read, the problem is unlabeled for that
            agent.
          </li>
          <li>
            <strong>Peer reward on the ring.</strong> The agents sit on a directed ring. An answer of agent n
            earns reward 1 if it equals the vote of agent n−1 (its predecessor), else 0. With two agents they
            simply grade each other. An agent&apos;s own vote never sets its own reward. No ground truth is
            read: labels are used only to measure, and by the supervised reference (GT-Reward).
          </li>
          <li>
            <strong>GRPO update.</strong> Within each group of K answers to one problem, rewards are centred
            and divided by their spread, so answers better than their siblings are made more likely and worse
            ones less. A group whose K rewards are all equal teaches nothing.
          </li>
        </ol>
        <h3>Why self-rewarding (TTRL) collapses</h3>
        <p>
          In TTRL an agent is rewarded for agreeing with its <em>own</em> vote. That pushes it towards
          whatever it already says most often, right or wrong: where it is right more than half the time it
          gets better, where it is wrong more often than right it becomes confidently wrong. Its answers grow
          uniform, all K rewards in a group become equal, the reward spread falls to zero and learning stops.
          Held-out accuracy often rises first, then falls.
        </p>
        <h3>The separatrix</h3>
        <p>
          With two agents, A moves towards whatever B&apos;s vote supports, and B towards A&apos;s. On a
          single problem, if pA + pB &gt; 1 (the agents&apos; chances of being right add up to more than one),
          both end up right, even an agent that started below ½. Below the line pA + pB = 1 both end up wrong;
          exactly on it the flow runs into the saddle at (½, ½). This is why <em>diversity</em> matters:
          agents whose mistakes fall on different problems rescue each other, while agents that make the same
          mistakes (same model, same seed) behave like one self-rewarding agent. The Theory tab lets you
          explore this.
        </p>
        <h3>The controls: random and Co-RL frozen</h3>
        <p>
          Two methods are <em>controls</em>, run to rule explanations out, not to win. <strong>Random</strong>{' '}
          pays a coin flip: it shows how far the optimizer moves a model on pure noise.{' '}
          <strong>Co-RL frozen (control)</strong> (<code>co-rl-frozen</code>) rewards agent n for matching the
          vote of its predecessor&apos;s <em>frozen base</em> copy: the same ring, the same prompts and vote
          rule, but the peer never trains, so this is distillation from a fixed teacher, not co-training. If
          Co-RL ends no higher than Co-RL frozen, its gain came from copying the peer&apos;s starting answers,
          not from the agents improving each other.
        </p>
      </section>

      <section>
        <h2>Build a cohort, keep and share a run</h2>
        <p className="small">
          Pick a preset, or switch to Compose to choose the task and each agent&apos;s family, size, seed,
          prompt view, tokenizer, architecture and pretraining corpus; an agent without a shipped checkpoint
          is pretrained here first, and a checkpoint file you exported can be imported as an agent. The
          shipped presets are <em>engineered</em>: <code>paper-demo</code>, the default, is the worked example
          (two specialists built to be right in different places), a picture of the theorem rather than a test
          of it. The <em>natural</em> presets (seed-only, same-family, different-arch, different-family,
          different-family+ and a ring, on 3-digit addition and on a·b+c, both with the working written out)
          pair agents that differ only in architecture, tokenizer, corpus, size, seed or prompt view; on the
          first Start each agent is pretrained in the page until it plateaus (a progress bar shows the corpus
          size being tried), then kept in this browser&apos;s cache. Measured on them
          (docs/natural-rl-history.md): Co-RL ends above TTRL in every run, but not above the base agents; the
          regime panel shows why (they memorised their corpora, so their votes are their greedy answers). The
          settings live in the page&apos;s address: copy the link and the same run starts elsewhere. Export a
          run as JSON (import it later to see the same charts), the metrics as CSV, the charts as one PNG, and
          every agent as a checkpoint. Runs are saved in this browser as they train, so a reload resumes where
          it stopped; a link with other settings opened in that tab opens the link instead, and a notice
          offers the saved run back.
        </p>
        <p className="small" data-testid="help-engine">
          Where it trains: the line above the charts names the engine. With Backend <code>auto</code> the page
          times the WebGPU adapter it got (a real GPU or a software one) against the WebAssembly engine on
          your cohort&apos;s own shapes for about a second, trains on the faster and gives both figures; the
          choice is remembered for that adapter and cohort size. The WebAssembly engine uses fused
          multiply-add kernels where the browser has relaxed SIMD, and says so. In Compose you can also drop a
          task file (JSON Lines or CSV of prompt and answer): its counts, first rows and every problem with
          its line are shown, and a file that loads becomes the cohort&apos;s task, pretrained on and trained
          like any other (natural families; docs/tasks.md). Links name the file but cannot carry it; run files
          do.
        </p>
      </section>

      <section data-testid="help-regime">
        <h2>Check the regime before you train</h2>
        <p className="small">
          Label-free RL can only improve an agent where its own samples already disagree and the right answer
          is among them. The panel <em>The regime of the base agents</em> in the Train view measures that on
          validation problems, at the run&apos;s K and temperature, before any RL (docs/method.md, &ldquo;The
          regime&rdquo;). <strong>A1</strong>: greedy accuracy between 0.30 and 0.70, so there is room to gain
          and something to start from. <strong>A2</strong>: the vote of K samples is at least as good as the
          agent&apos;s greedy answer; otherwise a peer&apos;s vote teaches less than the agent already knows.{' '}
          <strong>A3</strong> (reach): where a peer&apos;s vote is right and the agent&apos;s own vote wrong,
          at least 15% of the agent&apos;s samples are right, so Co-RL has a gradient exactly where the peer
          could help (it needs 100 such problems per pair to be measured). <strong>A4</strong> (spread): at
          least 40% of problems are sometimes right and sometimes wrong (0 &lt; p(x) &lt; 1); a problem always
          right or always wrong gives every sample the same reward and no gradient. <strong>A5</strong>: one
          checkpoint sampled twice agrees at a kappa between 0.45 and 0.65, like the paper&apos;s models:
          above it the errors are fixed answers no vote can correct, below it they are noise. Where a gate
          fails, the votes mostly repeat what each agent already answers, so label-free RL can only{' '}
          <em>distil</em> (the stronger agent loses what the weaker gains) rather than find answers neither
          knew: a run there says nothing for or against the method. The sentence under the button names the
          first reason. A run keeps the check in its run file (measured at step 0 unless the panel&apos;s
          matches the run; set the problems to 0 for none). The engineered <code>paper-demo</code> fails A2
          and A5 at K = 8, T = 1.
        </p>
      </section>

      <section>
        <h2>Compare runs and read a sweep</h2>
        <p className="small">
          The <strong>Compare</strong> view overlays runs on the same charts: the current run, run files you
          import (several at once), copies of the current run you keep before starting another, and the runs
          saved in this browser. Tick the runs to show. Runs whose settings differ only by the seed are drawn
          as one line, the mean over the seeds, inside a shaded band from the lowest to the highest run; the
          runs table lists exactly the settings that differ between the shown runs, and each run&apos;s
          colour. &quot;Run a small grid here&quot; trains up to 8 variants of the Train view&apos;s settings
          (for example three seeds) one after another and adds each to the list; when it ends, its sweep
          report (the one <code>npm run sweep</code> writes) opens in the Sweep view. The{' '}
          <strong>Sweep</strong> view opens the report.json that <code>npm run sweep</code> writes (or the
          whole sweep folder): Co-RL&apos;s gain against the base agents&apos; kappa, one point per cohort,
          the paper&apos;s claims as a checklist with their figures, and the cells; a cell whose result file
          you opened shows its curves in the Compare view. A folder of cell results without report.json (or
          the cell files alone) is built into the report here, as <code>--merge</code> builds it;
          &quot;Download report.json&quot; saves the report shown. A file of another version, or a damaged
          one, is refused with every problem listed, and nothing on screen changes.
        </p>
        <p className="small">
          <strong>Smoothing</strong> (the slider above the Train charts and in Compare) follows TensorBoard:
          the bold line is an exponential moving average of the points (weight w; 0 = off, near 1 = very
          smooth), the faint one the raw values. It changes only what is drawn, never the records or the
          exports.
        </p>
      </section>

      <section>
        <h2>How to read the charts</h2>
        <p className="small muted">
          In the Train view every chart overlays the compared methods on shared axes: one colour per method,
          one dash per agent (or pair). Hover for values; click a legend entry to hide or show its line.
        </p>
        <ul className="chart-list">
          <ChartItem title="Phase portrait (Theory)" live>
            pA across, pB up. Arrows show where two Co-RL agents move; the purple line is the separatrix.
            Click a start: the solid curve is the Co-RL trajectory, the red dashed one where each agent goes
            when it grades itself. K (samples per prompt) sharpens the vote; K = 1 gives no learning at all.
          </ChartItem>
          <ChartItem title="Worked example (Theory)" live>
            Two complementary agents, each strong on a different half of the problems. Self-rewarding keeps
            each agent&apos;s strong half and loses the weak one (mean accuracy 0.5); Co-RL lifts both halves
            (1.0).
          </ChartItem>
          <ChartItem title="Tabular agents vs the ODE (Theory)" live>
            A stochastic simulation that uses the real sampling, voting and GRPO update, with a simple table
            instead of a transformer. Dotted curves should follow the solid ODE curves; that is the bridge
            from the theory to the transformer runs.
          </ChartItem>
          <ChartItem title="Pairwise agreement (Train)" live>
            For each pair of agents, the share of problems labelled by both where their votes are equal. Under
            Co-RL it should stay well below 1 while accuracy rises: the agents keep their differences.
            Agreement of 1 from the first step means the agents are copies (for example, sharing a random
            stream), not a success.
          </ChartItem>
          <ChartItem title="Pseudo-label accuracy (Train)" live>
            The share of an agent&apos;s labelled problems where its vote is the true answer (the truth is
            used only to draw this). Rising means the rewards are getting more reliable. For Co-RL we also
            show the accuracy of the labels the agent is trained on, which are its peer&apos;s votes (the
            faint lines).
          </ChartItem>
          <ChartItem title="Reward std, normalised to step 1 (Train)" live>
            The spread of rewards within groups, divided by its value at the first step. It is the learning
            signal: when it heads to 0, all answers in a group get the same reward and there is no gradient (a
            collapsing run). Co-RL should keep it clearly above 0. The share of zero-spread groups has its own
            chart next to it: those groups carry no gradient.
          </ChartItem>
          <ChartItem title="Held-out accuracy (Train)" live>
            Accuracy on problems never used in training, every few steps: each agent&apos;s greedy answer, and
            the cohort ensemble (4 samples from each agent pooled into one majority vote). This is the result
            that matters; the step of peak accuracy is marked, since self-rewarding runs often peak and then
            decline.
          </ChartItem>
          <ChartItem title="Completion length (Train)" live>
            Mean answer length in tokens (the share cut off at the length limit is in every step record).
            Sudden growth or a collapse to very short outputs signals a degenerate policy.
          </ChartItem>
          <ChartItem title="Entropy (Train)" live>
            The mean per-token entropy of the agent&apos;s sampling distribution: how unsure it is. It falls
            as an agent grows confident. A crash towards zero without an accuracy gain is collapse.
          </ChartItem>
          <ChartItem title="KL to the base model (Train)" live>
            How far an agent has drifted from its starting checkpoint (the k3 estimator, measured even when no
            KL penalty is used, which is the default).
          </ChartItem>
          <ChartItem title="Error overlap, before and now (Train)" live>
            For each pair of agents on the held-out problems: how many both get right, only one gets right,
            and both get wrong. kappa near 0 or below means their mistakes are unrelated, which is what lets
            peer grading help; kappa near 1 means they fail together. c is the share where exactly one is
            right, u the share where at least one is right (the ceiling for the pair), w the share where both
            are wrong with the same answer (the errors a vote cannot catch).
          </ChartItem>
          <ChartItem title="Live phase portrait (Train)" live>
            The theorem on your own cohort. At every evaluation each held-out problem is one dot at (pA, pB):
            the share of S samples (8 by default, at the rollout temperature) that each agent of the pair gets
            right. The arrows and the separatrix are the Theory view&apos;s. Dots are blue when the problem
            started above the line pA + pB = 1, red when it started below; the theory says blue dots move up
            to (1, 1) under Co-RL and red ones down. The counts say how many are above and below now and how
            many crossed; trails show each dot&apos;s path, the slider steps through the evaluations, and for
            three or more agents you pick the pair. The Theory view can draw the latest run&apos;s dots over
            its portrait.
          </ChartItem>
          <ChartItem title="Inspector (Train)" live>
            The latest step, prompt by prompt: every agent&apos;s K completions, the answers read from them,
            each agent&apos;s vote, the label it was trained on (its peer&apos;s vote under Co-RL, its own
            under TTRL, the truth under GT) and the rewards. A reward is 1 exactly when the answer equals that
            label. The attention map shows where one head of one layer looks, for a completion you pick.
          </ChartItem>
          <ChartItem title="Co-labeling diagnostics (Train)" live>
            One of five figures from the public Co-RL code&apos;s logs, picked above the chart, per method and
            agent (the unanimous rate per method): how much of the batch the teacher labels, how often the
            peers tie, and whether the labels hold the truth. An extension, not in the paper: see below.
          </ChartItem>
          <ChartItem title="Training loss (Engine demo)" live>
            The supervised demo&apos;s cross-entropy, which should fall. For RL runs the GRPO loss is not a
            health signal: with no KL penalty it sits near 0 by design, because advantages sum to zero in
            every group.
          </ChartItem>
        </ul>
      </section>
      <TeachHelp />
    </article>
  );
}
