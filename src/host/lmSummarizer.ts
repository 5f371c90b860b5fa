// SPEC §6 `vscode-lm`: Tier-2 summaries from the editor's Language Model API. The user picks the model (command
// "Context Lens: Choose Summary Model…"); calls run only in a trusted workspace, each under a timeout and
// cancellable from its notification; every summary is kept in the summary store (global storage), so slider moves
// and new sessions never ask twice. A refusal or failure is a failed attempt: the engine falls back to
// head-and-tail and the view says "N attempts, M failed".
import * as vscode from 'vscode';
import { SUMMARY_MAX_OUTPUT_TOKENS, SUMMARY_TEMPERATURE, summaryPrompt } from '../core/engine/summarizer';
import { boundedCall } from './boundedCall';
import { untrusted } from './escape';
import { SECTION, saveTarget } from './settings';
import { registerSummarizer } from './summarizers';
import { type AskModel, SummaryStore, storedSummarizer } from './summaryStore';

export const LM_COMMANDS = {
  chooseSummaryModel: 'contextLens.chooseSummaryModel',
  clearSummaryCache: 'contextLens.clearSummaryCache',
} as const;

/** Per-call limit: a model that does not answer within this is a failed attempt. Covers the consent prompt the
 * editor shows before an extension's first request, so it is generous. */
export const SUMMARY_TIMEOUT_MS = 45_000;
/** SPEC §2 asks for at most 200 output tokens; the API has no portable max-tokens option, so the reply is cut
 * after about that many characters (~6 per token) and the stream cancelled. */
export const SUMMARY_MAX_CHARS = SUMMARY_MAX_OUTPUT_TOKENS * 6;

const MODEL_KEY = 'contextLens.summaryModel';

interface ChosenModel {
  id: string;
  name: string;
  vendor: string;
  family: string;
}

const NO_MODEL = '(no model chosen)';

export function registerLmSummarizer(context: vscode.ExtensionContext): vscode.Disposable {
  const store = new SummaryStore(vscode.Uri.joinPath(context.globalStorageUri, 'summaries.json').fsPath);
  const chosen = () => context.globalState.get<ChosenModel>(MODEL_KEY);
  // Bumped by "Clear Summary Cache": part of the summarizer id, so the engine's in-session cache (keyed by it)
  // does not keep answering with summaries the user just cleared.
  let generation = 0;
  let offeredChoice = false;

  const ask: AskModel = async (toolName, content, signal) => {
    if (!vscode.workspace.isTrusted)
      throw new Error(
        'vscode-lm summaries run only in a trusted workspace (Workspaces: Manage Workspace Trust)',
      );
    const pick = chosen();
    if (!pick) {
      if (!offeredChoice) {
        offeredChoice = true;
        void vscode.window
          .showInformationMessage('Context Lens: choose a language model for summaries.', 'Choose Model…')
          .then((b) => b && vscode.commands.executeCommand(LM_COMMANDS.chooseSummaryModel));
      }
      throw new Error('no language model chosen for summaries: run "Context Lens: Choose Summary Model…"');
    }
    const [model] = await vscode.lm.selectChatModels({ id: pick.id });
    if (!model) throw new Error(`the language model ${pick.name} (${pick.vendor}) is not available any more`);
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        // The tool's name comes from the transcript, the model's from another extension: inert text.
        title: `Context Lens: summarizing a ${untrusted(toolName)} result with ${untrusted(model.name)}`,
        cancellable: true,
      },
      (_progress, token) => askModel(model, toolName, content, signal, token),
    );
  };

  const summarizer = () =>
    storedSummarizer(store, modelLabel(chosen()), ask, generation > 0 ? `#${generation}` : '');

  return vscode.Disposable.from(
    registerSummarizer('vscode-lm', summarizer),
    vscode.commands.registerCommand(LM_COMMANDS.chooseSummaryModel, () => chooseModel(context)),
    vscode.commands.registerCommand(LM_COMMANDS.clearSummaryCache, async () => {
      const n = await store.clear();
      generation++;
      void vscode.window.showInformationMessage(
        `Context Lens: cleared ${n} stored summar${n === 1 ? 'y' : 'ies'}. The next analysis asks the model again.`,
      );
      return n;
    }),
  );
}

function modelLabel(pick: ChosenModel | undefined): string {
  return pick ? `${pick.vendor}/${pick.id}` : NO_MODEL;
}

async function askModel(
  model: vscode.LanguageModelChat,
  toolName: string,
  content: string,
  signal: AbortSignal,
  userToken: vscode.CancellationToken,
): Promise<string> {
  const user = new AbortController();
  const onUser = userToken.onCancellationRequested(() => user.abort());
  try {
    return await boundedCall(
      async (stop) => {
        const cts = new vscode.CancellationTokenSource();
        stop.addEventListener('abort', () => {
          cts.cancel();
          cts.dispose();
        });
        const response = await model.sendRequest(
          [vscode.LanguageModelChatMessage.User(summaryPrompt(toolName, content))],
          {
            justification:
              'Context Lens summarizes long tool results to show what a micro-compaction would keep.',
            // SPEC §2: temperature 0 and at most 200 output tokens. Models that ignore these options are
            // still held to the output cap by the reply cut below.
            modelOptions: { temperature: SUMMARY_TEMPERATURE, max_tokens: SUMMARY_MAX_OUTPUT_TOKENS },
          },
          cts.token,
        );
        return response.text;
      },
      {
        timeoutMs: SUMMARY_TIMEOUT_MS,
        maxChars: SUMMARY_MAX_CHARS,
        cancel: [
          { signal, reason: 'cancelled' },
          { signal: user.signal, reason: 'cancelled by the user' },
        ],
      },
    );
  } catch (error) {
    const detail =
      error instanceof vscode.LanguageModelError
        ? `${error.code}: ${error.message}`
        : String(error instanceof Error ? error.message : error);
    throw new Error(`${model.name}: ${detail}`);
  } finally {
    onUser.dispose();
  }
}

interface ModelItem extends vscode.QuickPickItem {
  model: ChosenModel;
}

async function chooseModel(context: vscode.ExtensionContext): Promise<ChosenModel | undefined> {
  const models = await vscode.lm.selectChatModels();
  if (models.length === 0) {
    void vscode.window.showWarningMessage(
      'Context Lens: no language model is available in this editor. Install and sign in to a chat extension that provides models, then run this command again.',
    );
    return undefined;
  }
  const current = context.globalState.get<ChosenModel>(MODEL_KEY);
  const items: ModelItem[] = models.map((m) => ({
    label: untrusted(m.name),
    description: `${untrusted(m.vendor)} · ${untrusted(m.family)}${current?.id === m.id ? ' · current' : ''}`,
    detail: `${untrusted(m.id)} · up to ${m.maxInputTokens.toLocaleString('en-US')} input tokens`,
    model: { id: m.id, name: m.name, vendor: m.vendor, family: m.family },
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Context Lens: model for Tier-2 summaries',
    placeHolder: 'Summaries are cached per model; each new summary is one request to this model',
  });
  if (!picked) return undefined;
  await context.globalState.update(MODEL_KEY, picked.model);
  const config = vscode.workspace.getConfiguration(SECTION);
  if (config.get('summarizer') !== 'vscode-lm') {
    const use = await vscode.window.showInformationMessage(
      `Context Lens: summaries will use ${untrusted(picked.model.name)}. Switch the summarizer setting to vscode-lm now?`,
      'Use vscode-lm',
    );
    if (use) await config.update('summarizer', 'vscode-lm', saveTarget());
  }
  return picked.model;
}
