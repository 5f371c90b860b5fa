// What the reader found wrong in the file (broken records, unpaired calls…), with line and column.
import type { DiagnosticSummary } from '../../src/protocol/shared';

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
