// "Context Lens: Recommend a Strategy for This Session": opens the transcript in front in Context Lens, whose
// verdict card ranks the strategies of the session's provider against none, names the cheapest with what it saves,
// applies it and gives the lines that turn it on (core/verdict.ts). `context-lens recommend` tries settings too.
import * as vscode from 'vscode';
import { VIEW_TYPE } from './commands';
import { untrustedError } from './escape';
import { activeTranscriptUri } from './export';

export const RECOMMEND_COMMAND = 'contextLens.recommend';

export function registerRecommend(): vscode.Disposable {
  return vscode.commands.registerCommand(RECOMMEND_COMMAND, async (arg?: vscode.Uri) => {
    try {
      const source = arg instanceof vscode.Uri ? arg : activeTranscriptUri();
      if (!source) throw new Error('no transcript is open: open a .jsonl or .json transcript first');
      await vscode.commands.executeCommand('vscode.openWith', source, VIEW_TYPE);
      return source;
    } catch (error) {
      void vscode.window.showErrorMessage(`Context Lens: no recommendation. ${untrustedError(error)}`);
      return undefined;
    }
  });
}
