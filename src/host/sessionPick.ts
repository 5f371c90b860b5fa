// What "Open Agent Session…" offers: the sessions of every agent whose logs can be found, grouped by agent in the
// registry's order, newest first within each, a session's sub-agents under it. Without `vscode`, so that the rows
// are tested as they are shown; commands.ts turns them into quick pick items.
import type { FormatAdapter } from '../core/formats/types';
import type { SessionFile } from '../node/sessionFiles';
import { untrusted } from './escape';

/** One agent's sessions, found under `root`. */
export interface AgentSessions {
  format: FormatAdapter;
  root: string;
  files: SessionFile[];
}

export type PickRow =
  | { kind: 'agent'; label: string }
  | { kind: 'session'; label: string; description: string; detail: string; file: SessionFile };

export function agentName(format: FormatAdapter): string {
  return format.session?.agent ?? format.id;
}

function formatSize(bytes: number): string {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(0)} KB`;
  return `${bytes} B`;
}

function sessionRow(f: SessionFile, under: boolean): PickRow {
  const name = f.firstPrompt || f.path.slice(f.path.lastIndexOf('/') + 1);
  return {
    kind: 'session',
    // The first prompt, the project, the path and a read error's words come from the session files: inert text
    // (no icons, no links).
    label: `${under ? '↳ sub-agent: ' : f.subAgent ? 'sub-agent: ' : ''}${untrusted(name)}`,
    description: `${f.agent ? `${f.agent} · ` : ''}${untrusted(f.project)}`,
    detail: `${f.modified.toLocaleString()} · ${formatSize(f.size)} · ${untrusted(f.path)}${f.error ? ` · ${untrusted(f.error)}` : ''}`,
    file: f,
  };
}

/** The rows of the pick: an agent's heading before its sessions when more than one agent has any (an agent with
 * none is left out); a session's sub-agents follow it, indented: they are parts of it, not sessions of their own. */
export function sessionPickRows(found: readonly AgentSessions[]): PickRow[] {
  const withSessions = found.filter((a) => a.files.length > 0);
  return withSessions.flatMap((a) => [
    ...(withSessions.length > 1 ? [{ kind: 'agent' as const, label: agentName(a.format) }] : []),
    ...a.files.flatMap((f) => [sessionRow(f, false), ...(f.subAgents ?? []).map((s) => sessionRow(s, true))]),
  ]);
}

/** What is said when no agent has a session to offer: where each was looked for. */
export function noSessionsMessage(found: readonly AgentSessions[]): string {
  if (found.length === 1)
    return `Context Lens: no ${agentName(found[0].format)} sessions found under ${untrusted(found[0].root)}.`;
  const places = found.map((a) => `${agentName(a.format)}: ${untrusted(a.root)}`);
  return `Context Lens: no agent sessions found (looked under ${places.join('; ')}).`;
}
