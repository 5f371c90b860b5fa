// The verdict card: the answer first. Of the strategies the session's provider offers, the cheapest against the
// baseline and what it saves, the policy in force beside it, Apply (sets the policy) and the lines that turn it on
// in the user's own agent, each with a copy button. The host ranks (core/verdict.ts); this draws and words it.
import { useState } from 'react';
import type { VerdictWire } from '../../src/protocol/shared';
import { costAgainst, currentWords, signedPercent, verdictHeadline } from '../../src/verdictWords';
import { Button } from '../ui/toolkit';

export function Verdict(props: {
  verdict: VerdictWire | null;
  /** The policy in force as the controls show it (a change not yet answered included). */
  policyName: string | undefined;
  onApply: (policyName: string) => void;
  onCopy: (text: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const v = props.verdict;
  if (!v)
    return (
      <section className="verdict" aria-label="Verdict" data-testid="verdict" aria-busy="true">
        <p className="verdict-line">Ranking the strategies of this session's provider…</p>
      </section>
    );
  const target = v.best?.policyName ?? v.baseline;
  const inForce = props.policyName === target;
  const headline = verdictHeadline(v);
  const ranked = v.ranked
    .map(
      (r) => `${r.label}: ${costAgainst(r, v.against)}${r.simulatedFromDocs ? ' (simulated from docs)' : ''}`,
    )
    .join('\n');
  const tooltip = `${headline}\n${currentWords(v)}\n\nAgainst ${v.against} over the same ${v.requests} requests (${v.provider}):\n${ranked}`;
  return (
    <section
      className="verdict"
      aria-label="Verdict"
      data-testid="verdict"
      data-best={v.best?.policyName ?? ''}
    >
      <p className="verdict-line" title={tooltip}>
        <strong data-testid="verdict-best">{headline}</strong>
        <span className="verdict-current" data-testid="verdict-current">
          {currentWords(v)}
        </span>
      </p>
      <span className="verdict-actions">
        {inForce ? (
          <span className="verdict-in-force" data-testid="verdict-in-force">
            in force
          </span>
        ) : (
          <Button
            testId="verdict-apply"
            title={`Set the policy to ${target}`}
            ariaLabel={`Apply ${target}`}
            onClick={() => props.onApply(target)}
          >
            Apply
          </Button>
        )}
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-controls="verdict-details"
          data-testid="verdict-how"
          onClick={() => setOpen(!open)}
        >
          How to turn it on
        </button>
      </span>
      {open ? <TurnOn verdict={v} onCopy={props.onCopy} /> : null}
    </section>
  );
}

function TurnOn({ verdict: v, onCopy }: { verdict: VerdictWire; onCopy: (text: string) => void }) {
  return (
    <div id="verdict-details" className="verdict-details" data-testid="verdict-details">
      <ol className="verdict-ranked" aria-label={`Ranked against ${v.against}`}>
        {v.ranked.map((r) => (
          <li key={r.policyName} data-testid="verdict-rank">
            {r.label}: {signedPercent(r.deltaShare)}
            {r.simulatedFromDocs ? ' (simulated from the provider’s documented behaviour)' : ''}
            {r.clientSide ? ' (a client-side design: no agent ships it)' : ''}
          </li>
        ))}
      </ol>
      {!v.best ? (
        <p>
          No strategy costs less than {v.against} on this session: keep {v.baseline}.
        </p>
      ) : v.turnOn.length === 0 ? (
        <p data-testid="verdict-no-lines">
          {v.best.label} is not something an agent or provider ships: Context Lens’s Export writes what it
          would send.
        </p>
      ) : (
        v.turnOn.map((s) => (
          <figure
            key={`${s.target}\u0000${s.title}`}
            className="turn-on"
            data-testid="verdict-snippet"
            data-target={s.target}
          >
            <figcaption>{s.title}</figcaption>
            <pre className="turn-on-text" data-language={s.language}>
              {s.text}
            </pre>
            <Button
              secondary
              testId="verdict-copy"
              ariaLabel={`Copy: ${s.title}`}
              onClick={() => onCopy(s.text)}
            >
              Copy
            </Button>
            {s.note ? <p className="field-description">{s.note}</p> : null}
          </figure>
        ))
      )}
    </div>
  );
}
