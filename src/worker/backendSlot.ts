// The training worker's backend (TrainController's, shared by its runs and the regime checks): made on
// demand for a preference and reused while it serves the next ask, watched for a lost device (the run
// loop, ./runLoop.ts, recovers at its next check), replaced after a loss.
import type { Backend } from '../engine/backend';
import type { BackendPreference, SelectedBackend } from '../engine/select';
import type { AutoShape } from '../engine/autoSelect';
import { selectWithFakeAdapter, type FakeAdapter } from './fakeAdapter';
import type { Losable } from './deviceLoss';
import type { TrainEvent } from './protocol';

export interface BackendSource {
  selectBackend(pref: BackendPreference, shape?: AutoShape): Promise<SelectedBackend & { note?: string }>;
  post(e: TrainEvent): void;
}

export class BackendSlot {
  private backend: Backend | null = null;
  /** The preference the backend was made for ('auto' after an explicit 'cpu' must look for a GPU again). */
  private made: BackendPreference = 'auto';
  /** The shapes 'auto' decided for ('' when not auto or unknown; 'reselect': select again next time). */
  private shape = '';
  /** The dev-build test hook's fake hardware adapter (null: the real selection). */
  private fakeAdapter: FakeAdapter | null = null;
  /** The current backend's device was lost (device.lost settled): the loop recovers at its next check. */
  lost = false;

  /** `onLost`: the device of the current backend was lost (wakes a paused loop to recover). */
  constructor(
    private readonly source: BackendSource,
    private readonly onLost: () => void,
  ) {}

  /** Whether the backend made for `made` serves a run that asks for `want`. */
  static reuses(made: BackendPreference, name: string, want: BackendPreference): boolean {
    return want === 'auto' ? made !== 'cpu' && made !== 'wasm' : name === want;
  }

  /** The backend made last (null: none, or it was dropped). */
  get current(): Backend | null {
    return this.backend;
  }

  /**
   * The backend for a run that asks for `pref`; `shape` is what 'auto' times (the run's decoding shapes):
   * a made backend is reused unless the preference changed, or 'auto' decided for other shapes.
   */
  async get(pref: BackendPreference, shape?: AutoShape): Promise<Backend> {
    const shapeKey = pref === 'auto' && shape ? JSON.stringify(shape) : '';
    if (
      this.backend &&
      BackendSlot.reuses(this.made, this.backend.info.name, pref) &&
      this.shape !== 'reselect' &&
      (shapeKey === '' || shapeKey === this.shape)
    )
      return this.backend;
    this.backend?.destroy();
    this.backend = null;
    const { backend, fallbackReason, note } = this.fakeAdapter
      ? await selectWithFakeAdapter(this.fakeAdapter, pref, shape)
      : await this.source.selectBackend(pref, shape);
    this.backend = backend;
    this.made = pref;
    this.shape = shapeKey;
    this.lost = false;
    // a device lost while the loop waits (paused) wakes it to recover; our own destroy() drops the backend first
    void (backend as Losable).device?.lost?.then(() => {
      if (this.backend !== backend) return;
      this.lost = true;
      this.onLost();
    });
    this.source.post({
      type: 'engine',
      backend: backend.info.name,
      adapter: backend.info.adapter,
      fallbackReason,
      ...(note ? { note } : {}),
    });
    return backend;
  }

  /** Drop the backend whose device was lost (the next get() makes a new one). */
  discardLost(): void {
    const dead = this.backend;
    this.backend = null;
    try {
      dead?.destroy();
    } catch {
      // already gone
    }
  }

  /** The dev-build test hook: select with a fake adapter from now on (the next run selects again). */
  useFakeAdapter(adapter: FakeAdapter): void {
    this.fakeAdapter = adapter;
    this.shape = 'reselect'; // a loaded session keeps its backend until then
  }

  /** Free the backend (the controller closes). */
  destroy(): void {
    this.backend?.destroy();
    this.backend = null;
  }
}
