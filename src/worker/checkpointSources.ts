// Where the training worker's runs and regime checks read checkpoint bytes from: agents built by axes
// (./axisBuilds.ts), base agents pretrained in this worker (./browserPretrain.ts), files the page sent
// (imported), else the files shipped with the app, relative to the page's base URL.
import type { ReadBytes } from '../cohort/manifest';
import { PretrainCache } from './browserPretrain';
import { AxisBuilder } from './axisBuilds';
import { openCheckpointStore } from './checkpointStore';
import { cachedReader } from './trainSession';

export class CheckpointSources {
  /** Base agents pretrained in this worker (they shadow the shipped files of the runs that pretrain). */
  readonly pretrainCache = new PretrainCache();
  /** Agents by axes without a checkpoint, built on demand into the in-page content-addressed cache. */
  readonly axisBuilds = new AxisBuilder(openCheckpointStore);
  /** Checkpoint bytes the page sent with the latest start (imported files), by path; they shadow files at those paths. */
  imported = new Map<string, Uint8Array>();
  private readBase: string | undefined = undefined;
  private read: ReadBytes;

  /** `reader`: a ReadBytes for the files shipped relative to `baseUrl` (undefined: the default place). */
  constructor(private readonly reader: (baseUrl?: string) => ReadBytes) {
    this.read = cachedReader(reader());
  }

  /** The files shipped with the app (public/checkpoints/cache), cached. */
  get shipped(): ReadBytes {
    return this.read;
  }

  /** Read checkpoints relative to `baseUrl` from now on (a new reader only when it changes). */
  useBase(baseUrl: string | undefined): void {
    if (baseUrl === this.readBase) return;
    this.readBase = baseUrl;
    this.read = cachedReader(this.reader(baseUrl));
  }

  /**
   * The ReadBytes of one run or check: built agents, then pretrained ones (only when it pretrains), then
   * `extra` (a check's own imported files), then the latest start's imported files, else the shipped files.
   */
  readerFor(pretrains: boolean, extra?: ReadonlyMap<string, Uint8Array>): ReadBytes {
    const shipped = this.read;
    return (path) => {
      const own =
        this.axisBuilds.served.get(path) ??
        (pretrains ? this.pretrainCache.get(path) : undefined) ??
        extra?.get(path) ??
        this.imported.get(path);
      return own ? Promise.resolve(own) : shipped(path);
    };
  }
}
