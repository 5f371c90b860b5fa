// The showcase session: a Claude Code session (2.x records) in which an agent fixes a checkout bug in a made-up web
// shop, then follows up on CI, searches, formats, reviews pull requests, checks pages in a browser and writes tests.
// It is the sample `npm start` opens, so it holds what the product shows: many tool results (Tier 3, Tier 2, and
// Tier 1 and floors under a one-shot pass), a wide parallel batch, Playwright MCP snapshots and screenshots,
// outputs for each live-zone compressor (search results, build and test logs, git diffs, `gh --json` arrays), and
// compactions where Claude Code makes them. Its usage is what the provider would record: each request's prompt is
// the hidden prefix (system prompt, tools) plus the segment's tokens, counted with o200k and scaled by a fixed
// factor (Claude's tokenizer counts differently), read from cache up to the previous request's prompt.
// Deterministic: same seed → same bytes.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { IMAGE_TOKENS_ESTIMATE } from '../../../src/core/engine/prepare';
import { TokenCounter } from '../../../src/core/tokens/counter';
import {
  browserPage,
  ciLog,
  distinct,
  docsPage,
  eslintLog,
  ghPrList,
  ghRunList,
  grepOutput,
  jestLog,
  numbered,
  Project,
  ROOT,
  rng,
  SOURCES,
  screenshotPng,
  TESTS,
  tscLog,
} from './project';

export interface ShowcaseOptions {
  /** Tokens of what the file does not hold (system prompt, tool definitions, memory files). */
  hiddenTokens: number;
  /** The part of them already in the provider's cache when the session starts (shared with earlier sessions). */
  warmTokens: number;
  /** Claude Code compacts before a request whose prompt would reach this many tokens (2.x: the 200k window less
   * its output reserve and buffer; real sessions compact at 167–175k). */
  compactAtTokens: number;
  /** Provider tokens per o200k token, on average. */
  tokenFactor: number;
  /** Compactions before the session winds down. */
  compactions: number;
  /** Tool-result messages the last segment holds at least (a one-shot pass then meets results at distance ≥ 20). */
  lastSegmentResults: number;
}

export const SHOWCASE_DEFAULTS: ShowcaseOptions = {
  hiddenTokens: 19_000,
  warmTokens: 16_000,
  compactAtTokens: 167_000,
  tokenFactor: 1.1,
  compactions: 2,
  lastSegmentResults: 32,
};

type Content = string | Record<string, unknown>[];
interface ToolOutput {
  content: Content;
  /** Claude Code's own copy of the output (`toolUseResult`), never sent to the model. */
  copy: unknown;
  isError?: boolean;
}
interface Call {
  name: string;
  input: Record<string, unknown>;
  output: ToolOutput;
}
interface Reply {
  thinking?: string;
  text?: string;
  calls?: Call[];
}

const MODEL = 'claude-opus-4-5-20251101';
const PUNCTUATION = /[^\p{L}\p{N}\s]/u;
const READ_REMINDER =
  '\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n';

/** The records of the showcase session, one JSON line each. */
export function* showcaseSessionLines(seed = 1, options: Partial<ShowcaseOptions> = {}): Generator<string> {
  const o = { ...SHOWCASE_DEFAULTS, ...options };
  const r = rng(seed);
  const project = new Project(r);
  const counter = new TokenCounter('o200k_base');
  const uuid = () => `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-a${r.hex(3)}-${r.hex(12)}`;
  const sessionId = uuid();
  const common = {
    isSidechain: false,
    userType: 'external',
    cwd: ROOT,
    sessionId,
    version: '2.1.14',
    gitBranch: 'main',
  };
  let clock = Date.UTC(2026, 0, 21, 9, 0, 0);
  /** Seconds between records: a few while tools run, never past the 5-minute cache lifetime between requests. */
  const ts = (lo = 1, hi = 20) => {
    clock += r.int(lo, hi) * 1000 + r.int(0, 999);
    return new Date(clock).toISOString();
  };
  const line = (record: Record<string, unknown>) => JSON.stringify(record);
  let parent: string | null = null;

  // ---- usage as the provider records it ------------------------------------------------------------------------
  /** Provider tokens of the current segment's messages, counted per block. */
  let context = 0;
  /** The previous request's prompt: what the cache holds. */
  let cached = o.warmTokens;
  /** Tool-result messages in the current segment, and compactions so far. */
  let segmentResults = 0;
  let compactions = 0;
  /** What the provider's tokenizer makes of a text: o200k's count times the factor, a little more for text dense in
   * punctuation (code, JSON, diffs) and a little less for prose, so that the fit is close but not exact. */
  const count = (text: string) => {
    if (text.length === 0) return 0;
    let marks = 0;
    for (let i = 0; i < text.length; i++) if (PUNCTUATION.test(text[i])) marks++;
    return Math.round(counter.count(text) * o.tokenFactor * (0.96 + (0.5 * marks) / text.length));
  };
  const contentTokens = (content: Content): number =>
    typeof content === 'string'
      ? count(content)
      : content.reduce(
          (n, b) => n + (b.type === 'image' ? IMAGE_TOKENS_ESTIMATE : count(String(b.text ?? ''))),
          0,
        );
  /** A block's tokens plus the few the provider adds to frame it. */
  const blockTokens = (b: Record<string, unknown>): number =>
    3 +
    (b.type === 'text'
      ? count(String(b.text))
      : b.type === 'thinking'
        ? count(String(b.thinking))
        : b.type === 'tool_use'
          ? count(String(b.name)) + count(String(b.id)) + count(JSON.stringify(b.input))
          : b.type === 'tool_result'
            ? count(String(b.tool_use_id)) + contentTokens(b.content as Content)
            : 0);
  const prompt = () => o.hiddenTokens + context;
  const usage = (outputTokens: number) => {
    const p = prompt();
    const read = Math.min(cached, p);
    const input = Math.min(r.int(1, 9), p - read);
    cached = p;
    return {
      input_tokens: input,
      cache_creation_input_tokens: p - read - input,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: p - read - input, ephemeral_1h_input_tokens: 0 },
      output_tokens: outputTokens,
      service_tier: 'standard',
    };
  };

  // ---- records -------------------------------------------------------------------------------------------------
  const done: string[] = [];
  /** A compaction as Claude Code 2.x writes it: a boundary without a parent, then the summary the next requests
   * start with. The hidden prefix stays in the cache (the summarizing request sent it too). */
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
      timestamp: ts(20, 40),
      uuid: boundary,
      level: 'info',
      compactMetadata: { trigger: 'auto', preTokens: prompt() },
    });
    const text = [
      'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:',
      'Analysis:',
      'The user asked me to fix a checkout bug in the storefront app (the shipping fee was charged again when a coupon made the order eligible for free shipping), then to follow up on CI, formatting, open pull requests and tests.',
      '',
      'Summary:',
      '1. Primary Request and Intent: fix the checkout total with coupons and free shipping, keep CI green, and keep the pull request up to date.',
      '2. Key Technical Concepts: amounts in integer cents; free shipping is evaluated on the discounted subtotal; coupons stack percentage first, then fixed.',
      `3. Files and Code Sections: ${SOURCES.slice(0, 8).join(', ')}.`,
      '4. Errors and fixes:',
      ...done.slice(-12).map((d) => `   - ${d}`),
      '5. Pending Tasks: none beyond the current request.',
      '6. Current Work: continuing the current request.',
      'Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.',
    ].join('\n');
    const summary = uuid();
    yield line({
      parentUuid: boundary,
      ...common,
      type: 'user',
      message: { role: 'user', content: text },
      isVisibleInTranscriptOnly: true,
      isCompactSummary: true,
      uuid: summary,
      timestamp: ts(),
    });
    parent = summary;
    context = blockTokens({ type: 'text', text });
    cached = o.hiddenTokens;
    segmentResults = 0;
    compactions++;
  }

  function* userPrompt(text: string): Generator<string> {
    if (prompt() >= o.compactAtTokens) yield* compaction();
    const promptId = uuid();
    yield line({
      type: 'file-history-snapshot',
      messageId: promptId,
      snapshot: { messageId: promptId, trackedFileBackups: {}, timestamp: ts(30, 150) },
      isSnapshotUpdate: false,
    });
    const id = uuid();
    yield line({
      parentUuid: parent,
      ...common,
      type: 'user',
      message: { role: 'user', content: text },
      uuid: id,
      timestamp: ts(),
      promptId,
    });
    parent = id;
    context += blockTokens({ type: 'text', text });
  }

  /** One reply (one request): its blocks on lines sharing the message id, then each call's result on a line of its
   * own that hangs off its call's line, as Claude Code writes parallel calls. */
  function* reply(rep: Reply, final = false): Generator<string> {
    if (prompt() >= o.compactAtTokens) yield* compaction();
    const blocks: Record<string, unknown>[] = [];
    if (rep.thinking) blocks.push({ type: 'thinking', thinking: rep.thinking, signature: r.hex(88) });
    if (rep.text) blocks.push({ type: 'text', text: rep.text });
    const calls = (rep.calls ?? []).map((call) => ({ call, id: `toolu_01${r.hex(22)}` }));
    for (const { call, id } of calls)
      blocks.push({ type: 'tool_use', id, name: call.name, input: call.input });
    const outputTokens = blocks.reduce((n, b) => n + blockTokens(b), 0);
    const u = usage(outputTokens);
    const msgId = `msg_01${r.hex(22)}`;
    const requestId = `req_011${r.hex(20)}`;
    const lineOf = new Map<string, string>();
    for (const [i, block] of blocks.entries()) {
      const id = uuid();
      if (block.type === 'tool_use') lineOf.set(String(block.id), id);
      yield line({
        parentUuid: parent,
        ...common,
        message: {
          model: MODEL,
          id: msgId,
          type: 'message',
          role: 'assistant',
          content: [block],
          stop_reason: final && i === blocks.length - 1 ? 'end_turn' : null,
          stop_sequence: null,
          usage: u,
        },
        requestId,
        type: 'assistant',
        uuid: id,
        timestamp: ts(2, 12),
      });
      parent = id;
      context += blockTokens(block);
    }
    if (calls.length === 0) return;
    let lastResult = parent;
    for (const { call, id } of calls) {
      const from = lineOf.get(id) as string;
      const result = uuid();
      const block = {
        tool_use_id: id,
        type: 'tool_result',
        content: call.output.content,
        ...(call.output.isError ? { is_error: true } : {}),
      };
      context += blockTokens(block);
      yield line({
        parentUuid: from,
        ...common,
        type: 'user',
        message: { role: 'user', content: [block] },
        uuid: result,
        timestamp: ts(1, 15),
        toolUseResult: call.output.copy,
        sourceToolAssistantUUID: from,
      });
      lastResult = result;
    }
    parent = lastResult;
    segmentResults++;
  }

  // ---- tools ---------------------------------------------------------------------------------------------------
  const abs = (p: string) => `${ROOT}/${p}`;
  const read = (path: string): Call => {
    const lines = project.lines(path);
    const text = numbered(lines);
    return {
      name: 'Read',
      input: { file_path: abs(path) },
      output: {
        content: text + READ_REMINDER,
        copy: {
          type: 'text',
          file: {
            filePath: abs(path),
            content: lines.join('\n'),
            numLines: lines.length,
            startLine: 1,
            totalLines: lines.length,
          },
        },
      },
    };
  };
  const grep = (pattern: string, files: number): Call => {
    const text = grepOutput(r, project, pattern, files);
    return {
      name: 'Grep',
      input: { pattern, path: ROOT, output_mode: 'content', '-n': true },
      output: {
        content: text,
        copy: {
          mode: 'content',
          numFiles: 0,
          filenames: [],
          content: text,
          numLines: text.split('\n').length,
        },
      },
    };
  };
  const grepFiles = (pattern: string): Call => {
    const files = [
      ...new Set(Array.from({ length: r.int(4, 14) }, () => abs(r.pick([...SOURCES, ...TESTS])))),
    ].sort();
    return {
      name: 'Grep',
      input: { pattern, path: ROOT, output_mode: 'files_with_matches' },
      output: {
        content: `Found ${files.length} files\n${files.join('\n')}`,
        copy: { mode: 'files_with_matches', filenames: files, numFiles: files.length },
      },
    };
  };
  const glob = (pattern: string): Call => {
    const files = [...SOURCES, ...TESTS]
      .filter((p) => !pattern.includes('test') || p.startsWith('test/'))
      .map(abs);
    return {
      name: 'Glob',
      input: { pattern },
      output: {
        content: files.join('\n'),
        copy: { filenames: files, durationMs: r.int(5, 90), numFiles: files.length, truncated: false },
      },
    };
  };
  const bash = (command: string, description: string, out: string, isError = false): Call => ({
    name: 'Bash',
    input: { command, description },
    output: isError
      ? { content: `Exit code 1\n${out}`, copy: `Error: Exit code 1\n${out}`, isError: true }
      : { content: out, copy: { stdout: out, stderr: '', interrupted: false, isImage: false } },
  });
  /** Uncommitted changes, per file: what `git diff` prints. */
  const dirty = new Map<string, string>();
  const edit = (path: string, changes = r.int(1, 3)): Call => {
    const diff = project.edit(path, changes);
    dirty.set(path, diff);
    const lines = project.lines(path);
    const at = r.int(0, Math.max(0, lines.length - 12));
    const snippet = lines
      .slice(at, at + 12)
      .map((l, i) => `${String(at + i + 1).padStart(6)}→${l}`)
      .join('\n');
    const removed = diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
    const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
    const oldString = removed.map((l) => l.slice(1)).join('\n');
    const newString = added.map((l) => l.slice(1)).join('\n');
    return {
      name: 'Edit',
      input: { file_path: abs(path), old_string: oldString, new_string: newString },
      output: {
        content: `The file ${abs(path)} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}`,
        copy: { filePath: abs(path), oldString, newString, userModified: false, replaceAll: false },
      },
    };
  };
  const write = (path: string): Call => {
    const lines = project.lines(path);
    return {
      name: 'Write',
      input: { file_path: abs(path), content: lines.join('\n') },
      output: {
        content: `File created successfully at: ${abs(path)}`,
        copy: { type: 'create', filePath: abs(path), content: lines.join('\n'), structuredPatch: [] },
      },
    };
  };
  const gitDiff = (): Call => {
    const out = [...dirty.values()].join('\n');
    return bash('git diff', 'Show the uncommitted changes', out);
  };
  const commit = (message: string): Call => {
    const files = dirty.size;
    dirty.clear();
    return bash(
      `git add -A && git commit -m "${message}"`,
      'Commit the changes',
      `[fix/coupon-free-shipping ${r.hex(7)}] ${message}\n ${files} files changed, ${r.int(10, 90)} insertions(+), ${r.int(2, 40)} deletions(-)`,
    );
  };
  const todo = (items: string[]): Call => {
    const todos = items.map((content, i) => ({
      content,
      status: i === 0 ? 'in_progress' : 'pending',
      activeForm: content.replace(/^(\w+)/, (w) => `${w}ing`),
    }));
    return {
      name: 'TodoWrite',
      input: { todos },
      output: {
        content:
          'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
        copy: { oldTodos: [], newTodos: todos },
      },
    };
  };
  /** A Playwright MCP tool: its result is a list of content blocks, as Claude Code records MCP results. */
  const browser = (tool: string, input: Record<string, unknown>, text: string, image = false): Call => {
    const content: Record<string, unknown>[] = [{ type: 'text', text }];
    if (image)
      content.push({
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: screenshotPng() },
      });
    return { name: `mcp__playwright__browser_${tool}`, input, output: { content, copy: content } };
  };
  const navigate = (url: string) =>
    browser(
      'navigate',
      { url: `http://localhost:3000${url}` },
      browserPage(r, url, `await page.goto('http://localhost:3000${url}');`),
    );
  const snapshot = (url: string) => browser('snapshot', {}, browserPage(r, url, '// snapshot'));
  const click = (url: string, element: string) =>
    browser(
      'click',
      { element, ref: `e${r.int(20, 80)}` },
      browserPage(r, url, `await page.getByRole('button', { name: '${element}' }).click();`),
    );
  const type = (url: string, text: string) =>
    browser(
      'type',
      { element: 'Coupon code', ref: `e${r.int(20, 80)}`, text },
      browserPage(r, url, `await page.getByRole('textbox', { name: 'Coupon code' }).fill('${text}');`, false),
    );
  const screenshot = (name: string) =>
    browser(
      'take_screenshot',
      { filename: `${name}.png` },
      `### Result\nTook the viewport screenshot and saved it as /tmp/playwright-mcp-output/${clock}/${name}.png\n\n### Ran Playwright code\n\`\`\`js\nawait page.screenshot({\n  path: '/tmp/playwright-mcp-output/${clock}/${name}.png',\n  scale: 'css',\n  type: 'png'\n});\n\`\`\``,
      true,
    );
  const webFetch = (url: string): Call => {
    const text = docsPage(r);
    return {
      name: 'WebFetch',
      input: { url, prompt: 'What are the rules for coupons, free shipping and rounding?' },
      output: {
        content: text,
        copy: {
          bytes: text.length * 3,
          code: 200,
          codeText: 'OK',
          result: text,
          durationMs: r.int(800, 4000),
          url,
        },
      },
    };
  };
  const think = (...sentences: string[]) => sentences.join(' ');
  const some = <T>(xs: readonly T[], n: number): T[] => distinct(r, xs, n);
  const checkoutTests = TESTS.filter((t) => t.includes('checkout') || t.includes('cart'));

  // ---- the story -----------------------------------------------------------------------------------------------
  function* firstTask(): Generator<string> {
    yield* userPrompt(
      'Customers who apply a coupon and qualify for free shipping are still charged the $4.99 shipping fee at checkout. Find the cause, fix it, add a regression test, and open a PR.',
    );
    // A wide parallel batch: the agent reads the whole checkout module at once.
    yield* reply({
      thinking: think(
        'The shipping fee is probably decided before the coupon is applied, so the free-shipping threshold sees the undiscounted subtotal.',
        'I should read the checkout module, the cart and the money helpers together, and find every caller of applyCoupon.',
      ),
      text: "I'll start by reading the checkout code and finding where coupons and shipping meet.",
      calls: [
        glob('src/**/*.ts'),
        grepFiles('shipping'),
        grep('applyCoupon', 18),
        ...SOURCES.filter((p) => p.startsWith('src/checkout/')).map(read),
        read('src/cart/cart.ts'),
        read('src/lib/money.ts'),
        read('src/api/coupons.ts'),
        read('src/ui/CheckoutPage.tsx'),
        read('test/checkout/total.test.ts'),
      ],
    });
    yield* reply({
      text: 'Let me run the checkout tests to see what fails today.',
      calls: [
        bash(
          'npm test -- src/checkout src/cart',
          'Run the checkout and cart tests',
          jestLog(r, checkoutTests, 2, 'src/checkout src/cart'),
          true,
        ),
      ],
    });
    yield* reply({
      calls: [
        todo([
          'Reproduce the double shipping fee in the browser',
          'Fix the order of discount and free-shipping check',
          'Add a regression test',
          'Open a PR',
        ]),
      ],
    });
    yield* reply({ text: 'Reproducing it in the browser.', calls: [navigate('/cart')] });
    yield* reply({ calls: [type('/cart', 'SAVE10')] });
    yield* reply({ calls: [click('/checkout', 'Apply')] });
    yield* reply({ calls: [screenshot('checkout-coupon')] });
    yield* reply({
      thinking:
        'Shipping shows $4.99 although the discounted subtotal is above $50. isFreeShipping must be reading the wrong subtotal.',
      calls: [grep('isFreeShipping', 14)],
    });
    yield* reply({ calls: [edit('src/checkout/total.ts', 3)] });
    yield* reply({ calls: [edit('src/checkout/shipping.ts', 2)] });
    yield* reply({ calls: [bash('npx tsc --noEmit', 'Type-check', tscLog(r, 12), true)] });
    yield* reply({
      text: 'Two of those are mine; fixing the types.',
      calls: [edit('src/checkout/coupon.ts', 2)],
    });
    yield* reply({ calls: [bash('npx tsc --noEmit', 'Type-check again', '')] });
    yield* reply({ calls: [write('test/checkout/freeShipping.test.ts')] });
    yield* reply({
      calls: [
        bash(
          'npm test -- src/checkout',
          'Run the checkout tests',
          jestLog(r, checkoutTests, 0, 'src/checkout'),
        ),
      ],
    });
    yield* reply({ calls: [gitDiff()] });
    yield* reply({ calls: [commit('Apply coupons before the free-shipping check')] });
    yield* reply({
      calls: [
        bash(
          'git push -u origin fix/coupon-free-shipping && gh pr create --fill',
          'Push and open the PR',
          "branch 'fix/coupon-free-shipping' set up to track 'origin/fix/coupon-free-shipping'.\nhttps://github.com/acme/storefront/pull/521",
        ),
      ],
    });
    done.push('Fixed the double shipping fee: coupons now apply before the free-shipping check (PR #521).');
    yield* reply(
      {
        text: 'Fixed. `computeTotal` decided free shipping on the subtotal before the coupon; it now applies the coupon first, then checks the threshold on the discounted subtotal. A regression test covers a coupon that brings an order over the threshold. PR: https://github.com/acme/storefront/pull/521',
      },
      true,
    );
  }

  function* ciTask(): Generator<string> {
    yield* userPrompt(
      r.pick(['CI failed on the PR. Check the runs and fix it.', 'The pipeline is red again, can you look?']),
    );
    yield* reply({
      calls: [
        bash(
          'gh run list --json databaseId,displayTitle,conclusion,status,headBranch,event,createdAt,workflowName --limit 30',
          'List recent workflow runs',
          ghRunList(r, 30),
        ),
      ],
    });
    yield* reply({
      text: 'The latest CI run failed; reading its log.',
      calls: [
        bash(
          `gh run view ${r.int(12_873_000_000, 12_873_400_000)} --log-failed`,
          'Show the failed job log',
          ciLog(r, r.int(150, 260)),
        ),
      ],
    });
    yield* reply({ calls: some(SOURCES, 3).map(read) });
    yield* reply({ calls: [bash('npm run lint', 'Lint', eslintLog(r, r.int(4, 7)), true)] });
    const files = some(SOURCES, 2);
    yield* reply({ calls: files.map((f) => edit(f)) });
    yield* reply({
      calls: [bash('npm run lint', 'Lint again', '> storefront@1.4.0 lint\n> eslint src test\n')],
    });
    yield* reply({ calls: [gitDiff()] });
    yield* reply({ calls: [commit('Fix lint errors')] });
    done.push(`Fixed lint errors in ${files.join(' and ')} that failed CI.`);
    yield* reply({ text: 'CI was failing on lint errors in two files; fixed and pushed.' }, true);
  }

  function* searchTask(): Generator<string> {
    yield* userPrompt(
      'Are there other places where the shipping fee can be added twice? Check the API handlers and the UI too.',
    );
    yield* reply({
      thinking:
        'Anything that computes a total on its own instead of calling computeTotal could repeat the bug.',
      text: 'Searching for every place that computes shipping or totals.',
      calls: [
        grep('shippingFee', 20),
        grep('computeTotal', 16),
        grepFiles('subtotal'),
        ...some(
          SOURCES.filter((p) => p.startsWith('src/api/') || p.startsWith('src/ui/')),
          8,
        ).map(read),
      ],
    });
    yield* reply({ calls: [webFetch('https://docs.storefront.dev/pricing')] });
    const files = some(
      SOURCES.filter((p) => p.startsWith('src/api/') || p.startsWith('src/ui/')),
      2,
    );
    yield* reply({ text: 'Two more places add the fee on their own.', calls: files.map((f) => edit(f)) });
    yield* reply({ calls: [bash('npm test', 'Run all tests', jestLog(r, some(TESTS, 10), 0))] });
    yield* reply({ calls: [navigate('/checkout')] });
    yield* reply({ calls: [click('/checkout/confirm', 'Place order')] });
    yield* reply({ calls: [snapshot('/checkout/confirm')] });
    yield* reply({ calls: [gitDiff()] });
    done.push(`Removed separate shipping computations in ${files.join(' and ')}.`);
    yield* reply(
      {
        text: `Found two more: ${files.join(' and ')} computed shipping on their own. Both now use computeTotal.`,
      },
      true,
    );
  }

  function* formatTask(): Generator<string> {
    yield* userPrompt('Run prettier on src and test, and check that only formatting changed.');
    const files = some([...SOURCES, ...TESTS], r.int(22, 26));
    yield* reply({
      calls: [
        bash(
          'npx prettier --write src test',
          'Format the sources',
          files.map((f) => `${f} ${r.int(8, 90)}ms`).join('\n'),
        ),
      ],
    });
    for (const f of files) {
      dirty.set(f, project.edit(f, r.int(4, 9)));
    }
    yield* reply({ calls: [gitDiff()] });
    yield* reply({ calls: [bash('npm test', 'Run all tests', jestLog(r, some(TESTS, 12), 0))] });
    yield* reply({ calls: [commit('Format with prettier')] });
    done.push(`Formatted ${files.length} files with prettier; tests pass.`);
    yield* reply(
      {
        text: `Prettier reformatted ${files.length} files; the diff is whitespace and line breaks only, and the tests pass.`,
      },
      true,
    );
  }

  function* prTask(): Generator<string> {
    yield* userPrompt(
      'List the open PRs that touch checkout or coupons and tell me which ones conflict with ours.',
    );
    yield* reply({
      calls: [
        bash(
          'gh pr list --state open --json number,title,author,headRefName,isDraft,reviewDecision,state,createdAt --limit 40',
          'List open pull requests',
          ghPrList(r, 40),
        ),
      ],
    });
    const other = some(
      SOURCES.filter((p) => p.startsWith('src/checkout/')),
      2,
    );
    const diffs = other.map((f) => {
      const before = project.lines(f).slice();
      const d = project.edit(f, r.int(3, 6));
      // Someone else's branch: our copy stays as it was.
      project.restore(f, before);
      return d;
    });
    yield* reply({
      calls: [
        bash(`gh pr diff ${r.int(500, 519)}`, 'Show the diff of the coupon-stacking PR', diffs.join('\n')),
      ],
    });
    done.push('Reviewed the open pull requests for conflicts with the fix.');
    yield* reply(
      {
        text: 'Two open PRs touch the same functions in src/checkout; the coupon-stacking one will conflict with ours in total.ts.',
      },
      true,
    );
  }

  function* browserTask(): Generator<string> {
    yield* userPrompt(
      'Check the order confirmation page in the browser: does it show the right total after a coupon?',
    );
    yield* reply({ calls: [navigate('/cart')] });
    yield* reply({ calls: [type('/cart', r.pick(['SAVE10', 'FREESHIP', 'SPRING25']))] });
    yield* reply({ calls: [click('/cart', 'Apply')] });
    yield* reply({ calls: [snapshot('/checkout')] });
    yield* reply({ calls: [screenshot('checkout-total')] });
    yield* reply({ calls: [click('/checkout/confirm', 'Place order')] });
    yield* reply({ calls: [snapshot('/checkout/confirm')] });
    yield* reply({ calls: [screenshot('order-confirmation')] });
    done.push('Checked the order confirmation page in the browser: totals match.');
    yield* reply(
      {
        text: 'The confirmation page shows the discounted total and free shipping; it matches the checkout page.',
      },
      true,
    );
  }

  function* testTask(): Generator<string> {
    yield* userPrompt('Add tests for stacking two coupons and fix whatever they find.');
    yield* reply({
      calls: ['src/checkout/coupon.ts', 'src/checkout/total.ts', 'test/checkout/coupon.test.ts'].map(read),
    });
    const file = `test/checkout/stacking${r.int(1, 99)}.test.ts`;
    yield* reply({ calls: [write(file)] });
    yield* reply({
      calls: [
        bash(
          'npm test -- src/checkout',
          'Run the checkout tests',
          jestLog(r, [...checkoutTests, file], 1, 'src/checkout'),
          true,
        ),
      ],
    });
    yield* reply({
      thinking: 'Fixed amounts are applied before percentages, so the order of stacking is reversed.',
      calls: [edit('src/checkout/coupon.ts', 2)],
    });
    yield* reply({
      calls: [
        bash(
          'npm test -- src/checkout',
          'Run the checkout tests',
          jestLog(r, [...checkoutTests, file], 0, 'src/checkout'),
        ),
      ],
    });
    yield* reply({ calls: [gitDiff()] });
    yield* reply({ calls: [commit('Stack percentage coupons before fixed ones')] });
    done.push('Coupons now stack percentage first, then fixed amounts; tests added.');
    yield* reply(
      { text: 'The tests found that fixed coupons were applied before percentages; fixed and committed.' },
      true,
    );
  }

  yield line({ type: 'queue-operation', operation: 'dequeue', timestamp: ts(), sessionId });
  yield* firstTask();
  const tasks = [ciTask, searchTask, formatTask, prTask, browserTask, testTask];
  for (let i = 0; i < 60; i++) {
    if (compactions >= o.compactions && segmentResults >= o.lastSegmentResults) break;
    yield* tasks[i % tasks.length]();
  }
}

/** The whole session as one string (tests). */
export function generateShowcaseSession(seed = 1, options?: Partial<ShowcaseOptions>): string {
  return `${[...showcaseSessionLines(seed, options)].join('\n')}\n`;
}

/** Writes the session to `path`; returns its size in bytes. */
export function writeShowcaseSession(path: string, seed = 1, options?: Partial<ShowcaseOptions>): number {
  mkdirSync(dirname(path), { recursive: true });
  const text = generateShowcaseSession(seed, options);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return Buffer.byteLength(text);
}
