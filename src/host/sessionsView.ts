// The Sessions view in the activity bar: every session of the agents whose logs the registry can find on this
// machine (Claude Code, Codex…), by project or by day, with what each cost and its verdict: the strategy that would
// have cost the least against the baseline, and what it saves. The list comes first (the
// first bytes of each file: titles in a moment); the figures follow from worker threads, one per core at a low
// priority, row by row, with a progress bar in the view; nothing runs on the editor's thread but the listing. A
// session that grows or appears is listed and replayed again a moment later. A click opens it in Context Lens.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { adapterFor, discoverableFormats } from '../core/formats/registry';
import type { SessionFigures } from '../core/history';
import type { FormatId } from '../core/model';
import type { TokenizerName } from '../core/tokens/counter';
import { runHistoryPool } from '../node/historyPool';
import { engineId, ReportResults } from '../node/reportResults';
import { discoverSessions, type SessionFile, sessionRoots } from '../node/sessionFiles';
import { sessionWatches } from '../node/sessionWatches';
import { TokenStore } from '../node/tokenStore';
import { SETTING_KEYS } from '../protocol';
import { VIEW_TYPE } from './commands';
import { untrusted } from './escape';
import {
  type AgentNode,
  buildTree,
  figureLines,
  groupDescription,
  projectLabel,
  type SessionNode,
  SORT_KEYS,
  type SortKey,
  sessionDescription,
  sessionVerdict,
  sizeWords,
  type TreeNode,
  verdictFigure,
} from './sessionsTree';
import type { SessionsWorkerData } from './sessionsWorker';
import { SECTION } from './settings';
import { mirrorInWorker } from './storeMirror';

export const SESSIONS_VIEW = 'contextLens.sessions';
/** A file that changes is replayed again this long after its last change (an agent appends every few hundred ms). */
const SETTLE_MS = 2_000;
/** The tree is redrawn at most this often while figures arrive. */
const REDRAW_MS = 300;

function explicitSettings(): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const i = config.inspect(key);
    const v = i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
    if (v !== undefined) out[key] = v;
  }
  return out;
}

const flatten = (files: SessionFile[]): SessionFile[] =>
  files.flatMap((f) => [f, ...flatten(f.subAgents ?? [])]);

export class SessionsProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private sessions: Partial<Record<FormatId, SessionFile[]>> = {};
  private readonly figures = new Map<string, SessionFigures>();
  private readonly errors = new Map<string, string>();
  /** Per path, the file's size, time and the settings its figures were computed with. */
  private readonly computedFor = new Map<string, string>();
  private sort: SortKey = 'date';
  private filter = '';
  private tree: AgentNode[] = [];
  private listed = false;
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private redrawTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private run: AbortController | null = null;
  private refreshing: Promise<void> | null = null;
  private again = false;
  view: vscode.TreeView<TreeNode> | undefined;

  constructor(
    private readonly workerScript: string,
    private readonly tokenDir: string,
  ) {}

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.kind === 'agent') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.id;
      const sessions = node.children.reduce((a, g) => a + g.children.length, 0);
      item.description = `${sessions} session${sessions === 1 ? '' : 's'}`;
      item.iconPath = new vscode.ThemeIcon(adapterFor(node.agent).session?.icon ?? 'sparkle');
      return item;
    }
    if (node.kind === 'group') {
      const byDay = adapterFor(node.agent).session?.groupBy === 'day';
      const label = byDay ? node.label : projectLabel(node.label);
      const item = new vscode.TreeItem(untrusted(label), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = node.id;
      item.description = groupDescription(node);
      item.tooltip = untrusted(node.label);
      item.iconPath = new vscode.ThemeIcon(byDay ? 'calendar' : 'folder');
      item.contextValue = 'sessionGroup';
      return item;
    }
    return this.sessionItem(node);
  }

  private sessionItem(node: SessionNode): vscode.TreeItem {
    const f = node.file;
    // A sub-agent by what its caller said it does, else by the task it was given.
    const title = node.name ?? (f.firstPrompt || f.path.split(/[\\/]/).pop() || f.path);
    // The verdict's figure leads the row, a column no side bar cuts; its strategy leads the description.
    const verdict = node.figures && sessionVerdict(node.figures);
    const figure = verdict ? `${verdictFigure(verdict)}  ` : '';
    const item = new vscode.TreeItem(
      {
        label: `${figure}${untrusted(title, 60)}`,
        highlights: verdict?.best ? [[0, figure.length - 2]] : [],
      },
      node.children.length > 0
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = node.id;
    item.description = sessionDescription(node);
    item.resourceUri = vscode.Uri.file(f.path);
    item.iconPath = new vscode.ThemeIcon(f.subAgent ? 'hubot' : 'comment-discussion');
    item.contextValue = 'session';
    const tip = new vscode.MarkdownString(undefined, false);
    tip.isTrusted = false;
    tip.supportHtml = false;
    tip.appendText(`${untrusted(title, 300)}\n\n`);
    if (node.name && f.firstPrompt) tip.appendText(`${untrusted(f.firstPrompt, 300)}\n\n`);
    tip.appendText(`${untrusted(f.path)}\n${sizeWords(f.size)}, modified ${f.modified.toLocaleString()}\n`);
    if (node.error) tip.appendText(`\n${untrusted(node.error)}`);
    else if (node.figures) tip.appendText(`\n${figureLines(node, verdict).join('\n')}`);
    item.tooltip = tip;
    item.command = { title: 'Open in Context Lens', command: 'contextLens.sessions.open', arguments: [node] };
    return item;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) return this.tree;
    return node.children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    const find = (nodes: TreeNode[], parent: TreeNode | undefined): TreeNode | undefined => {
      for (const n of nodes) {
        if (n === node) return parent;
        const inner = find(n.children, n);
        if (inner) return inner;
      }
      return undefined;
    };
    return find(this.tree, undefined);
  }

  private rebuild(): void {
    this.tree = buildTree({
      sessions: this.sessions,
      figures: this.figures,
      errors: this.errors,
      sort: this.sort,
      filter: this.filter,
    });
    this.changed.fire(undefined);
    if (this.view) {
      const n = flatten(Object.values(this.sessions).flat()).length;
      this.view.message = !this.listed
        ? 'Listing sessions…'
        : n === 0
          ? `No sessions in ${discoverableFormats()
              .flatMap((f) => sessionRoots(f))
              .join(' or ')}`
          : undefined;
    }
  }

  private redrawSoon(): void {
    if (this.redrawTimer) return;
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = undefined;
      this.rebuild();
    }, REDRAW_MS);
  }

  /** Lists the sessions again, then replays those that are new or changed since (or all, after a settings change). */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        do {
          this.again = false;
          await this.listAndCompute();
        } while (this.again);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private async listAndCompute(): Promise<void> {
    const found = await discoverSessions(process.env, {
      mirrorStore: mirrorInWorker(dirname(this.workerScript)),
    });
    this.sessions = Object.fromEntries(found.map(({ format, files }) => [format.id, files]));
    this.listed = true;
    this.rebuild();
    const explicit = explicitSettings();
    const settingsKey = JSON.stringify(explicit);
    const files = flatten(found.flatMap((f) => f.files));
    const stale = files.filter(
      (f) => this.computedFor.get(f.path) !== `${f.size}:${f.modified.getTime()}:${settingsKey}`,
    );
    if (stale.length === 0) return;
    // Figures kept from an earlier run of this view (or a report with the same settings and engine) for the
    // files that have not changed since: read, not replayed.
    const results = ReportResults.open(this.tokenDir, (m) => console.warn(`Context Lens: ${m}`));
    const key = createHash('sha256')
      .update(JSON.stringify([engineId(this.workerScript), explicit]))
      .digest('hex');
    const stats = new Map<string, { size: number; mtimeMs: number; ino: number }>();
    const need: SessionFile[] = [];
    for (const f of stale) {
      const s = await stat(f.path).catch(() => null);
      const kept = s && results.get(f.path, key, s);
      if (s) stats.set(f.path, { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
      if (!kept) {
        need.push(f);
        continue;
      }
      this.figures.set(f.path, kept.row);
      this.errors.delete(f.path);
      this.computedFor.set(f.path, `${f.size}:${f.modified.getTime()}:${settingsKey}`);
    }
    need.sort((a, b) => b.size - a.size);
    if (need.length === 0) {
      await results.save();
      this.rebuild();
      return;
    }
    this.rebuild();
    this.run?.abort();
    const stop = new AbortController();
    this.run = stop;
    const stores = new Map<TokenizerName, TokenStore>();
    for (const t of ['o200k_base', 'cl100k_base'] as const)
      stores.set(
        t,
        await TokenStore.openAsync(this.tokenDir, t, { warn: (m) => console.warn(`Context Lens: ${m}`) }),
      );
    const data: SessionsWorkerData = { explicit };
    let done = 0;
    await vscode.window.withProgress(
      { location: { viewId: SESSIONS_VIEW }, title: 'Replaying sessions' },
      async (progress) => {
        await runHistoryPool(
          need.map((f) => ({ path: f.path, size: f.size, modified: f.modified.getTime() })),
          {
            script: this.workerScript,
            data,
            // One thread per core, less one for the editor itself.
            threads: Math.max(1, availableParallelism() - 1),
            stores,
            signal: stop.signal,
            onReply: (reply, file) => {
              const listed = need.find((f) => f.path === file.path);
              if (listed)
                this.computedFor.set(file.path, `${listed.size}:${listed.modified.getTime()}:${settingsKey}`);
              if ('error' in reply) {
                this.errors.set(file.path, reply.error);
                this.figures.delete(file.path);
              } else {
                this.figures.set(file.path, reply.row);
                this.errors.delete(file.path);
                const st = stats.get(file.path);
                if (st && !reply.grew && !reply.cutPartialLine) results.set(file.path, st, key, reply.row);
              }
              done++;
              progress.report({ increment: 100 / need.length, message: `${done} of ${need.length}` });
              this.redrawSoon();
            },
            onCrash: (file, error) => {
              this.errors.set(file.path, `${file.path}: ${error.message}`);
              done++;
              this.redrawSoon();
            },
          },
        );
      },
    );
    await Promise.all([...stores.values()].map((s) => s.save()));
    await results.save();
    if (this.run === stop) this.run = null;
    this.rebuild();
  }

  /** A file under the agents' folders changed: listed and replayed again once it has settled. */
  changedOnDisk(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), SETTLE_MS);
  }

  setSort(sort: SortKey): void {
    this.sort = sort;
    this.rebuild();
  }

  setFilter(filter: string): void {
    this.filter = filter;
    void vscode.commands.executeCommand('setContext', 'contextLens.sessions.filtered', filter !== '');
    if (this.view) this.view.description = filter ? `filter: ${untrusted(filter, 40)}` : undefined;
    this.rebuild();
  }

  get currentSort(): SortKey {
    return this.sort;
  }

  get currentFilter(): string {
    return this.filter;
  }

  dispose(): void {
    this.run?.abort();
    clearTimeout(this.redrawTimer);
    clearTimeout(this.refreshTimer);
    this.changed.dispose();
  }
}

export function registerSessionsView(context: vscode.ExtensionContext): vscode.Disposable {
  const provider = new SessionsProvider(
    vscode.Uri.joinPath(context.extensionUri, 'dist', 'sessionsWorker.js').fsPath,
    vscode.Uri.joinPath(context.globalStorageUri, 'tokens').fsPath,
  );
  const view = vscode.window.createTreeView(SESSIONS_VIEW, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  provider.view = view;
  const disposables: vscode.Disposable[] = [provider, view];
  // Listed and replayed the first time the view is shown, not at activation.
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void provider.refresh();
    for (const [root, glob] of sessionWatches()) {
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(root), glob),
      );
      watcher.onDidChange(() => provider.changedOnDisk());
      watcher.onDidCreate(() => provider.changedOnDisk());
      watcher.onDidDelete(() => provider.changedOnDisk());
      disposables.push(watcher);
    }
  };
  if (view.visible) start();
  disposables.push(
    view.onDidChangeVisibility((e) => {
      if (e.visible) start();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (started && e.affectsConfiguration(SECTION)) void provider.refresh();
    }),
    vscode.commands.registerCommand('contextLens.sessions.refresh', () => provider.refresh()),
    vscode.commands.registerCommand('contextLens.sessions.open', (node?: TreeNode) => {
      if (node?.kind !== 'session') return;
      return vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(node.file.path), VIEW_TYPE);
    }),
    vscode.commands.registerCommand('contextLens.sessions.sort', async () => {
      const pick = await vscode.window.showQuickPick(
        SORT_KEYS.map((s) => ({ label: s.label, key: s.key, picked: s.key === provider.currentSort })),
        { title: 'Sort sessions', placeHolder: 'Order of the sessions in each project or day' },
      );
      if (pick) provider.setSort(pick.key);
    }),
    vscode.commands.registerCommand('contextLens.sessions.filter', async () => {
      const text = await vscode.window.showInputBox({
        title: 'Filter sessions',
        prompt: 'Sessions whose first prompt, project or file name holds this text',
        value: provider.currentFilter,
      });
      if (text !== undefined) provider.setFilter(text);
    }),
    vscode.commands.registerCommand('contextLens.sessions.clearFilter', () => provider.setFilter('')),
  );
  return vscode.Disposable.from(...disposables);
}
