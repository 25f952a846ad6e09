// The Cohort panel's natural presets (issue 12; src/cohort/naturalPresets.ts): the preset picker's options
// grouped as shipped (engineered; paper-demo labelled as the worked example) and natural (pretrained in this
// page on first use), and a natural preset's card: what differs, its task, its agents, and how it is built.
import { FAMILIES } from '../../cohort/families';
import {
  NATURAL_PRESET_NAMES,
  NATURAL_PRESETS,
  naturalPresetSpecs,
  naturalPresetTask,
} from '../../cohort/naturalPresets';

/** The heading of the natural group (also its tests' handle). */
export const NATURAL_GROUP = 'Natural, memorising (fail the regime gates; pretrained here on first use)';

/** The options of the preset picker: the manifest's presets, then the natural ones. */
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
        {NATURAL_PRESET_NAMES.map((n) => (
          <option key={n} value={n}>
            {NATURAL_PRESETS[n].level} ({NATURAL_PRESETS[n].task.kind})
          </option>
        ))}
      </optgroup>
    </>
  );
}

/** The card of a natural preset. */
export function NaturalPresetInfo({ name }: { name: string }) {
  const p = NATURAL_PRESETS[name];
  const specs = naturalPresetSpecs(name);
  return (
    <div className="preset-info" data-testid="preset-info" data-natural={name}>
      <p className="small">
        <strong>Natural, {p.level}:</strong> <span data-testid="natural-differs">{p.differs}</span>
      </p>
      <p className="small" data-testid="natural-memorises">
        These base agents memorised a small corpus (trained to a plateau on 250-2,000 problems): their votes
        are their greedy answers, so they fail the regime gates and label-free RL can only distil here. Check
        the regime below to see it; they are kept as the failing example (docs/method.md, &quot;The
        regime&quot;).
      </p>
      <p className="small muted">Task: {naturalPresetTask(name)}</p>
      <ul className="agents small">
        {specs.map((a) => (
          <li key={a.id}>
            <strong>{a.id}</strong> {a.family}.{a.size} seed {a.seed}, {a.view} view,{' '}
            {FAMILIES[a.family]?.tokenizer ?? 'digit'} tokens
          </li>
        ))}
      </ul>
      <p className="small muted">
        Agents shipped with the app (content-addressed in public/checkpoints/cache) load at once; any other is
        pretrained in this page on the first Start (the natural recipe: a corpus ladder, each rung trained to
        its plateau; long on a slow GPU), stored in this page&apos;s cache under a hash of its spec, task and
        recipe, and read from there afterwards.
      </p>
    </div>
  );
}
