// A Claude Code log into the canonical transcript: the main conversation's active branch, its sub-agents,
// compactions, reloads and every recorded reply.
import { pushAll } from '../../arrays';
import type { Marker, SourceRange, Transcript } from '../../model';
import { joinRanges } from '../text';
import { Diagnostics, type Sniff } from '../types';
import { activeBranch, earlierConversations, newConversations } from './branch';
import { type Entry, lastTurn, linkPrevTurns } from './entry';
import { buildMessages, mainModel, recordedReplies } from './messages';
import { readRecords } from './records';
import { microcompactReloads, offBranchWarning, reloadsOf } from './reloads';
import { sidechainMarkers, subAgentsOf } from './subAgents';

export function parse(sniff: Sniff, reason: string): Transcript {
  const diags = new Diagnostics();
  const { entries } = readRecords(sniff.bytes, diags);
  const byUuid = new Map<string, Entry>();
  for (const e of entries) if (e.uuid && !byUuid.has(e.uuid)) byUuid.set(e.uuid, e);

  const {
    main,
    sidechains,
    groups: sideGroups,
    firstOf: sideFirst,
    threadOf,
  } = subAgentsOf(entries, byUuid, diags);

  const markers: Marker[] = [];
  linkPrevTurns(main);
  const leaf = lastTurn(main);
  const chains = leaf ? [activeBranch(leaf, main, byUuid, diags)] : [];
  if (leaf) pushAll(chains, earlierConversations(main, byUuid, diags));
  let offBranch: { marker: Marker; count: number } | undefined;
  const skipped: Entry[] = [];
  const clearedBy = new Map<object, string[]>();
  for (const e of main) if (e.marker && e.clearedToolIds) clearedBy.set(e.marker, e.clearedToolIds);
  const microcompacts: { at: number; ids: string[]; source: SourceRange }[] = [];
  const messages = buildMessages(
    main,
    (marker, msgs) => {
      markers.push({ ...marker, beforeMessage: msgs.length });
      const ids = clearedBy.get(marker);
      // The first request that sends the last message before the boundary is the first the clearing applies to
      // (a reload applies to the requests that send its `at` message and later ones).
      if (ids)
        microcompacts.push({ at: Math.max(0, msgs.length - 1), ids, source: marker.source as SourceRange });
    },
    (record, msgs) => {
      skipped.push(record);
      if (offBranch && offBranch.marker.beforeMessage === msgs.length) {
        offBranch.count++;
        offBranch.marker.source = joinRanges(
          offBranch.marker.source as SourceRange,
          record.source as SourceRange,
        );
        offBranch.marker.text = `${offBranch.count} records not on the active branch (an edited or abandoned turn)`;
      } else {
        const marker: Marker = {
          kind: 'meta-record',
          label: 'off-branch',
          beforeMessage: msgs.length,
          source: record.source,
          text: '1 record not on the active branch (an edited or abandoned turn)',
        };
        markers.push(marker);
        offBranch = { marker, count: 1 };
      }
    },
  );
  if (skipped.length > 0) offBranchWarning(skipped, main, diags);
  const conversations = newConversations(chains, diags);
  for (const first of conversations.starts)
    markers.push({
      kind: 'meta-record',
      label: 'new-conversation',
      beforeMessage: first.message,
      source: first.source,
      text: 'a new conversation in the same session: the earlier ones are no longer sent',
    });
  const reloads = [
    ...conversations.reloads,
    ...reloadsOf(main, byUuid, diags),
    ...microcompactReloads(messages, microcompacts, diags),
  ];
  let mainMessages = messages;
  let model = mainModel(main);
  if (mainMessages.length === 0 && main.every((e) => e.kind !== 'turn') && sidechains.length === 1) {
    // A sub-agent's own file (agent-*.jsonl): its one conversation is what the user opened. It stays in
    // `sidechains` too, so code that looks for sub-agents finds it.
    mainMessages = sidechains[0].messages;
    model = mainModel(sideGroups.values().next().value ?? []);
    diags.add(
      'info',
      'sidechain-only',
      `the file holds only the sub-agent conversation ${sidechains[0].id}: shown as the conversation`,
      1,
      1,
    );
  } else {
    pushAll(markers, sidechainMarkers(sideFirst, messages));
    markers.sort(
      (a, b) => a.beforeMessage - b.beforeMessage || (a.source?.start ?? 0) - (b.source?.start ?? 0),
    );
  }
  const transcript: Transcript = {
    format: 'claude-code',
    formatReason: reason,
    messages: mainMessages,
    markers,
    sidechains,
    diagnostics: diags.list,
    raw: sniff.bytes,
    replies: recordedReplies(entries, (e) => threadOf.get(e) ?? 'main'),
  };
  if (model) transcript.model = model;
  if (reloads.length > 0 && mainMessages === messages) transcript.reloads = reloads;
  return transcript;
}
