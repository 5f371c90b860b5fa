// Details of the selected message: per block, the original and the compressed text side by side with the
// differences marked, the paired tool call's arguments, the events of that message, and "Reveal in source".
import { type Change, diffLines, diffWordsWithSpace } from 'diff';
import { useMemo } from 'react';
import type { MessageAnalysis } from '../../src/core/analysisTypes';
import type { Policy } from '../../src/core/engine/policy';
import type { BlockDetail } from '../../src/protocol/shared';
import type { DetailsInfo } from '../state';
import { Button } from '../ui/toolkit';
import { describeEvent } from './rows';
import { type MessageWhy, whyLines } from './why';

/** Longer texts are shown cut, with the count of what is not shown: a 1 MB tool output would stall the page. */
const SHOWN_CHARS = 20_000;
/** Word diffs are quadratic in the worst case; above this size the diff is by lines. */
const WORD_DIFF_CHARS = 4_000;

export function Details(props: {
  index: number | null;
  details: DetailsInfo | null;
  analysis: MessageAnalysis | null;
  /** The engine's facts behind the message's fate, and the settings the analysis ran with (the why-lines). */
  facts?: MessageWhy | null;
  policy?: Policy | null;
  onReveal: (messageIndex: number, blockIndex?: number) => void;
}) {
  const { index, details, analysis } = props;
  if (index === null) {
    return <p className="empty">Select a message to see its blocks before and after the policy.</p>;
  }
  if (!details || details.messageIndex !== index) {
    return <p className="empty">Loading message #{index}…</p>;
  }
  return (
    <section className="details" aria-label={`Details of message ${index}`} data-testid="details">
      <header className="details-header">
        <h2>
          Message #{index}
          {analysis ? (
            <span className="details-facts">
              {' '}
              {analysis.role}
              {analysis.tier !== null ? ` · Tier ${analysis.tier}` : ''}
              {analysis.distance !== null ? ` · distance ${analysis.distance}` : ''}
              {analysis.floored ? ' · floor' : ''} · {analysis.zone} · {analysis.tokensBefore} →{' '}
              {analysis.tokensAfter} tokens
            </span>
          ) : null}
        </h2>
        <Button
          secondary
          ariaLabel="Reveal in source"
          testId="reveal-in-source"
          onClick={() => props.onReveal(index)}
        >
          Reveal in source
        </Button>
      </header>
      <Why
        lines={
          analysis && props.facts && props.policy
            ? whyLines(analysis, props.facts, props.policy, {
                events: details.events,
                compressed: new Map(
                  details.blocks.flatMap((b) =>
                    b.compressed !== null ? [[b.blockIndex, b.compressed]] : [],
                  ),
                ),
              })
            : []
        }
      />
      {details.events.length > 0 ? (
        <ul className="events" aria-label="Events">
          {details.events.map((e) => (
            <li key={`${e.blockIndex}-${e.requestIndex}-${e.action}`}>
              {describeEvent(e)}{' '}
              <span className="hash" title="SHA-256 of the old and new content (first 12 hex digits)">
                {e.oldHash} → {e.newHash}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {details.blocks.map((b) => (
        <BlockView key={b.blockIndex} block={b} onReveal={() => props.onReveal(index, b.blockIndex)} />
      ))}
    </section>
  );
}

/** The rule that gave the message its fate, with its numbers. */
function Why({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <ul className="why" aria-label="Why" data-testid="why">
      {lines.map((line) => (
        <li key={line} data-testid="why-line">
          {line}
        </li>
      ))}
    </ul>
  );
}

function BlockView({ block, onReveal }: { block: BlockDetail; onReveal: () => void }) {
  return (
    <article className="block" data-testid="block-detail" data-block-index={block.blockIndex}>
      <h3>
        Block {block.blockIndex}: {block.kind}
        {block.toolName ? ` · ${block.toolName}` : ''}
        {block.toolUseId ? <span className="tool-id hash"> {block.toolUseId}</span> : null}
        {block.line ? (
          <button
            type="button"
            className="link-button"
            onClick={onReveal}
            aria-label={`line ${block.line}: reveal block ${block.blockIndex} in source`}
          >
            line {block.line}
          </button>
        ) : null}
      </h3>
      {block.toolArgs !== undefined ? (
        <details className="tool-args" open={block.kind === 'tool_result'}>
          <summary>{block.kind === 'tool_result' ? 'Paired call’s arguments' : 'Arguments'}</summary>
          <pre>{clip(block.toolArgs)}</pre>
        </details>
      ) : null}
      {block.compressed === null ? (
        <pre className="block-text" data-testid="original-text">
          {clip(block.original)}
        </pre>
      ) : (
        <SideBySide original={block.original} compressed={block.compressed} />
      )}
    </article>
  );
}

function SideBySide({ original, compressed }: { original: string; compressed: string }) {
  const changes = useMemo(() => {
    const a = original.slice(0, SHOWN_CHARS);
    const b = compressed.slice(0, SHOWN_CHARS);
    return a.length + b.length <= WORD_DIFF_CHARS ? diffWordsWithSpace(a, b) : diffLines(a, b);
  }, [original, compressed]);
  return (
    <div className="side-by-side">
      <Pane name="Original" text={original} changes={changes} side="removed" />
      <Pane name="Compressed" text={compressed} changes={changes} side="added" />
    </div>
  );
}

/** One side of the diff: the changes of the other side are left out, this side's are marked. */
function Pane(props: {
  name: 'Original' | 'Compressed';
  text: string;
  changes: Change[];
  side: 'added' | 'removed';
}) {
  return (
    <section className="pane" aria-label={props.name}>
      <h4>
        {props.name} <span className="count">{props.text.length} chars</span>
      </h4>
      <pre className="block-text" data-testid={`${props.name.toLowerCase()}-text`}>
        {render(props.changes, props.side)}
        {more(props.text)}
      </pre>
    </section>
  );
}

function render(changes: Change[], side: 'added' | 'removed') {
  // Keys are offsets into the shown text: stable for one diff, unique within it.
  let offset = 0;
  return changes.map((c) => {
    if (side === 'removed' && c.added) return null;
    if (side === 'added' && c.removed) return null;
    const key = offset;
    offset += c.value.length;
    return c.added || c.removed ? (
      <mark key={key} className={`diff-${side}`}>
        {c.value}
      </mark>
    ) : (
      <span key={key}>{c.value}</span>
    );
  });
}

function clip(text: string): string {
  return text.length > SHOWN_CHARS
    ? `${text.slice(0, SHOWN_CHARS)}\n… ${text.length - SHOWN_CHARS} more chars`
    : text;
}

function more(text: string) {
  return text.length > SHOWN_CHARS ? (
    <span className="more">{`\n… ${text.length - SHOWN_CHARS} more chars`}</span>
  ) : null;
}
