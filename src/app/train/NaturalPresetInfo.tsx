// The Cohort panel's natural presets (issue 12; src/cohort/naturalPresets.ts): the preset picker's options
// grouped as shipped (engineered; paper-demo labelled as the worked example) and natural (pretrained in this
// page on first use), and a natural preset's card: what differs, its task, its agents, and how it is built.
import { FAMILIES } from '../../cohort/families';
import { archOverrideText } from '../../cohort/archText';
import {
  naturalPreset,
  NATURAL_PRESETS,
  naturalPresetSpecs,
  naturalPresetTask,
  REGIME_CANDIDATES,
} from '../../cohort/naturalPresets';

/** The heading of the natural group (also its tests' handle). */
export const NATURAL_GROUP = 'Natural, memorising (fail the regime gates; pretrained here on first use)';

/** The heading of the regime candidates' group. */
export const CANDIDATE_GROUP = 'Nearest to the regime (out of regime: a gate fails)';

/** The heading of the presets whose pair passes every regime gate. */
export const IN_REGIME_GROUP = 'In the regime (every gate passes on validation)';

const candidates = (inRegime: boolean) =>
  Object.values(REGIME_CANDIDATES).filter((p) => !!p.candidate?.inRegime === inRegime);

/** The options of the preset picker: the manifest's presets, the natural ones, then the regime candidates. */
export function PresetOptions({ shipped }: { shipped: readonly string[] }) {
  return (
    <>
      <optgroup label="Shipped checkpoints (engineered)">
        {shipped.map((n) => (
          <option key={n} value={n}>
            {n === 'paper-demo' ? 'paper-demo (the worked example)' : n}
          </option>
        ))}
      </optgroup>
      <optgroup label={NATURAL_GROUP} data-testid="natural-presets">
        {Object.values(NATURAL_PRESETS).map((p) => (
          <option key={p.name} value={p.name}>
            {p.level} ({p.task.kind})
          </option>
        ))}
      </optgroup>
      <optgroup label={CANDIDATE_GROUP} data-testid="regime-candidates">
        {candidates(false).map((p) => (
          <option key={p.name} value={p.name}>
            {p.name}
          </option>
        ))}
      </optgroup>
      <optgroup label={IN_REGIME_GROUP} data-testid="regime-presets">
        {candidates(true).map((p) => (
          <option key={p.name} value={p.name}>
            {p.name}
          </option>
        ))}
      </optgroup>
    </>
  );
}

/** The card of a natural preset. */
export function NaturalPresetInfo({ name }: { name: string }) {
  const p = naturalPreset(name)!;
  const specs = naturalPresetSpecs(name);
  return (
    <div className="preset-info" data-testid="preset-info" data-natural={name}>
      <p className="small">
        <strong>
          {p.candidate?.inRegime ? 'In the regime' : p.candidate ? 'Nearest to the regime' : 'Natural'},{' '}
          {p.level}:
        </strong>{' '}
        <span data-testid="natural-differs">{p.differs}</span>
      </p>
      {p.candidate?.inRegime ? (
        <p className="small" data-testid="natural-candidate">
          A pair whose votes carry signal: {p.candidate.gates} ({p.candidate.doc}). Its gates are measured at
          rollout temperature {p.candidate.temperature}, which choosing it sets. {p.candidate.rule}; a test
          admits each base seed by its own gates.
        </p>
      ) : p.candidate ? (
        <p className="small" data-testid="natural-candidate">
          The nearest cohort of this task kind the regime search found on validation ({p.candidate.gates};
          docs/regime-search.md). Its gates are measured at rollout temperature {p.candidate.temperature},
          which choosing it sets. It is out of regime: a result on it describes the instrument, not the paper.
        </p>
      ) : null}
      {p.candidate?.verdict ? (
        <p className="small" data-testid="natural-verdict">
          <strong>The registered test</strong> (test split, 4 base seeds x 2 RL seeds, docs/results.md):{' '}
          {p.candidate.verdict}.
        </p>
      ) : p.candidate?.prereg ? (
        <p className="small" data-testid="natural-verdict">
          <strong>The registered test</strong> has no verdict yet: it is registered in {p.candidate.prereg}{' '}
          and runs on the test split, 4 admitted base seeds x 2 RL seeds. Until then nothing is claimed for
          this preset.
        </p>
      ) : null}
      {p.candidate ? null : (
        <p className="small" data-testid="natural-memorises">
          These base agents memorised a small corpus (trained to a plateau on 250-2,000 problems): their votes
          are their greedy answers, so they fail the regime gates and label-free RL can only distil here.
          Check the regime below to see it; they are kept as the failing example (docs/method.md, &quot;The
          regime&quot;).
        </p>
      )}
      <p className="small muted">Task: {naturalPresetTask(name)}</p>
      <ul className="agents small">
        {specs.map((a) => (
          <li key={a.id}>
            <strong>{a.id}</strong> {a.family}.{a.size}
            {archOverrideText(a.arch)} seed {a.seed}, {a.view} view,{' '}
            {FAMILIES[a.family]?.tokenizer ?? 'digit'} tokens
          </li>
        ))}
      </ul>
      <p className="small muted">
        Agents shipped with the app (content-addressed in public/checkpoints/cache) load at once; any other is
        pretrained in this page on the first Start (
        {p.candidate
          ? 'a step budget on a 40,000-problem corpus'
          : 'the natural recipe: a corpus ladder, each rung trained to its plateau'}
        ; long on a slow GPU), stored in this page&apos;s cache under a hash of its spec, task and recipe, and
        read from there afterwards.
      </p>
    </div>
  );
}
