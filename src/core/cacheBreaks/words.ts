// A break's evidence in words, the same in the CLI and (later) the view: "idle 14 h 52 min > 1 h".
import type { CacheTtl, OpenAIRetention } from '../engine/models';
import type { BreakEvidence, ClearedResult } from './types';

const TTL_WORDS: Record<CacheTtl | OpenAIRetention, string> = {
  '5m': '5 min',
  '1h': '1 h',
  in_memory: '10 min (in memory)',
  '24h': '24 h',
};

/** A gap as a person says it: seconds under a minute, minutes under an hour, then hours and minutes. */
export function durationWords(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.round(ms / 1000)} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
}

/** "Read ×3, Bash ×2": the tools whose results were cleared, most first. */
function clearedWords(cleared: readonly ClearedResult[]): string {
  const count = new Map<string, number>();
  for (const c of cleared) count.set(c.tool, (count.get(c.tool) ?? 0) + 1);
  return [...count]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([tool, n]) => (n > 1 ? `${tool} ×${n}` : tool))
    .join(', ');
}

export function evidenceWords(e: BreakEvidence): string {
  switch (e.cause) {
    case 'first':
      return `a new conversation in the same session from message ${e.message}`;
    case 'ttl-expired':
      return `idle ${durationWords(e.idleMs)} > ${TTL_WORDS[e.ttl]}`;
    case 'model-switch':
      return `${e.from} → ${e.to}`;
    case 'compaction':
      if (e.kind === 'micro') {
        const n = e.cleared?.length ?? 0;
        return `microcompaction: ${n} tool result${n === 1 ? '' : 's'} cleared${n > 0 ? ` (${clearedWords(e.cleared ?? [])})` : ''}`;
      }
      if (e.kind === 'simulated')
        return `compaction simulated by the policy: the summary from message ${e.message}`;
      return `${e.kind ? `${e.kind} ` : ''}compaction: the summary from message ${e.message}`;
    case 'rewind':
      return `a turn rewound or edited at message ${e.message}${e.lines ? ` (lines ${e.lines})` : ''}`;
    case 'prefix-changed':
      return `${e.what} (message ${e.message})`;
    case 'rewrite':
      return e.policy
        ? `${e.policy}: ${e.rule} at message ${e.message}`
        : `${e.rule}; the prompt differs from message ${e.message}`;
    case 'server-edit':
      return `context editing cleared ${e.cleared} block${e.cleared === 1 ? '' : 's'} on the server from message ${e.message}`;
    case 'provider-miss':
      return 'nothing in the transcript explains it';
  }
}
