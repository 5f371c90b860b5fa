// Gemini CLI sessions into the canonical transcript: the JSONL log (since 2026: a metadata line, message records
// re-appended whole each time the agent updates one, `$set` metadata updates, `$set.messages` history checkpoints,
// `$rewindTo` rewinds) replayed as the agent replays it on resume, and the older JSON document (`ConversationRecord`,
// rewritten whole).
import type { RecordedReply, SourceRange, Transcript } from '../../model';
import { isObject, str } from '../json';
import { brokenNote, docLocation, documentParts } from '../jsonDoc';
import { brokenLineMarker, type JsonlRecord, readJsonl } from '../jsonl';
import { mostFrequent } from '../mostFrequent';
import { Diagnostics, type Sniff } from '../types';
import { messageReplies } from '../usage';
import { type GeminiConversation, type GeminiEntry, GeminiReader, geminiUsage } from './messages';

/** A record that is a message (`MessageRecord`): an id and a type. */
export function isMessageRecord(r: Record<string, unknown>): boolean {
  return typeof r.id === 'string' && typeof r.type === 'string' && 'content' in r;
}

function entryOf(rec: JsonlRecord, value: Record<string, unknown>, path: (string | number)[]): GeminiEntry {
  return {
    value,
    recordStart: rec.span.start,
    recordEnd: rec.span.end,
    recordLine: rec.span.index + 1,
    path,
    source: rec.source,
  };
}

interface Segment {
  entries: Map<string, GeminiEntry>;
  /** The `$set.messages` record that started it. */
  from?: { source: SourceRange; label: string };
}

export function parseLog(s: Sniff, reason: string): Transcript {
  const diags = new Diagnostics();
  const segments: Segment[] = [{ entries: new Map() }];
  const rewound: GeminiEntry[] = [];
  const everyEntry: GeminiEntry[] = [];
  const counts = { meta: 0, updates: 0, sets: 0, rewinds: 0, other: 0 };
  const broken: { line: Parameters<typeof brokenLineMarker>[0]; segment: number }[] = [];
  readJsonl(
    s.bytes,
    diags,
    (rec) => {
      const r = rec.value;
      const current = segments[segments.length - 1].entries;
      if (isMessageRecord(r)) {
        const id = r.id as string;
        if (current.has(id)) counts.updates++;
        const e = entryOf(rec, r, []);
        current.set(id, e);
        everyEntry.push(e);
        return;
      }
      if (typeof r.$rewindTo === 'string') {
        counts.rewinds++;
        let found = false;
        for (const [id, e] of current) {
          if (id === r.$rewindTo) found = true;
          if (found) {
            rewound.push(e);
            current.delete(id);
          }
        }
        if (!found) {
          for (const e of current.values()) rewound.push(e);
          current.clear();
        }
        return;
      }
      if (isObject(r.$set)) {
        counts.sets++;
        const list = r.$set.messages;
        if (!Array.isArray(list)) return;
        const before = new Set(segments.flatMap((g) => [...g.entries.keys()]));
        const next = new Map<string, GeminiEntry>();
        let fresh = 0;
        list.forEach((m, i) => {
          if (!isObject(m) || !isMessageRecord(m)) return;
          const e = entryOf(rec, m, ['$set', 'messages', i]);
          if (before.has(m.id as string)) e.copy = true;
          else fresh++;
          next.set(m.id as string, e);
          everyEntry.push(e);
        });
        const label =
          fresh > 0
            ? 'chat compression ($set.messages: the history replaced, with new turns)'
            : 'history replaced ($set.messages)';
        segments.push({ entries: next, from: { source: rec.source, label } });
        return;
      }
      if (typeof r.sessionId === 'string' && !('type' in r)) {
        counts.meta++;
        return;
      }
      counts.other++;
      diags.once(
        `gemini-record:${Object.keys(r).join(',')}`,
        'info',
        'unknown-record',
        `a record with keys ${Object.keys(r).slice(0, 6).join(', ')} is neither a message, a metadata update nor a rewind: skipped`,
        rec.source,
      );
    },
    (line) => broken.push({ line, segment: segments.length - 1 }),
  );
  const reader = new GeminiReader(diags, everyEntry);
  segments.forEach((g, k) => {
    if (g.from) reader.compaction(g.from.label, g.from.source);
    for (const b of broken) if (b.segment === k) reader.marker(brokenLineMarker(b.line, 0));
    reader.read([...g.entries.values()]);
  });
  diags.add(
    'info',
    'gemini-log',
    `${everyEntry.length} message records (${counts.updates} of them updates of an earlier one: the last is read), ` +
      `${counts.meta} metadata, ${counts.sets} $set, ${counts.rewinds} $rewindTo (${rewound.length} messages rewound)` +
      (counts.other ? `, ${counts.other} other` : ''),
    1,
    1,
  );
  return transcript('gemini-cli', s, reason, reader.done(), diags, rewound);
}

export function parseDocument(s: Sniff, reason: string): Transcript {
  const { doc, pos, diags } = documentParts(s);
  const top = isObject(doc.value) ? doc.value : {};
  const list = Array.isArray(top.messages) ? top.messages : [];
  const entries: GeminiEntry[] = [];
  list.forEach((m, i) => {
    if (!isObject(m)) return;
    const loc = docLocation(s.bytes, ['messages', i]);
    entries.push({
      value: m,
      recordStart: loc.recordStart,
      recordEnd: loc.recordEnd,
      recordLine: loc.recordLine,
      path: loc.path,
      source: pos.rangeAt(['messages', i]),
    });
  });
  const reader = new GeminiReader(diags, entries);
  reader.read(entries);
  return transcript('gemini-cli-json', s, reason + brokenNote(doc), reader.done(), diags, []);
}

function transcript(
  format: 'gemini-cli' | 'gemini-cli-json',
  s: Sniff,
  reason: string,
  conv: GeminiConversation,
  diags: Diagnostics,
  rewound: GeminiEntry[],
): Transcript {
  const replies = messageReplies(conv.messages);
  for (const e of rewound) {
    const usage = e.value.type === 'gemini' ? geminiUsage(e.value.tokens) : undefined;
    if (!usage) continue;
    const reply: RecordedReply = { thread: 'main', onBranch: false, usage, line: e.recordLine };
    const model = str(e.value.model);
    if (model) reply.model = model;
    const ts = str(e.value.timestamp);
    if (ts) reply.timestamp = ts;
    replies.push(reply);
  }
  replies.sort((a, b) => a.line - b.line);
  const t: Transcript = {
    format,
    formatReason: reason,
    messages: conv.messages,
    markers: conv.markers,
    sidechains: [],
    diagnostics: diags.list,
    replies,
    raw: s.bytes,
  };
  const model = mostFrequent(conv.models);
  if (model) t.model = model;
  return t;
}
