// "Config (JSON)": the run settings as JSON text, edited by hand and applied all or nothing through the same
// checks as a link and a run file (settingsFromJsonText in src/formats/urlConfig.ts). A refused edit changes
// nothing and lists every problem (field: why, what is accepted), as text only. An applied edit goes through
// changeSettings, so a running run takes a new learning rate or temperature at once, and the URL follows.
// While the text has no unsaved edits it follows the settings as they change elsewhere.
import { NATURAL_PRESET_NAMES } from '../../cohort/naturalPresets';
import { useState } from 'react';
import { useStore } from '../../store/store';
import type { RunSettings } from '../../formats/runSettings';
import { changeSettings } from '../../store/trainBridge';
import { sameValue, SETTINGS_KEYS, settingsFromJsonText } from '../../formats/urlConfig';
import './configEditor.css';

/** The settings as the editor shows them: pretty JSON in the settings' field order. */
const settingsJson = (s: RunSettings): string =>
  JSON.stringify(Object.fromEntries(SETTINGS_KEYS.filter((k) => k in s).map((k) => [k, s[k]])), null, 2);

export function ConfigEditor() {
  const settings = useStore((s) => s.runSettings);
  const presets = useStore((s) => s.presets);
  // null: no unsaved edits, the text follows the settings
  const [draft, setDraft] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const current = settingsJson(settings);
  const text = draft ?? current;
  const edited = draft !== null && draft !== current;

  const apply = () => {
    const r = settingsFromJsonText(text, {
      presets: [...presets.map((p) => p.name), ...NATURAL_PRESET_NAMES],
    });
    if (!r.ok) {
      setErrors(r.errors);
      setNote('');
      return;
    }
    const now = useStore.getState().runSettings as unknown as Record<string, unknown>;
    const next = r.settings as unknown as Record<string, unknown>;
    const patch = Object.fromEntries(
      SETTINGS_KEYS.filter((k) => !sameValue(now[k], next[k])).map((k) => [k, next[k]]),
    );
    if (Object.keys(patch).length) changeSettings(patch as Partial<RunSettings>);
    setDraft(null);
    setErrors([]);
    const changed = Object.keys(patch);
    const left = r.defaulted.length ? ` Left out, so at their defaults: ${r.defaulted.join(', ')}.` : '';
    setNote(
      changed.length ? `Applied: ${changed.join(', ')} changed.${left}` : `Applied: nothing changed.${left}`,
    );
  };
  const revert = () => {
    setDraft(null);
    setErrors([]);
    setNote('');
  };

  return (
    <details className="panel config-editor" data-testid="config-panel">
      <summary>
        <strong>Config (JSON)</strong>{' '}
        <span className={edited ? 'small config-dirty' : 'muted small'} data-testid="config-state">
          {edited ? 'edited — Apply or Reset' : 'every run setting, by hand'}
        </span>
      </summary>
      <p className="field-help">
        The same fields as a link (<code>?steps=50&amp;lr=0.0003</code>) and a run file&apos;s settings;
        fields left out take their defaults. Apply checks everything first: one bad field and nothing changes.
      </p>
      <textarea
        data-testid="config-editor"
        aria-label="Run settings as JSON"
        spellCheck={false}
        autoComplete="off"
        rows={Math.max(8, Math.min(24, text.split('\n').length + 1))}
        value={text}
        onChange={(e) => {
          setDraft(e.target.value);
          setNote('');
        }}
      />
      <div className="config-buttons">
        <button type="button" data-testid="config-apply" onClick={apply}>
          Apply
        </button>
        <button
          type="button"
          data-testid="config-revert"
          onClick={revert}
          disabled={draft === null && errors.length === 0}
        >
          Reset to current
        </button>
      </div>
      {note && (
        <p className="small muted config-note" data-testid="config-note">
          {note}
        </p>
      )}
      {errors.length > 0 && (
        <div className="banner warn config-errors" role="alert" data-testid="config-errors">
          <p className="small">
            <strong>
              Not applied ({errors.length} problem{errors.length === 1 ? '' : 's'}):
            </strong>{' '}
            nothing was changed.
          </p>
          <ul className="small">
            {errors.map((t, i) => (
              <li key={i}>{t}</li>
            ))}
          </ul>
        </div>
      )}
    </details>
  );
}
