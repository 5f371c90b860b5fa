// A Codex rollout into the canonical transcript: response items as messages, the events' usage on the replies,
// compactions and rollbacks as reloads, each reply's model from its turn's `turn_context`.
import type { Transcript } from '../../model';
import { isObject, str } from '../json';
import { brokenLineMarker, readJsonl, unknownRecordMarker } from '../jsonl';
import { mostFrequent } from '../mostFrequent';
import type { PartPlace } from '../openaiParts';
import { ItemConversation } from '../responseItems';
import { Diagnostics, type Sniff } from '../types';
import { readCompacted, readEvent } from './events';
import { isLegacyItem, isReplyItem, sum } from './records';
import { markCut, newRollout, type Rollout } from './rollout';

export function parse(s: Sniff, reason: string): Transcript {
  const diags = new Diagnostics();
  const conv = new ItemConversation(diags);
  const st = newRollout(s.bytes, diags, conv);
  readJsonl(
    s.bytes,
    diags,
    (rec) => {
      const r = rec.value;
      const type = str(r.type) ?? '';
      const payload = isObject(r.payload) ? r.payload : {};
      const timestamp = str(r.timestamp);
      const place: PartPlace = {
        at: (path, valuePath) => {
          const loc = {
            recordStart: rec.span.start,
            recordEnd: rec.span.end,
            recordLine: rec.span.index + 1,
            path: [...path],
          };
          return valuePath ? { ...loc, valuePath: [...valuePath] } : loc;
        },
        source: () => rec.source,
      };
      switch (type) {
        case 'response_item': {
          conv.add(payload, ['payload'], place, rec.source, timestamp);
          const reply = st.waiting && isReplyItem(payload) ? conv.lastAssistant() : undefined;
          if (reply && st.waiting) {
            reply.usage = reply.usage ? sum(reply.usage, st.waiting) : st.waiting;
            st.waiting = undefined;
          }
          return;
        }
        case 'event_msg':
          readEvent(st, rec, payload);
          return;
        case 'compacted':
          readCompacted(st, rec, payload);
          return;
        case 'session_meta': {
          if (st.sessions++ > 0) markCut(st, rec.source.line, 'the agent restarted');
          const base = isObject(payload.base_instructions) ? str(payload.base_instructions.text) : undefined;
          if (base) st.system = base;
          conv.marker({
            kind: 'meta-record',
            label: 'session_meta',
            source: rec.source,
            text: [str(payload.originator), str(payload.cli_version)].filter(Boolean).join(' '),
          });
          return;
        }
        case 'turn_context':
          st.model = str(payload.model) ?? st.model;
          conv.marker({
            kind: 'meta-record',
            label: 'turn_context',
            source: rec.source,
            text: str(payload.model) ?? '',
          });
          return;
        default:
          if (isLegacyItem(r)) {
            conv.add(r, [], place, rec.source, timestamp);
            return;
          }
          if (rec.span.index === 0 && !type && typeof r.id === 'string') {
            if (typeof r.instructions === 'string' && r.instructions) st.system = r.instructions;
            conv.marker({
              kind: 'meta-record',
              label: 'session header',
              source: rec.source,
              text: str(r.id) ?? '',
            });
            return;
          }
          if (str(r.record_type) === 'state') {
            conv.marker({ kind: 'meta-record', label: 'state', source: rec.source });
            return;
          }
          conv.marker(unknownRecordMarker(type, rec.source, diags));
      }
    },
    (line) => conv.markers.push(brokenLineMarker(line, conv.messages.length)),
  );
  finish(st);
  const t: Transcript = {
    format: 'codex',
    formatReason: reason,
    messages: conv.messages,
    markers: conv.markers,
    sidechains: [],
    diagnostics: diags.list,
    raw: s.bytes,
  };
  if (st.model) t.model = st.model;
  if (st.system) t.system = st.system;
  if (st.reloads.length > 0) t.reloads = st.reloads;
  modelsFromTurnContexts(t);
  t.reasoningKeptWithinTurn = true;
  return t;
}

/** What is left when the last record is read: a count still waiting for its reply, the echoes said once. */
function finish(st: Rollout): void {
  const last = st.conv.lastAssistant();
  if (st.waiting && last) {
    // The count of a reply whose items the file does not hold (the session ended mid-reply): still paid for.
    last.usage = last.usage ? sum(last.usage, st.waiting) : st.waiting;
    st.diags.add(
      'info',
      'usage-without-reply',
      'the last token_count has no reply after it: added to the last reply',
      1,
      1,
    );
  }
  if (st.echoes.count > 0) {
    // Said once, so that no line of the file goes unaccounted for.
    st.diags.add(
      'info',
      'echo-events',
      `${st.echoes.count} event_msg records (agent_message, user_message, agent_reasoning…) repeat response items shown as messages: not shown twice`,
      st.echoes.line,
      1,
    );
  }
}

/** Each reply is answered by the model its turn's `turn_context` names; the session by the one most replies used. */
function modelsFromTurnContexts(t: Transcript): void {
  const contexts = t.markers.filter((m) => m.label === 'turn_context' && m.text);
  let c = 0;
  let current: string | undefined;
  const models: string[] = [];
  for (const m of t.messages) {
    while (c < contexts.length && contexts[c].beforeMessage <= m.index) current = contexts[c++].text;
    if (m.role !== 'assistant' || !current) continue;
    m.model = current;
    models.push(current);
  }
  const best = mostFrequent(models);
  if (best) t.model = best;
}
