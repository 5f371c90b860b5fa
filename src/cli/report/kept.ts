// `report`'s kept results: a session unchanged since an earlier report under the same engine and settings is not
// replayed again; its figures (and its --sweep grid) are taken from the results kept beside the token cache.
import { createHash } from 'node:crypto';
import type { PolicyName } from '../../core/engine/policy';
import type { SessionFigures } from '../../core/history';
import type { SweepGrid } from '../../core/sweep';
import { engineId, ReportResults } from '../../node/reportResults';
import type { ReportWorkerData } from '../reportWorker';
import type { Options } from './args';
import type { Found } from './files';

export class KeptResults {
  private constructor(
    private readonly results: ReportResults,
    /** What the figures depend on besides the file: the engine, the policies, --model, --set, --sweep. */
    private readonly key: string,
  ) {}

  /** The results kept in `dir`, or null without a cache folder. */
  static open(
    dir: string | null,
    o: Options,
    names: PolicyName[],
    sweep: ReportWorkerData['sweep'],
    warn: (m: string) => void,
  ): KeptResults | null {
    if (!dir) return null;
    const key = createHash('sha256')
      .update(JSON.stringify([engineId(), names, o.model ?? null, o.sets, sweep ?? null]))
      .digest('hex');
    return new KeptResults(ReportResults.open(dir, warn), key);
  }

  /** The kept figures of a file as it was listed, when it has not changed since. */
  get(f: Found): { row: SessionFigures; grid?: SweepGrid } | undefined {
    return this.results.get(f.path, this.key, { size: f.size, mtimeMs: f.modified, ino: f.ino });
  }

  /** Kept as the file was listed (before it was read): a file changed since is replayed next time. */
  set(f: Found, row: SessionFigures, grid: SweepGrid | undefined): void {
    this.results.set(f.path, { size: f.size, mtimeMs: f.modified, ino: f.ino }, this.key, row, grid);
  }

  /** Writes them; the error when they could not be written. */
  save(): ReturnType<ReportResults['save']> {
    return this.results.save();
  }
}
