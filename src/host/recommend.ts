// "Context Lens: Recommend a Strategy for This Session": for the transcript in front, which strategy and which
// settings would have cost least against "none" over the same requests (core/recommend.ts, in a worker thread),
// shown as a Markdown document with the figures and the settings to paste. The only value from outside the engine
// in it, the file's name, goes through the one escaping helper.
import { basename } from 'node:path';
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { readRegularFile } from '../node/readRegularFile';
import { untrusted, untrustedError } from './escape';
import { activeTranscriptUri } from './export';
import { recommendationDocument } from './recommendText';
import type { RecommendReply, RecommendWorkerData } from './recommendWorker';
import { explicitSettings } from './settings';
import type { TranscriptEditorProvider } from './transcriptEditor';

export const RECOMMEND_COMMAND = 'contextLens.recommend';

function inWorker(
  script: string,
  data: RecommendWorkerData,
  token: vscode.CancellationToken,
): Promise<RecommendReply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: data });
    const cancel = token.onCancellationRequested(() => {
      void worker.terminate();
      reject(new Error('cancelled'));
    });
    worker.once('message', (reply: RecommendReply) => {
      cancel.dispose();
      void worker.terminate();
      resolve(reply);
    });
    worker.once('error', (error) => {
      cancel.dispose();
      reject(error);
    });
  });
}

export function registerRecommend(
  context: vscode.ExtensionContext,
  provider?: TranscriptEditorProvider,
): vscode.Disposable {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'recommendWorker.js').fsPath;
  return vscode.commands.registerCommand(RECOMMEND_COMMAND, async (arg?: vscode.Uri) => {
    try {
      const source = arg instanceof vscode.Uri ? arg : activeTranscriptUri();
      if (!source) throw new Error('no transcript is open: open a .jsonl or .json transcript first');
      if (source.scheme !== 'file') throw new Error(`${source.toString()}: only files on disk are read`);
      const bytes = await readRegularFile(source.fsPath);
      const open = provider?.openDocuments().find((d) => d.uri.toString() === source.toString());
      const policy = open ? open.settings.policy : { explicit: explicitSettings() };
      const reply = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Context Lens: replaying ${untrusted(basename(source.fsPath))} under every strategy`,
          cancellable: true,
        },
        (_p, token) => inWorker(script, { bytes, fileName: source.fsPath, policy }, token),
      );
      if (!reply.ok) throw new Error(reply.error);
      const doc = await vscode.workspace.openTextDocument({
        language: 'markdown',
        content: recommendationDocument(source.fsPath, reply),
      });
      await vscode.window.showTextDocument(doc, { preview: false });
      return reply;
    } catch (error) {
      if (error instanceof Error && error.message === 'cancelled') return undefined;
      void vscode.window.showErrorMessage(`Context Lens: no recommendation. ${untrustedError(error)}`);
      return undefined;
    }
  });
}
