// The view kept of a large file for its next open (viewSnapshots.ts): shown at once while the file is parsed,
// when the settings in force are those it was made under, then confirmed or replaced by the parse; kept again when
// the file closes, as it was left. No editor API here: the document hands in its settings and its panels.

import type { Transcript } from '../core/model';
import { sameData } from '../core/sameData';
import { MAIN_THREAD } from '../core/threads';
import type { HostMessage } from '../protocol';
import { REAL_CLOCK, type SessionClock } from './clock';
import type { FileSource } from './fileSource';
import type { EffectiveSettings } from './policySettings';
import type { ViewSnapshot } from './viewSnapshots';
import { SNAPSHOT_MIN_FILE_BYTES, type ViewSnapshots } from './viewSnapshots';

type Maybe<T> = T | Promise<T>;

/** What the kept view asks of the session (session.ts, or its proxy on the host: remoteSession.ts). */
export interface KeptSession {
  readonly fileName: string;
  /** Whether the transcript shown is the whole file's main conversation. */
  readonly showsWholeFile: boolean;
  /** False when the kept list is one a view would refuse. */
  restore(snapshot: Pick<ViewSnapshot, 'list' | 'analysis'>): Maybe<boolean>;
  /** Packed where the session runs in a thread of its own (listWire.ts). */
  transcriptMessage(): Maybe<Extract<HostMessage, { type: 'transcript' | 'list' }> | null>;
  complete(): Maybe<ViewSnapshot['analysis'] | null>;
}

/** The longest the parse of a file shown from a kept snapshot waits for a view to take it. */
const RESTORED_SHOWN_WAIT_MS = 3_000;

/** What the kept view needs of the document. */
export interface KeptViewPorts {
  source: FileSource;
  session: KeptSession;
  snapshots: ViewSnapshots | null;
  /** The settings in force for a transcript of that format (null: before any is known). */
  settingsFor(transcript: Pick<Transcript, 'format'> | null): EffectiveSettings;
  /** The settings the restored view was made under become those in force. */
  adopt(settings: EffectiveSettings): void;
  settingsMessage(): Extract<HostMessage, { type: 'settings' }>;
  broadcast(message: HostMessage): void;
  /** Whether a view is ready to be sent the snapshot. */
  anyViewReady(): boolean;
  warn(message: string): void;
}

export class KeptView {
  /** Set while the views show a kept snapshot and the file is parsed: their requests wait for the parse (and, when
   * it did not confirm the snapshot, for the first analysis). */
  parsing: Promise<void> | null = null;
  private endParsing = () => {};
  /** Called once a view took the messages of a kept snapshot (then the parse starts: see `restore`). */
  private viewTookRestored = () => {};
  /** The settings of the snapshot kept, as [policy, summarizer]. */
  private keptUnder: unknown = null;

  constructor(
    private readonly ports: KeptViewPorts,
    private readonly clock: SessionClock = REAL_CLOCK,
  ) {}

  /** Whether a view of the file at `path` is kept from an earlier open (known without hashing the file). */
  async isKeptFor(path: string): Promise<boolean> {
    return (await this.ports.snapshots?.keptFor(path)) ?? false;
  }

  /** The parse ended (or failed): the views' requests go on. */
  parsed(): void {
    this.endParsing();
  }

  /** A view took the analysis sent whole. */
  viewTook(): void {
    this.viewTookRestored();
  }

  /** Notes whether a snapshot may be kept of `bytes`, and shows the one kept of them while the file is parsed, when
   * the settings in force make the policy of its analysis, one is kept for the file and the views were shown
   * nothing of it yet (`mayShow`); requests from the views wait for the parse. */
  async restore(bytes: Uint8Array, mayShow: boolean): Promise<boolean> {
    const { source, session, snapshots } = this.ports;
    const eligible =
      source.onDisk &&
      bytes.length >= SNAPSHOT_MIN_FILE_BYTES &&
      this.ports.settingsFor(null).summarizer !== 'vscode-lm';
    source.mayKeepSnapshotOf(eligible ? bytes : null);
    if (!mayShow || !snapshots || !eligible) return false;
    const key = source.keyOfSnapshot();
    const snapshot = key && (await key.then((k) => snapshots.find(k)).catch(() => null));
    if (!snapshot) return false;
    const { list, analysis } = snapshot;
    // The settings' defaults depend on the transcript's format only.
    const settings = this.ports.settingsFor({ format: analysis.analysis.format });
    if (!sameData([settings.policy, settings.summarizer], [analysis.policy, snapshot.settings.summarizer]))
      return false;
    // The views' requests wait from now on: for the session to take the snapshot, then for the parse.
    this.parsing = new Promise<void>((resolve) => {
      this.endParsing = () => {
        this.parsing = null;
        this.endParsing = () => {};
        resolve();
      };
    });
    // (A session's thread that failed restores nothing: the parse shows the file.)
    if (!(await Promise.resolve(session.restore(snapshot)).catch(() => false))) {
      this.endParsing();
      return false;
    }
    this.ports.adopt(settings);
    this.keptUnder = [analysis.policy, settings.summarizer];
    this.ports.broadcast(list);
    this.ports.broadcast(this.ports.settingsMessage());
    this.ports.broadcast(analysis);
    // The parse waits until a view took them (at most a few seconds): on 2 cores, parsing beside the view's first
    // render delays the figures the snapshot is there to show at once.
    await new Promise<void>((resolve) => {
      const cancel = this.clock.after(RESTORED_SHOWN_WAIT_MS, resolve);
      this.viewTookRestored = () => {
        cancel();
        resolve();
      };
      if (this.ports.anyViewReady()) this.viewTookRestored();
    });
    this.viewTookRestored = () => {};
    return true;
  }

  /** Keeps what the views now show for the next open of the same file: when it is the exact analysis of the whole
   * file, of its main conversation, under the settings in force, and not kept already. Whether settings.json holds
   * them is checked when the snapshot is found. */
  async keep(): Promise<void> {
    const { source, session, snapshots } = this.ports;
    const key = source.keyOfSnapshot();
    // Both asked at once: a view closed is answered what it showed before the session ends.
    const [transcript, analysis] = await Promise.all([session.transcriptMessage(), session.complete()]);
    if (!snapshots || !key || !transcript || !analysis || analysis.analysis.tokensPending) return;
    // Of the whole file's main conversation only (a packed transcript: as the session says of the one it shows).
    const whole =
      transcript.type === 'list'
        ? session.showsWholeFile
        : !transcript.beginning && (transcript.thread ?? MAIN_THREAD) === MAIN_THREAD;
    if (!whole) return;
    const settings = this.ports.settingsMessage();
    const made = [analysis.policy, settings.summarizer];
    if (!sameData(analysis.policy, settings.policy) || sameData(made, this.keptUnder)) return;
    this.keptUnder = made;
    await snapshots
      .keep(await key, { transcript, settings, analysis })
      .catch((e) =>
        this.ports.warn(
          `could not keep the view of ${session.fileName}: ${e instanceof Error ? e.message : String(e)}`,
        ),
      );
  }
}
