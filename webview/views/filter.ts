// The list's filters: by tier, tool, role, rewritten, and the text the host found (results, arguments, thinking).
// Each filter reads what the host sent; none decides anything about compression.
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type { Role } from '../../src/core/model';
import type { MessageSummary } from '../../src/protocol/shared';

export interface ListFilter {
  /** `none`: messages without a tool result. */
  tier: 'any' | '1' | '2' | '3' | 'none';
  tool: string;
  role: 'any' | Role;
  rewritten: boolean;
  query: string;
}

export const NO_FILTER: ListFilter = { tier: 'any', tool: '', role: 'any', rewritten: false, query: '' };

export function isFiltering(f: ListFilter): boolean {
  return f.tier !== 'any' || f.tool !== '' || f.role !== 'any' || f.rewritten || f.query.trim() !== '';
}

/** The messages that pass every filter, in order. `found`: the host's matches for `f.query` (null: not answered
 * yet, the text filter waits and lets every message through). */
export function filteredMessages(
  f: ListFilter,
  messages: readonly MessageSummary[],
  analysis: ViewAnalysis | null,
  found: ReadonlySet<number> | null,
): number[] {
  const out: number[] = [];
  const query = f.query.trim() !== '';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (f.role !== 'any' && m.role !== f.role) continue;
    if (f.tool !== '' && !(m.toolNames ?? []).includes(f.tool)) continue;
    const a = analysis?.messages[i];
    if (f.tier !== 'any') {
      const tier = a?.tier ?? null;
      if (f.tier === 'none' ? tier !== null : String(tier) !== f.tier) continue;
    }
    if (f.rewritten && !a?.rewritten) continue;
    if (query && found && !found.has(i)) continue;
    out.push(i);
  }
  return out;
}

/** Every tool name the transcript's messages call or answer, sorted. */
export function toolNamesOf(messages: readonly MessageSummary[]): string[] {
  const names = new Set<string>();
  for (const m of messages) for (const n of m.toolNames ?? []) names.add(n);
  return [...names].sort();
}
