// Shared by the unit tests: the real fixtures, and small builders for hand-made transcripts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'real');

export function fixtureFiles(): string[] {
  // A task folder's files beside its history (Cline, Roo Code, Kilo Code) are read with it, not on their own.
  const beside = /(^|\/)(ui_messages|task_metadata)\.json$/;
  const under = (dir: string): string[] =>
    readdirSync(join(FIXTURES, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? under(join(dir, e.name)) : [join(dir, e.name)],
    );
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => under(d.name))
    .filter((f) => !beside.test(f))
    .sort();
}

/** Every real fixture as a full path, in the order of `fixtureFiles`. */
export function fixturePaths(): string[] {
  return fixtureFiles().map((f) => join(FIXTURES, f));
}

export function fixture(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, relative)));
}

export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function text(b: Uint8Array): string {
  return new TextDecoder().decode(b);
}

export function jsonl(records: unknown[]): Uint8Array {
  return bytes(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

export function lines(b: Uint8Array): string[] {
  return text(b).split('\n');
}

/** Claude Code records with the fields the runtime writes, chained by parentUuid unless told otherwise. */
export class ClaudeSession {
  records: Record<string, unknown>[] = [];
  private last: string | null = null;
  private n = 0;

  private id(): string {
    this.n++;
    return `00000000-0000-4000-8000-${String(this.n).padStart(12, '0')}`;
  }

  add(record: Record<string, unknown>, parent: string | null | undefined = this.last): string {
    const uuid = (record.uuid as string | undefined) ?? this.id();
    this.records.push({
      parentUuid: parent,
      isSidechain: false,
      sessionId: 's1',
      type: 'user',
      ...record,
      uuid,
      timestamp: `2026-01-01T00:00:${String(this.n).padStart(2, '0')}Z`,
    });
    this.last = uuid;
    return uuid;
  }

  user(content: unknown, extra: Record<string, unknown> = {}, parent?: string | null): string {
    return this.add(
      { type: 'user', message: { role: 'user', content }, ...extra },
      parent === undefined ? this.last : parent,
    );
  }

  assistant(
    msgId: string,
    content: unknown[],
    usage?: Record<string, unknown>,
    parent?: string | null,
  ): string {
    const message: Record<string, unknown> = { id: msgId, role: 'assistant', model: 'claude-test', content };
    if (usage) message.usage = usage;
    return this.add({ type: 'assistant', message }, parent === undefined ? this.last : parent);
  }

  result(toolUseId: string, content: unknown, parent?: string | null, isError = false): string {
    return this.user(
      [{ type: 'tool_result', tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) }],
      { toolUseResult: { copy: content } },
      parent,
    );
  }

  bytes(): Uint8Array {
    return jsonl(this.records);
  }
}
