// Deterministic Claude Code sessions of any size, shaped like the real fixtures (test/fixtures/real/claude-code):
// the same record types (queue-operation, file-history-snapshot, user/assistant turns sharing `message.id`,
// tool results with `toolUseResult`, `isMeta` hook feedback, compactions, a sub-agent), the same tool mix
// (Read, Bash, Edit, Grep, Glob, Write, TodoWrite, WebFetch) and some long outputs. Used by the parse benchmark,
// by other benchmarks and for sample files. Same (targetBytes, seed) → same bytes.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** mulberry32: small, fast, good enough to vary shapes reproducibly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the function returns value when error file path test config build module import export const let async await ' +
  'promise request response token cache context message tool result session parse write read branch commit ' +
  'déjà naïve 変数 données ✓ → 🙂'
).split(' ');

const TOOLS = [
  'Read',
  'Bash',
  'Edit',
  'Grep',
  'Glob',
  'Read',
  'Bash',
  'Write',
  'TodoWrite',
  'WebFetch',
] as const;

export interface SessionOptions {
  /** Every how many turns a compaction happens (0: never). */
  compactEvery?: number;
  /** Usage as the provider would record it, and compactions as Claude Code makes them: each reply's prompt is the
   * hidden prefix plus what the segment holds so far (estimated at ~4 characters a token), read from cache up to
   * the previous reply's prompt, and the session compacts when the context reaches `compactAtTokens`. Without it,
   * usage figures are random (the parse benchmark needs only their shape). */
  realistic?: { hiddenTokens: number; compactAtTokens: number };
}

/** The records of a session, one JSON line at a time, forever; take as many as you need. */
export function* claudeCodeSessionLines(seed: number, options: SessionOptions = {}): Generator<string> {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const hex = (n: number) => {
    let s = '';
    while (s.length < n)
      s += Math.floor(rand() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return s.slice(0, n);
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const sessionId = uuid();
  const common = {
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/project',
    sessionId,
    version: '2.1.14',
    gitBranch: 'main',
  };
  let clock = Date.UTC(2026, 0, 21, 6, 0, 0);
  const ts = () => {
    clock += int(200, 4000);
    return new Date(clock).toISOString();
  };
  let parent: string | null = null;
  const compactEvery = options.compactEvery ?? 60;

  const fileLines = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `${String(i + 1).padStart(6)}→${'  '.repeat(int(0, 3))}${words(int(2, 12))}`,
    ).join('\n');
  const output = (tool: string): { text: string; result: unknown; isError: boolean } => {
    const long = rand() < 0.08;
    switch (tool) {
      case 'Read': {
        const n = long ? int(800, 2000) : int(20, 200);
        const text = fileLines(n);
        return {
          text,
          result: {
            type: 'text',
            file: {
              filePath: `/home/dev/project/src/${hex(6)}.ts`,
              content: text,
              numLines: n,
              startLine: 1,
              totalLines: n,
            },
          },
          isError: false,
        };
      }
      case 'Bash': {
        const isError = rand() < 0.1;
        const text = Array.from(
          { length: long ? int(1000, 3000) : int(3, 60) },
          () => `${pick(['PASS', 'ok', 'warning:', 'error:', 'info'])} ${words(int(3, 14))}`,
        ).join('\n');
        return {
          text: isError ? `Exit code 1\n${text}` : text,
          result: isError
            ? `Error: Exit code 1\n${text}`
            : { stdout: text, stderr: '', interrupted: false, isImage: false },
          isError,
        };
      }
      case 'Grep':
      case 'Glob': {
        const files = Array.from(
          { length: long ? int(300, 900) : int(2, 40) },
          () => `/home/dev/project/src/${hex(5)}/${hex(6)}.ts`,
        );
        const text =
          tool === 'Grep'
            ? files.map((f) => `${f}:${int(1, 900)}:${words(int(3, 10))}`).join('\n')
            : files.join('\n');
        return {
          text,
          result: { filenames: files, durationMs: int(5, 400), numFiles: files.length, truncated: false },
          isError: false,
        };
      }
      case 'Edit':
      case 'Write':
        return {
          text: `The file /home/dev/project/src/${hex(6)}.ts has been updated.`,
          result: {
            filePath: `/home/dev/project/src/${hex(6)}.ts`,
            oldString: words(int(5, 40)),
            newString: words(int(5, 40)),
            structuredPatch: [
              {
                oldStart: int(1, 300),
                oldLines: 3,
                newStart: 1,
                newLines: 4,
                lines: [` ${words(5)}`, `-${words(6)}`, `+${words(6)}`],
              },
            ],
          },
          isError: false,
        };
      case 'WebFetch': {
        const text = Array.from({ length: long ? int(200, 600) : int(10, 60) }, () => words(int(8, 20))).join(
          '\n\n',
        );
        return {
          text,
          result: {
            bytes: text.length,
            code: 200,
            codeText: 'OK',
            result: text,
            durationMs: int(300, 3000),
            url: `https://example.com/${hex(6)}`,
          },
          isError: false,
        };
      }
      default: {
        const todos = Array.from({ length: int(2, 8) }, () => ({
          content: words(int(3, 8)),
          status: pick(['pending', 'in_progress', 'completed']),
          activeForm: words(3),
        }));
        return {
          text: 'Todos have been modified successfully.',
          result: { oldTodos: [], newTodos: todos },
          isError: false,
        };
      }
    }
  };
  const input = (tool: string): Record<string, unknown> => {
    switch (tool) {
      case 'Read':
        return { file_path: `/home/dev/project/src/${hex(6)}.ts` };
      case 'Bash':
        return {
          command: pick(['npm test', 'git status', 'npx tsc --noEmit', 'ls -la src', 'cargo build']),
          description: words(4),
        };
      case 'Grep':
        return { pattern: pick(WORDS), path: '/home/dev/project', output_mode: 'content' };
      case 'Glob':
        return { pattern: '**/*.ts' };
      case 'Edit':
        return {
          file_path: `/home/dev/project/src/${hex(6)}.ts`,
          old_string: words(int(3, 30)),
          new_string: words(int(3, 30)),
        };
      case 'Write':
        return { file_path: `/home/dev/project/src/${hex(6)}.ts`, content: fileLines(int(10, 80)) };
      case 'WebFetch':
        return { url: `https://example.com/${hex(6)}`, prompt: words(8) };
      default:
        return { todos: [{ content: words(5), status: 'in_progress', activeForm: words(3) }] };
    }
  };
  // Realistic usage: the segment's estimated tokens, and the previous reply's prompt (what the cache holds).
  const real = options.realistic;
  let context = 0;
  let cached = real?.hiddenTokens ?? 0;
  /** Adds a message's content to the segment's estimated tokens, and gives it back. */
  const count = <T>(content: T): T => {
    if (real) context += Math.ceil((JSON.stringify(content)?.length ?? 0) / 4);
    return content;
  };
  const realUsage = (r: NonNullable<SessionOptions['realistic']>) => {
    const prompt = r.hiddenTokens + context;
    const read = Math.min(cached, prompt);
    const input = int(1, 12);
    cached = prompt;
    return {
      input_tokens: input,
      cache_creation_input_tokens: Math.max(0, prompt - read - input),
      cache_read_input_tokens: read,
      cache_creation: {
        ephemeral_5m_input_tokens: Math.max(0, prompt - read - input),
        ephemeral_1h_input_tokens: 0,
      },
      output_tokens: int(3, 1200),
      service_tier: 'standard',
    };
  };
  const usage = () => (real ? realUsage(real) : randomUsage());
  const randomUsage = () => ({
    input_tokens: int(1, 12),
    cache_creation_input_tokens: int(100, 9000),
    cache_read_input_tokens: int(10000, 180000),
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: int(3, 1200),
    service_tier: 'standard',
  });
  const line = (record: Record<string, unknown>) => JSON.stringify(record);

  /** A compaction as Claude Code writes it (2.x): a boundary without a parent, then the summary the next requests
   * start with. */
  function* compaction(): Generator<string> {
    const boundary = uuid();
    yield line({
      parentUuid: null,
      logicalParentUuid: parent,
      ...common,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: ts(),
      uuid: boundary,
      level: 'info',
      compactMetadata: { trigger: 'auto', preTokens: int(150000, 190000) },
    });
    const summary = uuid();
    yield line({
      parentUuid: boundary,
      ...common,
      type: 'user',
      message: {
        role: 'user',
        content: `This session is being continued from a previous conversation. Summary:\n${words(300)}`,
      },
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      uuid: summary,
      timestamp: ts(),
    });
    parent = summary;
    // The next requests carry the summary and what follows; the cache holds only the hidden prefix.
    context = 450;
    cached = real?.hiddenTokens ?? 0;
  }

  yield line({ type: 'queue-operation', operation: 'dequeue', timestamp: ts(), sessionId });
  for (let turn = 1; ; turn++) {
    const promptId = uuid();
    yield line({
      type: 'file-history-snapshot',
      messageId: promptId,
      snapshot: { messageId: promptId, trackedFileBackups: {}, timestamp: ts() },
      isSnapshotUpdate: false,
    });
    if (real ? context >= real.compactAtTokens : compactEvery > 0 && turn % compactEvery === 0)
      yield* compaction();
    const prompt = uuid();
    yield line({
      parentUuid: parent,
      ...common,
      type: 'user',
      message: { role: 'user', content: count(words(int(8, 60))) },
      uuid: prompt,
      timestamp: ts(),
      promptId,
    });
    parent = prompt;
    const steps = int(2, 12);
    for (let step = 0; step < steps; step++) {
      // Claude Code also compacts between the steps of a long turn, before the context outgrows the window.
      if (real && context >= real.compactAtTokens) yield* compaction();
      const msgId = `msg_01${hex(22)}`;
      const requestId = `req_011${hex(20)}`;
      const u = usage();
      const assistant = (content: unknown[]) => {
        const id = uuid();
        const rec = line({
          parentUuid: parent,
          ...common,
          message: {
            model: 'claude-opus-4-5-20251101',
            id: msgId,
            type: 'message',
            role: 'assistant',
            content: count(content),
            stop_reason: null,
            stop_sequence: null,
            usage: u,
          },
          requestId,
          type: 'assistant',
          uuid: id,
          timestamp: ts(),
        });
        parent = id;
        return { id, rec };
      };
      if (rand() < 0.3)
        yield assistant([{ type: 'thinking', thinking: words(int(20, 200)), signature: hex(64) }]).rec;
      if (rand() < 0.6) yield assistant([{ type: 'text', text: words(int(5, 80)) }]).rec;
      const calls = rand() < 0.25 ? int(2, 4) : 1;
      const made: { id: string; tool: string; from: string }[] = [];
      for (let c = 0; c < calls; c++) {
        const tool = pick(TOOLS);
        const id = `toolu_01${hex(22)}`;
        const a = assistant([{ type: 'tool_use', id, name: tool, input: input(tool) }]);
        yield a.rec;
        made.push({ id, tool, from: a.id });
      }
      // Results of parallel calls hang off the line of their own call, as Claude Code writes them.
      let last: string | null = parent;
      for (const call of made) {
        const out = output(call.tool);
        const id = uuid();
        yield line({
          parentUuid: call.from,
          ...common,
          slug: 'generated-bench-session',
          type: 'user',
          message: {
            role: 'user',
            content: count([
              {
                tool_use_id: call.id,
                type: 'tool_result',
                content: out.text,
                ...(out.isError ? { is_error: true } : {}),
              },
            ]),
          },
          uuid: id,
          timestamp: ts(),
          toolUseResult: out.result,
          sourceToolAssistantUUID: call.from,
        });
        last = id;
      }
      parent = last;
    }
    const final = `msg_01${hex(22)}`;
    const id = uuid();
    // The reply's prompt is what came before it: its usage first, then its own content.
    const finalUsage = usage();
    yield line({
      parentUuid: parent,
      ...common,
      message: {
        model: 'claude-opus-4-5-20251101',
        id: final,
        type: 'message',
        role: 'assistant',
        content: count([{ type: 'text', text: words(int(10, 120)) }]),
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: finalUsage,
      },
      requestId: `req_011${hex(20)}`,
      type: 'assistant',
      uuid: id,
      timestamp: ts(),
    });
    parent = id;
    if (rand() < 0.15) {
      const hook = uuid();
      yield line({
        parentUuid: parent,
        ...common,
        type: 'user',
        message: { role: 'user', content: count(`Stop hook feedback:\n${words(40)}`) },
        isMeta: true,
        uuid: hook,
        timestamp: ts(),
      });
      parent = hook;
    }
    if (turn % 25 === 0) {
      // A sub-agent's records, interleaved as older Claude Code versions wrote them.
      let sp: string | null = null;
      for (let k = 0; k < 4; k++) {
        const sid = uuid();
        const role = k % 2 === 0 ? 'user' : 'assistant';
        yield line({
          parentUuid: sp,
          ...common,
          isSidechain: true,
          agentId: `agent${turn}`,
          type: role,
          message:
            role === 'user'
              ? { role, content: words(20) }
              : {
                  model: 'claude-haiku-4-5-20251001',
                  id: `msg_01${hex(22)}`,
                  type: 'message',
                  role,
                  content: [{ type: 'text', text: words(30) }],
                  // A sub-agent has its own requests and cache: not the main thread's figures.
                  usage: randomUsage(),
                },
          uuid: sid,
          timestamp: ts(),
        });
        sp = sid;
      }
    }
  }
}

/** A session of about `targetBytes` (whole records; the last line ends with a newline). */
export function generateClaudeCodeSession(
  targetBytes: number,
  seed: number,
  options?: SessionOptions,
): string {
  const parts: string[] = [];
  let size = 0;
  for (const line of claudeCodeSessionLines(seed, options)) {
    parts.push(line);
    size += Buffer.byteLength(line) + 1;
    if (size >= targetBytes) break;
  }
  return `${parts.join('\n')}\n`;
}

/** Writes a session of about `targetBytes` to `path` without holding it in memory; returns its size. */
export function writeClaudeCodeSession(
  path: string,
  targetBytes: number,
  seed: number,
  options?: SessionOptions,
): number {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  let size = 0;
  let batch: string[] = [];
  let batchBytes = 0;
  try {
    for (const line of claudeCodeSessionLines(seed, options)) {
      batch.push(line);
      const n = Buffer.byteLength(line) + 1;
      batchBytes += n;
      size += n;
      if (batchBytes > 1 << 20 || size >= targetBytes) {
        writeSync(fd, `${batch.join('\n')}\n`);
        batch = [];
        batchBytes = 0;
      }
      if (size >= targetBytes) break;
    }
  } finally {
    closeSync(fd);
  }
  return size;
}
