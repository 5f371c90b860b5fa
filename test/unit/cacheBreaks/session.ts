// Hand-made Claude Code logs for the cache-break tests: each reply with the usage the provider would record, at
// times the test sets, so that a break and its cause are what the test wrote.
import { analyzeSync } from '../../../src/core/analysis';
import { type CacheBreakReport, loggedBreaks, simulatedBreaks } from '../../../src/core/cacheBreaks';
import { clonePolicy, DEFAULT_POLICY, type Policy, type PolicyName } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import type { Transcript } from '../../../src/core/model';
import { ClaudeSession } from '../formats/helpers';

export const SONNET = 'claude-sonnet-4-5';
export const OPUS = 'claude-opus-4-5';

export interface Usage {
  read: number;
  written: number;
  input?: number;
  /** Of `written`, the 1-hour writes (absent: the log does not say). */
  oneHour?: number;
}

/** A session whose records are timed by the test: one second apart, plus the gaps it asks for. */
export class TimedSession extends ClaudeSession {
  private gaps = new Map<number, number>();
  private replies = 0;

  /** The next record comes `ms` after the one before it (plus its second). */
  wait(ms: number): void {
    this.gaps.set(this.records.length, (this.gaps.get(this.records.length) ?? 0) + ms);
  }

  reply(u: Usage, model = SONNET, content: unknown[] = [{ type: 'text', text: 'ok' }]): string {
    this.replies++;
    const usage: Record<string, unknown> = {
      input_tokens: u.input ?? 2,
      cache_read_input_tokens: u.read,
      cache_creation_input_tokens: u.written,
      output_tokens: 40,
    };
    if (u.oneHour !== undefined)
      usage.cache_creation = {
        ephemeral_1h_input_tokens: u.oneHour,
        ephemeral_5m_input_tokens: u.written - u.oneHour,
      };
    const id = this.assistant(`msg_${this.replies}`, content, usage);
    (this.records[this.records.length - 1].message as Record<string, unknown>).model = model;
    return id;
  }

  transcript(): Transcript {
    let t = Date.parse('2026-03-01T10:00:00Z');
    this.records.forEach((r, i) => {
      t += 1000 + (this.gaps.get(i) ?? 0);
      r.timestamp = new Date(t).toISOString();
    });
    return parseTranscript(this.bytes(), 'session.jsonl');
  }
}

export function policyNamed(name: PolicyName, change: (p: Policy) => void = () => {}): Policy {
  const p = clonePolicy(DEFAULT_POLICY);
  p.name = name;
  p.replay.trigger = 'everyRequest';
  change(p);
  return p;
}

/** The breaks the log records, over the replay under none. */
export function logged(t: Transcript): CacheBreakReport {
  return loggedBreaks(t, analyzeSync(t, policyNamed('none')).analysis, 'main');
}

/** The breaks the replay under `policy` makes. */
export function replayed(t: Transcript, policy: Policy): CacheBreakReport {
  return simulatedBreaks(t, analyzeSync(t, policy).analysis, policy, 'main', logged(t));
}
