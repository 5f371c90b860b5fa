// "Context Lens: Export Compacted Transcript": the command palette, the editor title and the webview's Export
// button all run it. It writes the transcript in its own format under the current policy (a save dialog proposes
// `<name>.compacted.<ext>` beside the source), the CCR store when live-zone markers were written, and on request
// the Anthropic Messages request; then says what was saved and offers Open and Compare with source.
//
// Tests skip the dialogs by passing an options object `{ source?, target?, anthropicRequest?, dropToolUseResult? }`
// (Uris or file paths; source defaults to the transcript in front, target to `<name>.compacted.<ext>` beside it):
// then nothing is asked, errors are thrown to the caller, and the command returns the ExportResult. A keybinding
// can pass the same options (`"args": { "anthropicRequest": true }`).
import * as vscode from 'vscode';
import { adapterFor } from '../core/formats/registry';
import type { FormatId } from '../core/model';
import {
  anthropicRequestPathFor,
  compactedPathFor,
  type ExportResult,
  exportCompacted,
} from '../node/exportFile';
import { readRegularFile } from '../node/readRegularFile';
import { EXPORT_COMMAND, VIEW_TYPE } from './commands';
import {
  compareTitle,
  exportedMessage,
  exportFailedMessage,
  exportingTitle,
  requestChoiceDetail,
} from './exportMessages';
import { parseOffThread } from './parseOffThread';
import { readSettings } from './settings';
import { summarizerFor } from './summarizers';
import type { TranscriptEditorProvider } from './transcriptEditor';

export interface ExportArgs {
  source?: vscode.Uri | string;
  target?: vscode.Uri | string;
  anthropicRequest?: boolean;
  /** Claude Code: drop the runtime's `toolUseResult` copies from the records a rewrite touches (SPEC §9). */
  dropToolUseResult?: boolean;
}

interface ExportChoice {
  target: vscode.Uri;
  anthropicRequest: boolean;
  dropToolUseResult: boolean;
}

const toUri = (u: vscode.Uri | string) => (typeof u === 'string' ? vscode.Uri.file(u) : u);

/** The transcript "in front": the Context Lens tab, else a .jsonl/.json text editor. */
export function activeTranscriptUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputCustom && input.viewType === VIEW_TYPE) return input.uri;
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && /\.jsonl?$/i.test(doc.uri.path)) return doc.uri;
  return undefined;
}

interface KindItem extends vscode.QuickPickItem {
  request: boolean;
  drop: boolean;
}

async function chooseTargets(source: vscode.Uri, format: FormatId): Promise<ExportChoice | undefined> {
  const requestPath = anthropicRequestPathFor(compactedPathFor(source.fsPath));
  const items: KindItem[] = [
    {
      label: `Same format (${format})`,
      detail: 'The compacted transcript, and its CCR store when markers were written',
      request: false,
      drop: false,
    },
    {
      label: 'Same format, and also as an Anthropic Messages request',
      detail: requestChoiceDetail(requestPath),
      request: true,
      drop: false,
    },
  ];
  const adapter = adapterFor(format);
  if (adapter.toolOutputCopy)
    items.push({
      label: `Same format, without ${adapter.toolOutputCopy} copies`,
      detail: `Drops ${adapter.session?.agent ?? format}'s own copy of each rewritten tool output (never sent to the model) from its record`,
      request: false,
      drop: true,
    });
  const kind = await vscode.window.showQuickPick(items, {
    title: 'Context Lens: export compacted transcript',
  });
  if (!kind) return undefined;
  const target = await vscode.window.showSaveDialog({
    title: 'Export compacted transcript',
    defaultUri: vscode.Uri.file(compactedPathFor(source.fsPath)),
    saveLabel: 'Export',
    filters: { Transcript: [source.path.slice(source.path.lastIndexOf('.') + 1)], 'All files': ['*'] },
  });
  return target ? { target, anthropicRequest: kind.request, dropToolUseResult: kind.drop } : undefined;
}

export function registerExport(
  context: vscode.ExtensionContext,
  provider?: TranscriptEditorProvider,
): vscode.Disposable {
  const parseScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'parseWorker.js').fsPath;
  return vscode.commands.registerCommand(EXPORT_COMMAND, async (arg?: vscode.Uri | ExportArgs) => {
    const scripted = arg !== undefined && !(arg instanceof vscode.Uri);
    const args: ExportArgs = arg instanceof vscode.Uri ? { source: arg } : (arg ?? {});
    try {
      return await runExport(args, scripted, parseScript, provider);
    } catch (error) {
      // With options the caller gets the error (a keybinding's rejected command is shown by the editor itself).
      if (scripted) throw error;
      void vscode.window.showErrorMessage(exportFailedMessage(error));
      return undefined;
    }
  });
}

async function runExport(
  args: ExportArgs,
  scripted: boolean,
  parseScript: string,
  provider?: TranscriptEditorProvider,
): Promise<ExportResult | undefined> {
  const source = args.source ? toUri(args.source) : activeTranscriptUri();
  if (!source)
    throw new Error(
      'no transcript is open: open a .jsonl or .json transcript (or its Context Lens view) first',
    );
  if (source.scheme !== 'file') throw new Error(`${source.toString()}: only files on disk can be exported`);
  // A regular file only: /dev/zero never ends, a FIFO without a writer would block a thread forever.
  // Parsed in a worker thread: a one-line JSON body of a few MB takes seconds to parse.
  const transcript = await parseOffThread(parseScript, await readRegularFile(source.fsPath), source.fsPath);
  // The policy the view shows when the file is open in Context Lens, else the saved settings for its format.
  const open = provider?.openDocuments().find((d) => d.uri.toString() === source.toString());
  const settings = open?.settings ?? readSettings(transcript);

  let target: vscode.Uri | undefined = args.target ? toUri(args.target) : undefined;
  let anthropicRequest = args.anthropicRequest ?? false;
  let dropToolUseResult = args.dropToolUseResult ?? false;
  if (!target) {
    // Called with options (tests, other extensions): no dialog, the default name beside the source.
    if (scripted) target = vscode.Uri.file(compactedPathFor(source.fsPath));
    else {
      const chosen = await chooseTargets(source, transcript.format);
      if (!chosen) return undefined;
      ({ target, anthropicRequest, dropToolUseResult } = chosen);
    }
  }
  if (target.scheme !== 'file') throw new Error(`${target.toString()}: only files on disk can be written`);

  const result = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: exportingTitle(source.fsPath),
      cancellable: true,
    },
    (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return exportCompacted({
        source: source.fsPath,
        transcript,
        policy: settings.policy,
        target: target.fsPath,
        anthropicRequest,
        // The save dialog asked before replacing the target; the CCR store and the request beside it go with it.
        replace: true,
        // The notification says what the policy costs against none, beside the transcript's size.
        vsNone: true,
        compact: {
          summarizer: summarizerFor(settings.summarizer, settings.policy),
          signal: abort.signal,
          dropToolUseResult,
        },
      });
    },
  );
  void announce(source, result);
  return result;
}

async function announce(source: vscode.Uri, r: ExportResult): Promise<void> {
  const choice = await vscode.window.showInformationMessage(
    exportedMessage(r),
    'Open',
    'Compare with source',
  );
  const target = vscode.Uri.file(r.target);
  if (choice === 'Open') await vscode.commands.executeCommand('vscode.open', target);
  else if (choice === 'Compare with source')
    await vscode.commands.executeCommand(
      'vscode.diff',
      source,
      target,
      compareTitle(source.fsPath, r.target),
    );
}
