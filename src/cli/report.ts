// `context-lens report [DIR]...`: every session under the agents' folders (or the given ones), replayed under every
// policy the engine knows, side by side against none: per session, per project, per day and in total, as a table,
// JSON or CSV. Sessions are read, parsed and replayed in worker threads (one per core); token counts come from
// the cache on disk, so a second report over the same folders tokenizes nothing it has seen. Each job has its file
// in report/: the options (args), the file finding (files), the running (run), the kept results (kept), the
// progress, the grid (sweep) and the outputs (output, text, csv).
import { emptyRow, foldRows, reportPolicies } from '../core/history';
import type { TokenizerName } from '../core/tokens/counter';
import { TokenStore } from '../node/tokenStore';
import { withUsageErrors } from './policyArgs';
import { parseReportArgs } from './report/args';
import { findSessions } from './report/files';
import { KeptResults } from './report/kept';
import { printRows, printSweep } from './report/output';
import { Progress } from './report/progress';
import { runWorkers } from './report/run';
import { sumGrids, sweepPlan } from './report/sweep';
import { int } from './report/text';
import { printError, terminalText } from './terminal';

export { table } from './report/text';

export async function runReport(args: string[]): Promise<number> {
  return withUsageErrors('report', async () => {
    const parsed = parseReportArgs(args);
    if (!parsed) return 0;
    const { o, tokenCache: cache } = parsed;
    const sweep = sweepPlan(o);
    // A sweep replays one policy over the grid: the rows then show it and none only.
    const names = sweep ? reportPolicies([sweep.policy]) : reportPolicies(o.names);
    const warn = (m: string) => printError(`context-lens report: ${terminalText(m)}\n`);
    const found = await findSessions(o, warn);
    const dir = cache.folder();
    const stores = new Map<TokenizerName, TokenStore>();
    if (dir)
      for (const t of ['o200k_base', 'cl100k_base'] as const)
        stores.set(
          t,
          TokenStore.open(dir, t, { warn: (m) => printError(`context-lens: ${terminalText(m)}\n`) }),
        );
    const totalBytes = found.reduce((a, f) => a + f.size, 0);
    const progress = new Progress(found.length, totalBytes);
    const kept = KeptResults.open(dir, o, names, sweep, warn);
    const outcome = await runWorkers(found, o, names, sweep, stores, progress, kept);
    progress.done();
    for (const s of stores.values()) await s.save();
    const unsaved = await kept?.save();
    if (unsaved)
      warn(
        `kept report results: cannot write (${(unsaved as NodeJS.ErrnoException).code ?? unsaved.message}); the next report replays every session`,
      );
    for (const s of outcome.skipped) warn(`${s.reason.replace(/\.$/, '')}; skipped`);
    for (const g of outcome.grew)
      warn(`${g.path} grew while it was read: the figures cover its first ${int(g.bytes)} bytes`);
    const sessions = outcome.rows
      .filter((s) => (!o.since || s.day >= o.since) && (!o.until || s.day <= o.until))
      .sort((a, b) => a.start.localeCompare(b.start) || a.path.localeCompare(b.path));
    const byProject = foldRows(sessions, (s) => s.project, names).sort((a, b) => a.key.localeCompare(b.key));
    const byDay = foldRows(sessions, (s) => s.day, names).sort((a, b) => a.key.localeCompare(b.key));
    const total = foldRows(sessions, () => 'total', names)[0] ?? emptyRow('total');
    printError(
      `context-lens report: ${found.length} files in ${progress.seconds()} s (${outcome.threads} thread${outcome.threads === 1 ? '' : 's'}), ` +
        `${outcome.skipped.length} skipped, ${outcome.kept} unchanged since an earlier report; token counts: ${int(outcome.tokenized)} texts tokenized, ` +
        `${dir ? `${int(outcome.fromCache)} from the token cache (${dir})` : 'no token cache'}\n`,
    );
    if (sweep) printSweep(o, sumGrids(sessions, outcome.grids, sweep), sessions, outcome);
    else printRows(o, { sessions, byProject, byDay, total }, names, outcome);
    return 0;
  });
}
