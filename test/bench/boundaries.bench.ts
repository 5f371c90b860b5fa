// Sessions with thousands of compaction records: a `microcompact_boundary` after every tool round (each clearing the
// round before), or a `compact_boundary` and its summary after every round. Parsed and replayed under none and
// compaction, each size in a fresh process so that its peak RSS is its own. Work should grow with the session, not
// with its square (10,000 microcompactions took 68 s and 4 GB when each reload point kept a copy of every run).
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';

type Kind = 'microcompact' | 'compact';
const SIZES = [2500, 5000, 10_000, 20_000];

/** A Claude Code session of `rounds` tool rounds with a boundary record after each one but the first. */
export function boundarySession(kind: Kind, rounds: number): Uint8Array {
  const lines: string[] = [];
  let parent: string | null = null;
  const t0 = Date.UTC(2026, 0, 1);
  const add = (r: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${String(lines.length + 1).padStart(12, '0')}`;
    const timestamp = new Date(t0 + lines.length * 1000).toISOString();
    lines.push(
      JSON.stringify({ parentUuid: parent, isSidechain: false, sessionId: 's1', ...r, uuid, timestamp }),
    );
    parent = uuid;
  };
  add({ type: 'user', message: { role: 'user', content: 'start' } });
  for (let i = 0; i < rounds; i++) {
    const id = `toolu_${i}`;
    add({
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/f${i}` } }],
        usage: {
          input_tokens: 10,
          output_tokens: 5,
          cache_read_input_tokens: 100 * i,
          cache_creation_input_tokens: 100,
        },
      },
    });
    add({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: `contents of file ${i} `.repeat(20) }],
      },
    });
    if (i === 0) continue;
    if (kind === 'microcompact')
      add({
        type: 'system',
        subtype: 'microcompact_boundary',
        content: 'Context microcompacted',
        microcompactMetadata: {
          trigger: 'auto',
          preTokens: 1000,
          tokensSaved: 100,
          compactedToolIds: [`toolu_${i - 1}`],
        },
      });
    else {
      add({
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 1000 },
      });
      add({ type: 'user', isCompactSummary: true, message: { role: 'user', content: `summary ${i}` } });
    }
  }
  add({
    type: 'assistant',
    message: {
      id: 'msg_end',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'done' }],
    },
  });
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

interface Figures {
  parseMs: number;
  replayMs: number;
  cpuMs: number;
  peakRssMB: number;
  messages: number;
}

/** Runs inside the child: one session, figures printed as JSON on the last line. */
async function measure(kind: Kind, rounds: number): Promise<Figures> {
  const { parseTranscript } = await import('../../src/core/formats/index');
  const { analyzeSync } = await import('../../src/core/analysis');
  const { clonePolicy, DEFAULT_POLICY } = await import('../../src/core/engine/policy');
  const bytes = boundarySession(kind, rounds);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const t = parseTranscript(bytes, `${kind}.jsonl`);
  const t1 = performance.now();
  for (const name of ['none', 'compaction'] as const) {
    const policy = clonePolicy(DEFAULT_POLICY);
    policy.name = name;
    analyzeSync(t, policy);
  }
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  return {
    parseMs: Math.round(t1 - t0),
    replayMs: Math.round(t2 - t1),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    messages: t.messages.length,
  };
}

function child(kind: Kind, rounds: number): Figures {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--measure', kind, String(rounds)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop() as string) as Figures;
}

export async function run(): Promise<void> {
  console.log(
    `${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const kind of ['microcompact', 'compact'] as const)
    for (const rounds of SIZES) {
      const f = child(kind, rounds);
      console.log(
        `${kind.padEnd(12)} ${String(rounds).padStart(6)} boundaries (${f.messages} messages): parse ${f.parseMs} ms, ` +
          `none + compaction ${f.replayMs} ms, CPU ${(f.cpuMs / 1000).toFixed(2)} s, peak RSS ${f.peakRssMB} MB`,
      );
    }
}

if (process.argv[2] === '--measure')
  measure(process.argv[3] as Kind, Number(process.argv[4])).then((f) => console.log(JSON.stringify(f)));
