// What a transcript's strings become on the way out of the CLI: on a terminal, escape sequences and control characters
// are shown, never run (one helper, cli/terminal.ts); in CSV, no cell starts a formula under either separator (one
// helper, cli/csv.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { csvCell, csvLine } from '../../../src/cli/csv';
import { terminalLines, terminalText } from '../../../src/cli/terminal';
import { cliArgs } from '../cliProcess';
import { jsonl } from '../formats/helpers';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 26,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const CLEAR = '\u001b[2J';
const LINK = '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007';
const TITLE = '\u001b]0;pwned\u0007';
const C1_CSI = '\u009b2J';

/** Anything a terminal would act on: C0 controls but line feed and tab, DEL, C1, bidi overrides. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A Claude Code session whose model, tool names and ids, record types and agent ids carry escape sequences. */
function hostileSession(): Uint8Array {
  let n = 0;
  const rec = (r: Record<string, unknown>, parent: string | null) => {
    n++;
    return {
      parentUuid: parent,
      sessionId: 's1',
      uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      timestamp: `2026-01-01T00:00:0${n}Z`,
      ...r,
    };
  };
  const records: Record<string, unknown>[] = [];
  const add = (r: Record<string, unknown>, sidechain = false) => {
    const parent = (records.filter((x) => x.isSidechain === sidechain).pop()?.uuid as string) ?? null;
    const full = rec({ isSidechain: sidechain, ...r }, parent);
    records.push(full);
  };
  add({ type: 'user', message: { role: 'user', content: 'hello' } });
  add({
    type: 'assistant',
    message: {
      id: 'msg_1',
      role: 'assistant',
      model: `claude${OSC52}`,
      content: [{ type: 'tool_use', id: `t1${LINK}`, name: `Read${CLEAR}\nproblems: none`, input: {} }],
      usage: { input_tokens: 5, output_tokens: 5 },
    },
  });
  add({ type: `weird${TITLE}`, content: 'x' });
  add({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t9${C1_CSI}`, content: 'x' }] },
  });
  add({ type: 'user', agentId: `agent${TITLE}`, message: { role: 'user', content: 'sub task' } }, true);
  add(
    {
      type: 'assistant',
      agentId: `agent${TITLE}`,
      message: {
        id: 'msg_2',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'ok' }],
      },
    },
    true,
  );
  return jsonl(records);
}

describe('terminal output', () => {
  it('the helper shows every control, escape sequence and direction override as \\uXXXX', () => {
    const all = `${OSC52}${CLEAR}${LINK}${TITLE}${C1_CSI}\r\b\u202e\ufeff\ud800`;
    assert.doesNotMatch(terminalText(all), ACTIVE);
    assert.equal(terminalText('a\u001b[2Jb'), 'a\\u001b[2Jb');
    assert.equal(terminalText('one\ntwo\tthree'), 'one\\u000atwo\\u0009three');
    assert.equal(terminalLines('one\ntwo\tthree\r'), 'one\ntwo\tthree\\u000d');
    assert.equal(terminalText('naïve → 変数 🙂'), 'naïve → 変数 🙂');
    // JSON stays JSON: a C1 control or an override inside a string becomes its own \u escape.
    const json = JSON.stringify({ s: `x${C1_CSI}\u202e` });
    assert.deepEqual(JSON.parse(terminalLines(json)), JSON.parse(json));
  });

  it('inspect, simulate, compact and recommend print a hostile session inert', () => {
    const dir = mkdtempSync(join(tmpdir(), 'context-lens-hostile-'));
    const file = join(dir, 'hostile.jsonl');
    writeFileSync(file, hostileSession());
    const runs = {
      inspect: cli(['inspect', file]),
      'inspect --json': cli(['inspect', '--json', file]),
      simulate: cli(['simulate', '--no-token-cache', '--policy', 'none', file]),
      compact: cli([
        'compact',
        '--no-token-cache',
        '--policy',
        'none',
        '--out',
        join(dir, 'out.jsonl'),
        file,
      ]),
      recommend: cli(['recommend', '--no-token-cache', '--policy', 'tiered', file]),
    };
    for (const [name, r] of Object.entries(runs)) {
      assert.equal(r.code, 0, `${name}: ${r.err}`);
      assert.doesNotMatch(r.out, ACTIVE, `${name} stdout`);
      assert.doesNotMatch(r.err, ACTIVE, `${name} stderr`);
    }
    const text = runs.inspect.out;
    assert.match(text, /model: claude\\u001b\]52;c;ZWNobyBwd25lZA==\\u0007/);
    assert.match(text, /Read\\u001b\[2J\\u000aproblems: none 1/, 'a line break in a name starts no line');
    assert.match(text, /weird\\u001b\]0;pwned\\u0007/);
    assert.match(text, /agent\\u001b\]0;pwned\\u0007/);
    assert.match(text, /t9\\u009b2J/);
    const json = JSON.parse(runs['inspect --json'].out);
    assert.equal(json.model, `claude${OSC52}`, '--json keeps the value, escaped as JSON');
  });
});

/** The cells of one CSV line as a spreadsheet reads them with `sep` as the separator. */
function cells(line: string, sep: ',' | ';'): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out;
}

/** A cell a spreadsheet would run: a formula start after any leading whitespace, unless it is a number. */
const runs = (cell: string) => /^\s*[=+\-@]/.test(cell) && !/^\s*[-+]?\d/.test(cell);

describe('CSV output', () => {
  const HOSTILE = [
    "note;=cmd|' /C calc'!A0;=1+1;",
    '  =x',
    '\t=1+1',
    '@SUM(A1)',
    '+1+1',
    '-1+1',
    '=HYPERLINK("http://evil")',
    'a,b',
    'line\nbreak',
    'plain',
  ];

  it('no cell starts a formula, with "," or ";" as the separator', () => {
    const line = csvLine([...HOSTILE, -0.25, 3]);
    for (const sep of [',', ';'] as const)
      for (const cell of cells(line.replace(/\n/g, ' '), sep)) assert.ok(!runs(cell), `${sep}: ${cell}`);
    assert.deepEqual(cells(line, ',').slice(-2), ['-0.25', '3']);
  });

  it('a formula start is shown behind an apostrophe, after a separator too; a cell with a separator, a quote, a line break or a tab is quoted', () => {
    assert.equal(csvCell('note;=cmd'), `"note;'=cmd"`);
    assert.equal(csvCell('a, -1+1'), `"a,' -1+1"`);
    assert.equal(csvCell('  =x'), "'  =x");
    assert.equal(csvCell('a\tb'), '"a\tb"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('plain text'), 'plain text');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell(-5), '-5');
  });

  it('report --csv: a first prompt and a project from a session file', () => {
    const root = mkdtempSync(join(tmpdir(), 'context-lens-csv-'));
    const project = join(root, 'claude', 'projects', '-home-me-app');
    mkdirSync(project, { recursive: true });
    const records = [
      {
        type: 'user',
        cwd: '  =x',
        sessionId: 's1',
        uuid: '00000000-0000-4000-8000-000000000001',
        parentUuid: null,
        timestamp: '2026-01-01T00:00:01Z',
        message: { role: 'user', content: "note;=cmd|' /C calc'!A0;=1+1;" },
      },
      {
        type: 'assistant',
        sessionId: 's1',
        uuid: '00000000-0000-4000-8000-000000000002',
        parentUuid: '00000000-0000-4000-8000-000000000001',
        timestamp: '2026-01-01T00:00:02Z',
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'ok' }],
          usage: { input_tokens: 10, output_tokens: 2 },
        },
      },
    ];
    writeFileSync(join(project, 's1.jsonl'), jsonl(records));
    const r = cli(['report', '--csv', '--no-token-cache', '--policy', 'tiered', join(root, 'claude')], {
      CLAUDE_CONFIG_DIR: join(root, 'claude'),
      CODEX_HOME: join(root, 'codex'),
    });
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    const session = lines.find((l) => l.startsWith('session,'));
    assert.ok(session, r.out);
    assert.ok(session.includes(`"note;'=cmd|' /C calc'!A0;'=1+1;"`), session);
    for (const line of lines)
      for (const sep of [',', ';'] as const)
        for (const cell of cells(line, sep)) assert.ok(!runs(cell), `${sep}: ${cell} in ${line}`);
    assert.ok(
      lines.some((l) => l.includes("'  =x")),
      r.out,
    );
  });
});
