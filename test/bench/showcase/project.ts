// The made-up project the showcase session works on (a web shop's checkout, in TypeScript) and the outputs its tools
// print: source files, test and build logs, search results, git diffs, `gh --json` arrays, browser snapshots. Shaped
// like the real outputs, so that each live-zone compressor meets what it was made for. Deterministic: every choice
// comes from the seeded generator.
import { crc32, deflateSync } from 'node:zlib';
import { prng } from '../generate';

export interface Rng {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
  hex(n: number): string;
}

export function rng(seed: number): Rng {
  const next = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
    hex: (n: number) => {
      let s = '';
      while (s.length < n)
        s += Math.floor(next() * 0x100000000)
          .toString(16)
          .padStart(8, '0');
      return s.slice(0, n);
    },
  };
}

/** `n` different items of `xs`, in the order drawn. */
export function distinct<T>(r: Rng, xs: readonly T[], n: number): T[] {
  const out = new Set<T>();
  while (out.size < Math.min(n, xs.length)) out.add(r.pick(xs));
  return [...out];
}

export const ROOT = '/home/dev/storefront';

const MODULES: Record<string, string[]> = {
  checkout: ['total', 'coupon', 'shipping', 'tax', 'rounding', 'summary'],
  cart: ['cart', 'lineItem', 'quantity', 'storage'],
  api: ['orders', 'payments', 'coupons', 'http', 'webhooks'],
  lib: ['money', 'format', 'currency', 'dates', 'log'],
  ui: ['CheckoutPage', 'CartSummary', 'CouponField', 'ShippingOptions', 'OrderConfirmation', 'PriceTag'],
};

/** Every source file of the project, as paths relative to the root. */
export const SOURCES: string[] = Object.entries(MODULES).flatMap(([dir, files]) =>
  files.map((f) => `src/${dir}/${f}.${dir === 'ui' ? 'tsx' : 'ts'}`),
);
/** The test files beside them. */
export const TESTS: string[] = SOURCES.filter((p) => !p.startsWith('src/ui/')).map((p) =>
  p.replace(/^src\//, 'test/').replace(/\.ts$/, '.test.ts'),
);

const FUNCTIONS = [
  'applyCoupon',
  'computeTotal',
  'shippingFee',
  'taxFor',
  'formatMoney',
  'roundCents',
  'lineTotal',
  'cartSubtotal',
  'isFreeShipping',
  'validateCoupon',
  'parseCouponCode',
  'fetchOrder',
  'createPaymentIntent',
  'toMinorUnits',
  'discountFor',
  'eligibleItems',
  'mergeLineItems',
  'persistCart',
];
const TYPES = [
  'Cart',
  'LineItem',
  'Coupon',
  'Money',
  'Order',
  'ShippingRule',
  'TaxRate',
  'CheckoutState',
  'Total',
];
const VARS = [
  'subtotal',
  'discount',
  'fee',
  'total',
  'items',
  'rate',
  'amount',
  'cents',
  'coupon',
  'rule',
  'order',
];
const FIELDS = [
  'subtotal',
  'items',
  'coupon',
  'shipping',
  'region',
  'currency',
  'quantity',
  'unitPrice',
  'code',
  'percentOff',
  'amountOff',
  'minSpend',
];
const COMMENTS = [
  'Amounts are integers in minor units (cents): no floating-point money.',
  'Free shipping applies after the discount, not before.',
  'A coupon never takes the total below zero.',
  'Tax is computed on the discounted subtotal, per region.',
  'Keep in sync with the pricing rules in docs/pricing.md.',
  'The API returns amounts as strings; parse them once, here.',
  'Rounding happens once, at the end, half to even.',
];

export class Project {
  private readonly files = new Map<string, string[]>();
  constructor(private readonly r: Rng) {}

  /** The lines of a file, the same every time it is read (until `edit` changes them). */
  lines(path: string): string[] {
    let lines = this.files.get(path);
    if (!lines) {
      lines = this.sourceLines(path);
      this.files.set(path, lines);
    }
    return lines;
  }

  private sourceLines(path: string): string[] {
    const r = this.r;
    const out: string[] = [];
    const test = path.startsWith('test/');
    for (let i = r.int(2, 5); i > 0; i--) {
      const dir = r.pick(Object.keys(MODULES));
      const [a, b] = distinct(r, FUNCTIONS, 2);
      out.push(`import { ${a}, ${b} } from '../${dir}/${r.pick(MODULES[dir])}';`);
    }
    const [t1, t2] = distinct(r, TYPES, 2);
    out.push(`import type { ${t1}, ${t2} } from '../types';`, '');
    const blocks = r.int(4, 12);
    for (let b = 0; b < blocks; b++) {
      if (test) {
        out.push(`describe('${r.pick(FUNCTIONS)}', () => {`);
        for (let t = r.int(2, 5); t > 0; t--) {
          out.push(`  it('${r.pick(TEST_NAMES)}', () => {`);
          out.push(`    const cart = makeCart([${r.int(1, 9) * 100}, ${r.int(1, 9) * 250}]);`);
          out.push(`    const ${r.pick(VARS)} = ${r.pick(FUNCTIONS)}(cart, { code: '${r.pick(CODES)}' });`);
          out.push(`    expect(${r.pick(VARS)}.${r.pick(FIELDS)}).toBe(${r.int(0, 9999)});`);
          out.push('  });', '');
        }
        out.push('});', '');
        continue;
      }
      if (r.chance(0.25)) {
        out.push(`export interface ${r.pick(TYPES)}${r.pick(['Input', 'Options', 'Result', ''])} {`);
        for (let f = r.int(2, 6); f > 0; f--)
          out.push(
            `  ${r.pick(FIELDS)}${r.chance(0.3) ? '?' : ''}: ${r.pick(['number', 'string', 'boolean', ...TYPES])};`,
          );
        out.push('}', '');
        continue;
      }
      const fn = r.pick(FUNCTIONS);
      const arg = r.pick(VARS);
      if (r.chance(0.5)) out.push(`/** ${r.pick(COMMENTS)} */`);
      out.push(
        `export function ${fn}(${arg}: ${r.pick(TYPES)}, options: ${r.pick(TYPES)}Options = {}): ${r.pick(TYPES)} {`,
      );
      let depth = 1;
      for (let l = r.int(3, 14); l > 0; l--) {
        const pad = '  '.repeat(depth);
        const v = r.pick(VARS);
        const roll = r.next();
        if (roll < 0.35)
          out.push(`${pad}const ${v} = ${r.pick(FUNCTIONS)}(${arg}.${r.pick(FIELDS)}, options);`);
        else if (roll < 0.5 && depth < 3) {
          out.push(
            `${pad}if (${arg}.${r.pick(FIELDS)} ${r.pick(['>', '===', '<', '!=='])} ${r.int(0, 5000)}) {`,
          );
          depth++;
        } else if (roll < 0.65 && depth > 1) {
          depth--;
          out.push(`${'  '.repeat(depth)}}`);
        } else if (roll < 0.75) out.push(`${pad}// ${r.pick(COMMENTS)}`);
        else if (roll < 0.9)
          out.push(`${pad}${v} += ${r.pick(FUNCTIONS)}(${r.pick(VARS)}) * ${r.int(1, 100)};`);
        else out.push(`${pad}log.debug('${fn}', { ${v}, ${r.pick(VARS)} });`);
      }
      while (depth > 1) {
        depth--;
        out.push(`${'  '.repeat(depth)}}`);
      }
      out.push(`  return { ...${arg}, ${r.pick(FIELDS)}: ${r.pick(VARS)} };`, '}', '');
    }
    return out;
  }

  /** Puts a file back as it was (a change made on another branch). */
  restore(path: string, lines: string[]): void {
    this.files.set(path, lines);
  }

  /** Replaces a few runs of lines of a file, as an edit would; returns the unified diff of the change (git's
   * format, three lines of context, nearby changes in one hunk). */
  edit(path: string, changes: number): string {
    const r = this.r;
    const before = this.lines(path);
    const after: string[] = [];
    // Change positions, at least 4 lines apart, in order.
    const at = new Set<number>();
    while (at.size < Math.min(changes, Math.floor(before.length / 5))) at.add(r.int(1, before.length - 2));
    const marks = [...at].sort((a, b) => a - b);
    /** Per line of `before`: how many lines a change removes there, and what it adds. */
    const plan = new Map<number, { remove: number; add: string[] }>();
    let last = -10;
    for (const m of marks) {
      if (m - last < 4) continue;
      const remove = Math.min(r.int(0, 3), before.length - m);
      const add = Array.from({ length: r.int(remove === 0 ? 1 : 0, 4) }, () => {
        const indent = /^\s*/.exec(before[m])?.[0] ?? '';
        return `${indent}${r.chance(0.5) ? `const ${r.pick(VARS)} = ${r.pick(FUNCTIONS)}(${r.pick(VARS)});` : `// ${r.pick(COMMENTS)}`}`;
      });
      plan.set(m, { remove, add });
      last = m + remove;
    }
    // The aligned script: [old line or null, new line or null, changed].
    const script: { old: string | null; neu: string | null }[] = [];
    for (let i = 0; i < before.length; ) {
      const p = plan.get(i);
      if (!p) {
        script.push({ old: before[i], neu: before[i] });
        after.push(before[i]);
        i++;
        continue;
      }
      for (let k = 0; k < p.remove; k++) script.push({ old: before[i + k], neu: null });
      for (const line of p.add) {
        script.push({ old: null, neu: line });
        after.push(line);
      }
      if (p.remove === 0) {
        script.push({ old: before[i], neu: before[i] });
        after.push(before[i]);
        i++;
      } else i += p.remove;
    }
    this.files.set(path, after);
    return `diff --git a/${path} b/${path}\nindex ${r.hex(7)}..${r.hex(7)} 100644\n--- a/${path}\n+++ b/${path}\n${hunks(script, 3).join('\n')}`;
  }
}

/** Unified-diff hunks of an aligned script, `context` lines around each change, hunks merged when their context
 * would overlap (as git does). */
function hunks(script: { old: string | null; neu: string | null }[], context: number): string[] {
  const changed = script.map((s) => s.old !== s.neu);
  const out: string[] = [];
  let i = 0;
  while (i < script.length) {
    if (!changed[i]) {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    // Extend while another change lies within 2 × context of the last one.
    let end = i;
    for (let j = i; j < script.length && j <= end + 2 * context; j++) if (changed[j]) end = j;
    const stop = Math.min(script.length, end + context + 1);
    let oldStart = 1;
    let newStart = 1;
    for (let k = 0; k < start; k++) {
      if (script[k].old !== null) oldStart++;
      if (script[k].neu !== null) newStart++;
    }
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    for (let k = start; k < stop; k++) {
      const s = script[k];
      if (s.old !== null && s.old === s.neu) {
        body.push(` ${s.old}`);
        oldCount++;
        newCount++;
      } else {
        if (s.old !== null) {
          body.push(`-${s.old}`);
          oldCount++;
        }
        if (s.neu !== null) {
          body.push(`+${s.neu}`);
          newCount++;
        }
      }
    }
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`, ...body);
    i = stop;
  }
  return out;
}

const TEST_NAMES = [
  'applies the coupon before free shipping',
  'keeps the total at zero for a 100% coupon',
  'rounds half to even',
  'charges shipping below the free-shipping threshold',
  'rejects an expired coupon',
  'stacks a percentage and a fixed coupon in order',
  'computes tax on the discounted subtotal',
  'formats negative amounts with a minus sign',
  'merges two lines of the same product',
  'restores the cart from storage',
  'ignores unknown regions',
  'returns 404 for an unknown order',
];
const CODES = ['SAVE10', 'WELCOME5', 'FREESHIP', 'SPRING25', 'VIP-2026', 'BUNDLE3'];

/** `Read`'s output: numbered lines, as Claude Code prints them. */
export function numbered(lines: readonly string[]): string {
  return lines.map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');
}

/** Jest's verbose output over some suites, with `failures` failing tests (their diff, code frame and stack). */
export function jestLog(r: Rng, files: readonly string[], failures: number, args = ''): string {
  const out = ['', '> storefront@1.4.0 test', `> jest --verbose${args ? ` ${args}` : ''}`, ''];
  let passed = 0;
  let failed = 0;
  const failing = new Set<string>();
  while (failing.size < Math.min(failures, files.length)) failing.add(r.pick(files));
  for (const file of files) {
    const bad = failing.has(file);
    out.push(`${bad ? 'FAIL' : 'PASS'} ${file} (${(r.next() * 3).toFixed(3)} s)`);
    const tests = r.int(4, 14);
    const failAt = bad ? r.int(0, tests - 1) : -1;
    out.push(`  ${r.pick(FUNCTIONS)}`);
    for (let t = 0; t < tests; t++) {
      const name = r.pick(TEST_NAMES);
      if (t === failAt) {
        out.push(`    ✕ ${name} (${r.int(2, 40)} ms)`);
        failed++;
      } else {
        out.push(`    ✓ ${name} (${r.int(1, 30)} ms)`);
        passed++;
      }
    }
    out.push('');
  }
  for (const file of failing) {
    const line = r.int(20, 90);
    const expected = r.int(1000, 9000);
    out.push(
      `  ● ${r.pick(FUNCTIONS)} › ${r.pick(TEST_NAMES)}`,
      '',
      '    expect(received).toBe(expected) // Object.is equality',
      '',
      `    Expected: ${expected}`,
      `    Received: ${expected + r.pick([499, 500, -250, 1])}`,
      '',
      `      ${line - 2} |     const cart = makeCart([${r.int(1, 9) * 100}, ${r.int(1, 9) * 250}]);`,
      `      ${line - 1} |     const total = computeTotal(cart, { code: '${r.pick(CODES)}' });`,
      `    > ${line} |     expect(total.amount).toBe(${expected});`,
      '         |                          ^',
      `      ${line + 1} |   });`,
      '',
      `      at Object.<anonymous> (${file}:${line}:26)`,
      '',
    );
  }
  const suites = files.length;
  out.push(
    `Test Suites: ${failing.size ? `${failing.size} failed, ` : ''}${suites - failing.size} passed, ${suites} total`,
    `Tests:       ${failed ? `${failed} failed, ` : ''}${passed} passed, ${passed + failed} total`,
    'Snapshots:   0 total',
    `Time:        ${(2 + r.next() * 8).toFixed(3)} s`,
    'Ran all test suites.',
  );
  return out.join('\n');
}

/** `tsc --noEmit` with `errors` type errors. */
export function tscLog(r: Rng, errors: number): string {
  const out: string[] = [];
  for (let i = 0; i < errors; i++) {
    const file = r.pick(SOURCES);
    out.push(
      `${file}(${r.int(3, 120)},${r.int(3, 40)}): error TS${r.pick(['2322', '2345', '2532', '7006', '2339'])}: ${r.pick(
        [
          "Type 'number | undefined' is not assignable to type 'number'.",
          "Argument of type 'string' is not assignable to parameter of type 'Money'.",
          "Object is possibly 'undefined'.",
          "Parameter 'item' implicitly has an 'any' type.",
          "Property 'amountOff' does not exist on type 'Coupon'.",
        ],
      )}`,
    );
  }
  out.push('', `Found ${errors} error${errors === 1 ? '' : 's'} in ${Math.min(errors, 4)} files.`);
  return out.join('\n');
}

/** ESLint's stylish output: a few files, warnings and some errors. */
export function eslintLog(r: Rng, files: number): string {
  const out: string[] = [];
  let errors = 0;
  let warnings = 0;
  for (let f = 0; f < files; f++) {
    out.push(`${ROOT}/${r.pick(SOURCES)}`);
    for (let i = r.int(2, 9); i > 0; i--) {
      const error = r.chance(0.15);
      if (error) errors++;
      else warnings++;
      out.push(
        `  ${r.int(1, 140)}:${r.int(1, 40)}  ${error ? 'error  ' : 'warning'}  ${r.pick([
          "'useMemo' is defined but never used",
          'Unexpected console statement',
          'Missing return type on function',
          'Unexpected any. Specify a different type',
          'Prefer template literals over string concatenation',
        ])}  ${r.pick(['@typescript-eslint/no-unused-vars', 'no-console', '@typescript-eslint/explicit-function-return-type', '@typescript-eslint/no-explicit-any', 'prefer-template'])}`,
      );
    }
    out.push('');
  }
  out.push(`✖ ${errors + warnings} problems (${errors} errors, ${warnings} warnings)`);
  return out.join('\n');
}

/** `gh run view --log-failed`: the failed job's log, one line per step output, tab-separated and timestamped. */
export function ciLog(r: Rng, lines: number): string {
  const out: string[] = [];
  let t = Date.UTC(2026, 0, 21, 9, 40, 0);
  for (let i = 0; i < lines; i++) {
    t += r.int(5, 900);
    const step = i < lines * 0.2 ? 'Install dependencies' : i < lines * 0.45 ? 'Build' : 'Run tests';
    const roll = r.next();
    let text: string;
    if (step === 'Install dependencies')
      text =
        roll < 0.3
          ? `npm warn deprecated ${r.pick(['inflight@1.0.6', 'glob@7.2.3', 'rimraf@3.0.2'])}: This module is not supported, and leaks memory.`
          : `added ${r.int(1, 90)} packages, and audited ${r.int(800, 1400)} packages in ${r.int(2, 30)}s`;
    else if (step === 'Build')
      text =
        roll < 0.1
          ? `warning: ${r.pick(SOURCES)}: ${r.pick(['unused import', 'implicit any'])}`
          : `${r.pick(['Compiled', 'Emitted', 'Bundled'])} ${r.pick(SOURCES)} in ${r.int(20, 900)}ms`;
    else if (i === lines - 1) text = '##[error]Process completed with exit code 1.';
    else
      text =
        roll < 0.06
          ? `FAIL ${r.pick(TESTS)} (${r.int(1, 9)}.${r.int(100, 999)} s)`
          : roll < 0.1
            ? `  ● ${r.pick(FUNCTIONS)} › ${r.pick(TEST_NAMES)}: expected ${r.int(1000, 9000)}, received ${r.int(1000, 9000)}`
            : `PASS ${r.pick(TESTS)} (${r.int(1, 9)}.${r.int(100, 999)} s)`;
    out.push(`test\t${step}\t${new Date(t).toISOString().replace('Z', '0000Z')} ${text}`);
  }
  return out.join('\n');
}

/** Grep in content mode: `path:line:text` lines over many files. */
export function grepOutput(r: Rng, project: Project, pattern: string, files: number): string {
  const out: string[] = [];
  const chosen = new Set<string>();
  while (chosen.size < Math.min(files, SOURCES.length + TESTS.length))
    chosen.add(r.pick([...SOURCES, ...TESTS]));
  for (const file of [...chosen].sort()) {
    const lines = project.lines(file);
    for (let m = r.int(1, 9); m > 0; m--) {
      const n = r.int(1, lines.length);
      const text = lines[n - 1].includes(pattern)
        ? lines[n - 1]
        : `${lines[n - 1].slice(0, 40)} ${pattern}(${r.pick(VARS)})`;
      out.push(`${ROOT}/${file}:${n}:${text}`);
    }
  }
  return out.join('\n');
}

const LOGINS = ['mara-k', 'devon-li', 'sam-okafor', 'priya-n', 'jules-b', 'renovate[bot]', 'dependabot[bot]'];
const PR_TITLES = [
  'Fix double shipping fee with coupons',
  'Add coupon stacking rules',
  'Bump next from 15.1.2 to 15.1.4',
  'Tax per region for the EU',
  'Cart: merge lines of the same product',
  'Checkout: show savings in the summary',
  'Refactor money helpers to integer cents',
  'Order confirmation email template',
  'Retry payment intents on 409',
  'Bump @types/node from 22.10.1 to 22.10.5',
];

/** `gh pr list --json …` (keys sorted, one line, as gh prints when not on a terminal). */
export function ghPrList(r: Rng, n: number): string {
  const items = Array.from({ length: n }, (_, i) => ({
    author: { login: r.pick(LOGINS) },
    createdAt: new Date(Date.UTC(2026, 0, 20) - r.int(0, 60) * 86_400_000 - r.int(0, 86_399) * 1000)
      .toISOString()
      .replace('.000', ''),
    headRefName: `${r.pick(['fix', 'feat', 'chore', 'renovate'])}/${r.pick(['coupon', 'tax', 'cart', 'deps', 'checkout', 'email'])}-${r.hex(4)}`,
    isDraft: r.chance(0.2),
    number: 520 - i * r.int(1, 3),
    reviewDecision: r.pick(['APPROVED', 'REVIEW_REQUIRED', 'CHANGES_REQUESTED', '']),
    state: 'OPEN',
    title: r.pick(PR_TITLES),
  }));
  return JSON.stringify(items);
}

/** `gh run list --json …`: workflow runs, some failed. */
export function ghRunList(r: Rng, n: number): string {
  const items = Array.from({ length: n }, (_, i) => {
    const status = i === 0 ? 'in_progress' : 'completed';
    return {
      conclusion: status === 'completed' ? (r.chance(0.2) ? 'failure' : 'success') : '',
      createdAt: new Date(Date.UTC(2026, 0, 21, 9) - i * r.int(600, 7200) * 1000)
        .toISOString()
        .replace('.000', ''),
      databaseId: 12_873_400_000 - i * r.int(100, 9000),
      displayTitle: r.pick(PR_TITLES),
      event: r.pick(['pull_request', 'push', 'pull_request', 'schedule']),
      headBranch: r.pick(['main', 'fix/coupon-total', 'feat/coupon-stacking', 'renovate/next']),
      status,
      workflowName: r.pick(['CI', 'CI', 'Deploy preview', 'CodeQL']),
    };
  });
  return JSON.stringify(items);
}

/** Playwright MCP's answer to a browser action: the code it ran and the page's accessibility snapshot. */
export function browserPage(r: Rng, url: string, code: string, withSnapshot = true): string {
  const out = [
    '### Ran Playwright code',
    '```js',
    code,
    '```',
    '',
    '### Page state',
    `- Page URL: http://localhost:3000${url}`,
  ];
  out.push(
    `- Page Title: ${url.includes('confirm') ? 'Order confirmed' : url.includes('cart') ? 'Your cart' : 'Checkout'} · Storefront`,
  );
  if (!withSnapshot) return out.join('\n');
  out.push('- Page Snapshot:', '```yaml', '- generic [ref=e2]:', '  - banner [ref=e3]:');
  let ref = 4;
  out.push(`    - link "Storefront" [ref=e${ref++}] [cursor=pointer]:`, '      - /url: /');
  out.push(`    - navigation [ref=e${ref++}]:`);
  for (const item of ['Shop', 'Collections', 'Journal', 'Cart (3)'])
    out.push(
      `      - link "${item}" [ref=e${ref++}] [cursor=pointer]:`,
      `        - /url: /${item.toLowerCase().split(' ')[0]}`,
    );
  out.push(
    `  - main [ref=e${ref++}]:`,
    `    - heading "${url.includes('confirm') ? 'Thank you!' : 'Checkout'}" [level=1] [ref=e${ref++}]`,
  );
  out.push(`    - list [ref=e${ref++}]:`);
  for (let i = r.int(3, 12); i > 0; i--) {
    const product = r.pick([
      'Linen shirt',
      'Canvas tote',
      'Wool scarf',
      'Ceramic mug',
      'Leather wallet',
      'Desk lamp',
    ]);
    out.push(
      `      - listitem [ref=e${ref++}]:`,
      `        - img "${product}" [ref=e${ref++}]`,
      `        - generic [ref=e${ref++}]: ${product} × ${r.int(1, 3)}`,
      `        - generic [ref=e${ref++}]: $${r.int(8, 90)}.${r.pick(['00', '50', '99'])}`,
      `        - button "Remove ${product}" [ref=e${ref++}] [cursor=pointer]`,
    );
  }
  out.push(
    `    - group "Coupon" [ref=e${ref++}]:`,
    `      - textbox "Coupon code" [ref=e${ref++}]: ${r.pick(['', 'SAVE10', 'FREESHIP'])}`,
    `      - button "Apply" [ref=e${ref++}] [cursor=pointer]`,
    `    - radiogroup "Shipping" [ref=e${ref++}]:`,
    `      - radio "Standard (free over $50)" [checked] [ref=e${ref++}]`,
    `      - radio "Express $12.00" [ref=e${ref++}]`,
    `    - generic [ref=e${ref++}]: Subtotal $${r.int(40, 200)}.00`,
    `    - generic [ref=e${ref++}]: Discount −$${r.int(2, 20)}.00`,
    `    - generic [ref=e${ref++}]: Shipping $${r.pick(['0.00', '4.99'])}`,
    `    - generic [ref=e${ref++}]: Total $${r.int(40, 200)}.${r.pick(['00', '49', '99'])}`,
    `    - button "Place order" [ref=e${ref++}] [cursor=pointer]`,
    `  - contentinfo [ref=e${ref++}]:`,
    `    - generic [ref=e${ref++}]: © 2026 Storefront`,
    '```',
  );
  return out.join('\n');
}

/** A small real PNG (a grey page with a dark header bar), stored uncompressed so that its bytes never depend on the
 * zlib build: the image part of a screenshot result. */
export function screenshotPng(): string {
  const width = 32;
  const height = 18;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const shade = y < 3 ? 40 : x > 20 && y > 5 && y < 14 ? 200 : 240;
      raw.fill(shade, row + 1 + x * 3, row + 4 + x * 3);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(data.length + 12);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, data.length + 8);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]).toString('base64');
}

/** A documentation page fetched with WebFetch (the model's summary of it, as Claude Code returns). */
export function docsPage(r: Rng): string {
  const paras = [
    'Discounts apply to the order subtotal before shipping and tax. A free-shipping threshold is evaluated on the discounted subtotal.',
    'Stacked coupons are applied in the order percentage first, then fixed amounts; the total never goes below zero.',
    'All amounts in the API are integers in the smallest currency unit. Use the currency’s exponent to format them.',
    'Webhooks are retried with exponential backoff for up to three days; handlers must be idempotent.',
    'Tax is computed per line item after discounts are allocated proportionally to each line.',
  ];
  const sections = ['Coupons', 'Stacking', 'Amounts', 'Webhooks', 'Tax'];
  const out = ['# Pricing and discounts', ''];
  sections.forEach((title, i) => {
    out.push(`## ${title}`, '', paras[i], '');
    for (let k = r.int(1, 4); k > 0; k--)
      out.push(`- ${r.pick(COMMENTS)} See \`${r.pick(FUNCTIONS)}\` in the reference client.`);
    out.push('');
  });
  return out.join('\n');
}

export { CODES, FUNCTIONS, TEST_NAMES };
