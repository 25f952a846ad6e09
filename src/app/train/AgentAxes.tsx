// The Compose panel's axes (issue 12; src/formats/composeAxes.ts): the composed cohort's task, and for an
// agent pretrained here its tokenizer, architecture overrides (nLayer, nHead, nEmbd, mlpRatio, pos,
// blockSize; empty = the family's) and corpus (the family's, a seeded random draw with size and stream, or
// share i of n). Values go into the store as typed; the checks (parseAxisAgent, contextErrors) name bad ones.
import { useState } from 'react';
import { ARCH_FIELDS } from '../../cohort/axes';
import { FAMILIES, familyArch } from '../../cohort/families';
import { TOKENIZER_NAMES, type TokenizerName } from '../../tasks';
import { COMPOSE_TASK_HELP, COMPOSE_TASK_NAMES } from '../../formats/composeAxes';
import type { CustomAgent } from '../../formats/customCohort';
import { changeSettings } from '../../store/trainBridge';
import { FILE_TASK, type TaskFileRef } from '../../formats/taskFileTask';

type ArchKey = (typeof ARCH_FIELDS)[number];
type NumKey = Exclude<ArchKey, 'pos'>;

/** A number input that may be empty (undefined): a draft while typing, committed when it is a number. */
function OptNumber(props: {
  value: number | undefined;
  placeholder: string;
  label: string;
  testId: string;
  onCommit(v: number | undefined): void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      type="number"
      inputMode="numeric"
      aria-label={props.label}
      data-testid={props.testId}
      placeholder={props.placeholder}
      value={draft ?? (props.value === undefined ? '' : String(props.value))}
      onChange={(e) => {
        const t = e.target.value;
        setDraft(t);
        if (t.trim() === '') props.onCommit(undefined);
        else if (Number.isFinite(Number(t))) props.onCommit(Number(t));
      }}
      onBlur={() => setDraft(null)}
    />
  );
}

/** The task selector of a composed cohort: the compose tasks, and the task file when one is named. */
export function ComposeTask({ value, file }: { value: string; file: TaskFileRef | null }) {
  const names = [...COMPOSE_TASK_NAMES, ...(file || value === FILE_TASK ? [FILE_TASK] : [])];
  const help =
    value === FILE_TASK
      ? `the task file ${file?.name ?? '(none named)'}, answers compared ${file?.normalize ?? 'exact'} (below)`
      : (COMPOSE_TASK_HELP[value] ?? 'unknown task');
  return (
    <label className="field compose-task">
      Task{' '}
      <select
        data-testid="compose-task"
        value={value}
        onChange={(e) => changeSettings({ customTask: e.target.value })}
      >
        {(names.includes(value) ? names : [value, ...names]).map((t) => (
          <option key={t} value={t}>
            {t === FILE_TASK && file ? `file: ${file.name}` : t}
          </option>
        ))}
      </select>
      <span className="field-help">{help}</span>
    </label>
  );
}

const ARCH_LABEL: Record<ArchKey, string> = {
  nLayer: 'blocks',
  nHead: 'heads',
  nEmbd: 'width',
  mlpRatio: 'MLP x',
  pos: 'positions',
  blockSize: 'context',
};

/** Tokenizer, architecture and corpus of one agent pretrained here. */
export function AgentAxes({ agent, onChange }: { agent: CustomAgent; onChange(a: CustomAgent): void }) {
  const fam = FAMILIES[agent.family];
  if (!fam) return null;
  const base = agent.size in fam.sizes ? familyArch(fam, agent.size) : fam.arch;
  const arch = agent.arch ?? {};
  const setArch = (k: ArchKey, v: number | string | undefined) => {
    const next: Record<string, unknown> = { ...arch };
    if (v === undefined || v === '') delete next[k];
    else next[k] = v;
    const { arch: _drop, ...rest } = agent;
    onChange(Object.keys(next).length ? { ...rest, arch: next as CustomAgent['arch'] } : rest);
  };
  const setAxis = <K extends 'tokenizer' | 'corpus'>(k: K, v: CustomAgent[K] | undefined) => {
    const next = { ...agent, [k]: v };
    if (v === undefined) delete next[k];
    onChange(next);
  };
  const corpus = agent.corpus;
  const famStream = fam.corpus?.draw === 'random' ? fam.corpus.stream : undefined;
  const mode = corpus ? corpus.draw : 'family';
  const who = `agent ${agent.id}`;
  /** A number field of the corpus (empty: left out). */
  const num = (k: 'size' | 'index' | 'of', text: string, placeholder: string) =>
    corpus && (
      <label className="arch-field">
        {text}
        <OptNumber
          label={`corpus ${k} of ${who}`}
          testId={`agent-corpus-${k}`}
          value={corpus[k]}
          placeholder={placeholder}
          onCommit={(v) => setAxis('corpus', withField(corpus, k, v))}
        />
      </label>
    );
  return (
    <div className="agent-axes" data-testid="agent-axes">
      <label className="field">
        Tokenizer
        <select
          data-testid="agent-tokenizer"
          value={agent.tokenizer ?? ''}
          onChange={(e) => setAxis('tokenizer', (e.target.value || undefined) as TokenizerName | undefined)}
        >
          <option value="">family ({fam.tokenizer ?? 'digit'})</option>
          {TOKENIZER_NAMES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="arch-fields">
        <legend>Architecture (empty: the family&apos;s)</legend>
        {(['nLayer', 'nHead', 'nEmbd', 'mlpRatio', 'blockSize'] as NumKey[]).map((k) => (
          <label key={k} className="arch-field">
            {ARCH_LABEL[k]}
            <OptNumber
              label={`${k} of ${who}`}
              testId={`agent-arch-${k}`}
              value={arch[k]}
              placeholder={k === 'blockSize' ? 'auto' : String(base[k as keyof typeof base] ?? '')}
              onCommit={(v) => setArch(k, v)}
            />
          </label>
        ))}
        <label className="arch-field">
          {ARCH_LABEL.pos}
          <select
            aria-label={`pos of ${who}`}
            data-testid="agent-arch-pos"
            value={arch.pos ?? ''}
            onChange={(e) => setArch('pos', e.target.value || undefined)}
          >
            <option value="">{base.pos} (family)</option>
            <option value="learned">learned</option>
            <option value="rope">rope</option>
          </select>
        </label>
      </fieldset>
      <div className="corpus-fields">
        <label className="field">
          Corpus
          <select
            data-testid="agent-corpus"
            value={mode}
            onChange={(e) =>
              setAxis(
                'corpus',
                e.target.value === 'random'
                  ? { draw: 'random', ...(famStream ? { stream: famStream } : {}) }
                  : e.target.value === 'share'
                    ? { draw: 'share', index: 0, of: 2 }
                    : undefined,
              )
            }
          >
            <option value="family">
              family ({fam.corpus ? corpusText(fam.corpus) : 'all of the train split'})
            </option>
            <option value="random">random draw</option>
            <option value="share">share i of n</option>
          </select>
        </label>
        {corpus?.draw === 'random' && (
          <>
            {num('size', 'size', 'ladder')}
            <label className="arch-field">
              stream
              <input
                aria-label={`corpus stream of ${who}`}
                data-testid="agent-corpus-stream"
                value={corpus.stream ?? ''}
                placeholder="common"
                onChange={(e) => setAxis('corpus', withField(corpus, 'stream', e.target.value || undefined))}
              />
            </label>
          </>
        )}
        {corpus?.draw === 'share' && (
          <>
            {num('index', 'share', '0')}
            {num('of', 'of', '2')}
          </>
        )}
      </div>
    </div>
  );
}

/** A corpus with one field set (undefined: removed). */
function withField<C extends object, K extends string>(c: C, k: K, v: unknown): C {
  const next = { ...c } as Record<string, unknown>;
  if (v === undefined) delete next[k];
  else next[k] = v;
  return next as C;
}

/** A family's corpus in words. */
function corpusText(c: NonNullable<CustomAgent['corpus']>): string {
  return c.draw === 'share'
    ? `share ${c.index} of ${c.of}`
    : `random draw${c.stream ? `, stream ${c.stream}` : ''}${c.size ? `, ${c.size}` : ', ladder'}`;
}
