// What the reader found wrong in the file (broken records, unpaired calls…), with line and column, and the floors
// the current policy would miss: the same list as the editor's Problems panel.
import type { DiagnosticSummary } from '../../src/protocol/shared';

/** The file's problems and the current analysis's missed floors, in file order. */
export function shownProblems(
  file: readonly DiagnosticSummary[],
  floors: readonly DiagnosticSummary[] = [],
): DiagnosticSummary[] {
  return [...file, ...floors].sort((a, b) => a.line - b.line || a.column - b.column);
}

export function Problems({
  diagnostics,
  sidechains,
}: {
  diagnostics: DiagnosticSummary[];
  sidechains: number;
}) {
  return (
    <section aria-label="Problems" data-testid="problems">
      {sidechains > 0 ? (
        <p>{sidechains} sub-agent conversation(s) are kept apart and not shown in the list.</p>
      ) : null}
      {diagnostics.length === 0 ? (
        <p className="empty">No problems found in this file.</p>
      ) : (
        <ul className="problems">
          {diagnostics.map((d) => (
            <li key={`${d.line}:${d.column}:${d.code}`} className={`problem-${d.severity}`}>
              <span className="problem-where">
                {d.line}:{d.column}
              </span>{' '}
              <span className="problem-code">{d.code}</span> {d.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
