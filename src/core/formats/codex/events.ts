// The records of a Codex rollout that change more than the list of items: the events (token counts, compactions,
// rollbacks, aborted turns, echoes of items) and the `compacted` record.

import { compactJson, findValue, isObject, str } from '../json';
import type { JsonlRecord } from '../jsonl';
import { carriedText } from '../responseItems';
import { reportUsageProblems } from '../usage';
import { decodeLine, malformedCompaction, sum, usageOf } from './records';
import { compactionHere, markCut, type Rollout, rollBack } from './rollout';

/** Events that echo a response item already in the log (shown once, as the item). */
const ECHO_EVENTS = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'token_count',
]);

/** An `event_msg` record. */
export function readEvent(st: Rollout, rec: JsonlRecord, payload: Record<string, unknown>): void {
  const event = str(payload.type) ?? '';
  if (event === 'token_count') {
    const info = isObject(payload.info) ? payload.info : undefined;
    if (!info) return;
    const total = compactJson(info.total_token_usage);
    if (total === st.previousTotal) return; // the same count repeated (Codex writes it twice at times)
    st.previousTotal = total;
    const usage = usageOf(
      info,
      reportUsageProblems(st.diags, st.bytes, rec.span, ['payload', 'info', 'last_token_usage']),
    );
    const reply = st.conv.lastAssistant();
    if (!usage) return;
    st.countFirst ??= !reply;
    if (st.countFirst) {
      st.waiting = st.waiting ? sum(st.waiting, usage) : usage;
      return;
    }
    if (!reply) {
      st.diags.add(
        'info',
        'usage-without-reply',
        'a token_count before any assistant reply: not attached',
        rec.source.line,
        1,
      );
      return;
    }
    reply.usage = reply.usage ? sum(reply.usage, usage) : usage;
    // Counted after all (a count written after the restart): a request like any other.
    if (reply.flags?.includes('cut')) {
      reply.flags = reply.flags.filter((f) => f !== 'cut');
      const note = st.diags.list.findIndex(
        (d) => d.code === 'cut-reply' && d.line === (reply.source?.line ?? rec.source.line),
      );
      if (note >= 0) st.diags.list.splice(note, 1);
    }
    return;
  }
  // A compaction's event: the `compacted` record beside it says the rest. Some rollouts hold the event
  // alone: it is then the only sign that the requests after it no longer send the older turns.
  if (event === 'context_compacted' && !compactionHere(st)) {
    st.conv.marker({
      kind: 'compaction',
      label: 'context_compacted',
      source: rec.source,
      text: 'compaction (the log holds no summary: its tokens only the log tells)',
    });
    return;
  }
  if (event === 'turn_aborted') markCut(st, rec.source.line, 'the turn was aborted');
  if (event === 'thread_rolled_back') {
    const turns = payload.num_turns;
    const valid = typeof turns === 'number' && Number.isInteger(turns) && turns >= 0;
    if (!valid) {
      const line = decodeLine(st.bytes, rec.span);
      const at = findValue(line, ['payload', 'num_turns']);
      st.diags.add(
        'warning',
        'unexpected-record',
        `thread_rolled_back: num_turns is ${compactJson(turns).slice(0, 40)}, not a count of turns: nothing rolled back`,
        rec.source.line,
        (at?.start ?? 0) + 1,
      );
    }
    const dropped = valid ? rollBack(st, turns, rec.source.line) : 0;
    st.conv.marker({
      kind: 'meta-record',
      label: 'event_msg:thread_rolled_back',
      source: rec.source,
      text: valid
        ? `${turns} turn${turns === 1 ? '' : 's'} rolled back: ${dropped} message${dropped === 1 ? '' : 's'} no longer sent`
        : 'not read (num_turns is not a count)',
    });
    return;
  }
  if (ECHO_EVENTS.has(event)) {
    st.echoes.count++;
    st.echoes.line ||= rec.source.line;
    return;
  }
  st.conv.marker({
    kind: 'meta-record',
    label: `event_msg:${event}`,
    source: rec.source,
    text: str(payload.message) ?? '',
  });
}

/** A `compacted` record: the history that replaces the older turns, or (when malformed) a marker that says why not. */
export function readCompacted(st: Rollout, rec: JsonlRecord, payload: Record<string, unknown>): void {
  const bad = malformedCompaction(rec.value);
  if (bad) {
    // Read as a compaction, it would drop every earlier turn on the strength of nothing.
    const line = decodeLine(st.bytes, rec.span);
    const at = findValue(line, bad.path);
    st.diags.add(
      'warning',
      'unexpected-record',
      `a compacted record that is no compaction: ${bad.why}; the earlier turns are still sent`,
      rec.source.line,
      (at?.start ?? 0) + 1,
    );
    st.conv.marker({ kind: 'unknown-record', label: 'compacted (malformed)', source: rec.source });
    return;
  }
  // The event written just before it stood for this compaction: the record says it whole.
  const event = compactionHere(st);
  if (event?.label === 'context_compacted') st.conv.markers.splice(st.conv.markers.indexOf(event), 1);
  // Newer Codex writes the whole history that replaces the older turns (`replacement_history`: the user's
  // messages kept, the summary, or a server-side encrypted one); older ones the summary text alone.
  const message = str(payload.message) ?? '';
  const history = Array.isArray(payload.replacement_history) ? payload.replacement_history : undefined;
  const carried = history ? carriedText(history) : undefined;
  const encrypted = carried?.encrypted
    ? `, ${carried.encrypted} encrypted (their tokens only the log tells)`
    : '';
  st.conv.marker({
    kind: 'compaction',
    label: 'compacted',
    source: rec.source,
    text: history
      ? `${history.length} items carried over${encrypted}${message ? `: ${message}` : ''}`
      : message,
    summary: carried ? carried.text : message,
  });
}
