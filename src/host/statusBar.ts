// The status bar for the transcript in front: tokens before → after under the current policy. In Context Lens
// it shows the view's own analysis (what the sliders say), and so it does for a saved file open as text that a
// Context Lens view shows whole; for another transcript open as text it runs the policy itself (offline summarizers
// only: focusing a file never calls a model). A click opens the file in Context Lens.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { AnalysisTotals, VsNone } from '../core/analysisTypes';
import { FORMATS } from '../core/formats';
import type { Transcript } from '../core/model';
import { signedPercent } from '../verdictWords';
import { costWords } from '../vsNoneWords';
import { VIEW_TYPE } from './commands';
import { untrusted } from './escape';
import { activeTranscriptUri } from './export';
import { LatestParse } from './latestParse';
import type { TextSettings } from './parseWorker';
import { readSettings, SECTION } from './settings';
import type { TranscriptEditorProvider } from './transcriptEditor';

/** Transcripts open as text above this size are not analysed for the status bar (it would block the host). */
const TEXT_ANALYSIS_LIMIT = 5 * 1024 * 1024;
const DEBOUNCE_MS = 500;

function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** The transcript's size before → after (a size, not a saving) and, when the policy was measured against its
 * baseline, what it costs against it, signed, naming it: the one savings figure. */
export function statusText(
  totals: Pick<AnalysisTotals, 'tokensBefore' | 'tokensAfter'>,
  vsNone?: Pick<VsNone, 'deltaShare' | 'deltaCost' | 'baseline'>,
): string {
  const { tokensBefore: b, tokensAfter: a } = totals;
  return `$(telescope) ${compact(b)} → ${compact(a)} tokens${vsNone ? ` · cost ${signedPercent(vsNone.deltaShare)} vs ${vsNone.baseline === 'none' ? 'none' : 'as logged'}` : ''}`;
}

/** The status bar item's accessible name: plain words, no Markdown escapes, no icon syntax. */
export function statusAccessibleName(
  fileName: string,
  policyName: string,
  totals: Pick<AnalysisTotals, 'tokensBefore' | 'tokensAfter'>,
  vsNone?: VsNone,
): string {
  const { tokensBefore: b, tokensAfter: a } = totals;
  const name = plainText(fileName);
  return `Context Lens: ${name} under policy ${plainText(policyName)}, transcript size ${b.toLocaleString('en-US')} tokens before, ${a.toLocaleString('en-US')} after${vsNone ? `; it ${costWords(vsNone)}` : ''}. Open in Context Lens.`;
}

/** Untrusted text for an accessible name: control and bidi characters out, no icon syntax. */
const plainText = (s: string) =>
  s
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\$\(/g, '$ (');

export class TranscriptStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'contextLens.tokens',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly disposables: vscode.Disposable[] = [this.item];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The file in front while it is open in Context Lens: its figures follow the view's analysis as it changes. */
  private following: string | undefined;
  /** The last text-editor analysis: (uri, version, policy) → totals, so refocusing costs nothing. */
  private last: { key: string; totals: AnalysisTotals; policyName: string; summarizer: string } | null = null;

  /** The text's parse and analysis run in a worker thread (a one-line JSON body of a few MB takes seconds). */
  private readonly parses: LatestParse;

  constructor(
    parseScript: string,
    private readonly provider?: TranscriptEditorProvider,
  ) {
    this.parses = new LatestParse(parseScript);
    this.disposables.push(this.parses);
    this.item.name = 'Context Lens tokens';
    vscode.window.tabGroups.onDidChangeTabs(() => this.schedule(0), null, this.disposables);
    vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0), null, this.disposables);
    // The view's sliders, the file growing and steps run ahead change its analysis: shown as they land. The view's
    // document may also register a moment after its tab; its first analysis arrives here all the same.
    provider?.onDidChangeAnalysis(
      (doc) => doc.uri.toString() === this.following && this.showLens(doc.uri),
      null,
      this.disposables,
    );
    vscode.workspace.onDidChangeTextDocument(
      (e) => e.document.uri.toString() === activeTranscriptUri()?.toString() && this.schedule(),
      null,
      this.disposables,
    );
    vscode.workspace.onDidChangeConfiguration(
      (e) => e.affectsConfiguration(SECTION) && this.schedule(),
      null,
      this.disposables,
    );
    this.schedule(0);
  }

  private schedule(delay = DEBOUNCE_MS): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), delay);
  }

  async update(): Promise<void> {
    const uri = activeTranscriptUri();
    // A text analysis still running is for what was in front before: its figures would be stale.
    this.parses.cancel('text');
    this.following = undefined;
    if (!uri) {
      this.item.hide();
      return;
    }
    this.item.command = {
      title: 'Open in Context Lens',
      command: 'vscode.openWith',
      arguments: [uri, VIEW_TYPE],
    };
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    // A file open as text and, saved, in Context Lens too: the view's own analysis is the file's, not parsed again.
    if ((input instanceof vscode.TabInputCustom && input.viewType === VIEW_TYPE) || this.lensHoldsText(uri)) {
      this.following = uri.toString();
      this.showLens(uri);
      return;
    }
    try {
      await this.showText(uri);
    } catch {
      // Not a transcript after all (any .json file can be in front): say nothing.
      this.item.hide();
    }
  }

  /** Whether the text of `uri` is saved and its Context Lens view shows an analysis of the whole file. */
  private lensHoldsText(uri: vscode.Uri): boolean {
    const key = uri.toString();
    const text = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    const doc = this.provider?.openDocuments().find((d) => d.uri.toString() === key);
    return !!text && !text.isDirty && !!doc?.session.analysis && doc.session.showsWholeFile;
  }

  private showLens(uri: vscode.Uri): void {
    const doc = this.provider?.openDocuments().find((d) => d.uri.toString() === uri.toString());
    const analysis = doc?.session.analysis;
    if (!doc || !analysis) {
      this.item.text = '$(telescope) Context Lens: analysing…';
      this.item.accessibilityInformation = undefined;
      this.item.tooltip = undefined;
      this.item.show();
      return;
    }
    this.show(
      uri,
      analysis.totals,
      analysis.policyName,
      analysis.summarizer ?? doc.settings.summarizer,
      analysis.vsNone,
    );
  }

  private async showText(uri: vscode.Uri): Promise<void> {
    const text = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!text) return void this.item.hide();
    const source = text.getText();
    if (source.length > TEXT_ANALYSIS_LIMIT) {
      this.item.text = '$(telescope) Context Lens';
      this.item.accessibilityInformation = undefined;
      this.item.tooltip = `${untrusted(basename(uri.path))} is large: open it in Context Lens to see tokens before → after`;
      this.item.show();
      return;
    }
    // The settings for each format (they differ only by the format's defaults): the worker picks its own.
    const settings: Partial<Record<string, TextSettings>> = {};
    for (const f of FORMATS) {
      const s = readSettings({ format: f.id } as Transcript);
      settings[f.id] = {
        policy: s.policy,
        summarizer: s.summarizer === 'extractive' ? 'extractive' : 'none',
      };
    }
    const key = JSON.stringify([uri.toString(), text.version, settings]);
    if (this.last?.key !== key) {
      const figures = await this.parses.totals(
        'text',
        new TextEncoder().encode(source),
        uri.fsPath,
        settings,
      );
      // Superseded by a newer update (another file in front, an edit): that one shows its own figures.
      if (!figures) return;
      this.last = { key, ...figures };
    }
    this.show(uri, this.last.totals, this.last.policyName, this.last.summarizer);
  }

  private show(
    uri: vscode.Uri,
    totals: AnalysisTotals,
    policyName: string,
    summarizer: string,
    vsNone?: VsNone,
  ): void {
    this.item.text = statusText(totals, vsNone);
    // The file name is untrusted: appended as text (escaped Markdown) to a tooltip that runs no command link,
    // renders no HTML and no icons, whatever the defaults become.
    const t = new vscode.MarkdownString();
    t.isTrusted = false;
    t.supportHtml = false;
    t.supportThemeIcons = false;
    t.appendText(
      `${untrusted(basename(uri.path))} under policy ${untrusted(policyName)} (summarizer ${untrusted(summarizer)}): `,
    );
    t.appendText(
      `transcript size ${totals.tokensBefore.toLocaleString('en-US')} → ${totals.tokensAfter.toLocaleString('en-US')} tokens.`,
    );
    if (vsNone) t.appendText(` It ${costWords(vsNone)}.`);
    if (totals.summarizerAttempts > 0)
      t.appendText(
        ` Summarizer: ${totals.summarizerAttempts} attempts, ${totals.summarizerFailures} failed.`,
      );
    t.appendText('\n\nClick to open in Context Lens.');
    this.item.tooltip = t;
    // Screen readers read this instead of the tooltip, whose escaped Markdown they read as markup (&nbsp;, \-).
    this.item.accessibilityInformation = {
      label: statusAccessibleName(basename(uri.path), policyName, totals, vsNone),
      role: 'button',
    };
    this.item.show();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

export function registerStatusBar(
  context: vscode.ExtensionContext,
  provider?: TranscriptEditorProvider,
): vscode.Disposable {
  const parseScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'parseWorker.js').fsPath;
  return new TranscriptStatusBar(parseScript, provider);
}
