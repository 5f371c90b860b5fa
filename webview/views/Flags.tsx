// A figure that looks wrong, said where the figure is, with why it may be (core/sanity.ts words it).
import type { SanityFlag } from '../../src/core/analysisTypes';

export function Flags(props: { flags?: SanityFlag[]; where: SanityFlag['where'] }) {
  const shown = (props.flags ?? []).filter((f) => f.where === props.where);
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((f) => (
        <p key={f.kind} className="sanity-flag" role="note" data-testid={`flag-${f.kind}`}>
          <span aria-hidden="true">⚠ </span>
          {f.message}
        </p>
      ))}
    </>
  );
}
