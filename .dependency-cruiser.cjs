// The layering of ARCHITECTURE.md, checked on every `npm run lint`. dependency-cruiser rather than a hand-written
// test: it resolves imports as TypeScript does (tsconfig, type-only imports included), finds cycles of any length,
// and its rules read as the table they encode.
/** The webview and the protocol and wire modules its bundle runs. */
const ENGINE_FREE = [
  '^webview/',
  '^src/protocol/(check|hostMessages|parse|requests|settingValues|shared|viewDescriptors)[.]ts$',
  '^src/analysisWire/(check|columns|decode|encode|patch|types)[.]ts$',
];
/** What those must not run: the engine, the formats, the token counting, the core modules built on them, and the
 * protocol's host side. */
const ENGINE_CODE = [
  '^src/core/(engine|formats|tokens)/',
  '^src/core/(?!analysisTypes|model|sameData)[^/]+[.]ts$',
  '^src/protocol/(index|registryDescriptors|webviewMessages)[.]ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-stays-portable',
      comment:
        'core/ runs in the extension host, the CLI and a browser-hosted editor: it imports no Node wiring ' +
        '(src/node), no editor (src/host, vscode), no terminal (src/cli) and no React.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: {
        path: [
          '^src/(node|host|cli)/',
          '^src/cli[.]ts$',
          '^vscode$',
          'node_modules/@types/vscode/',
          'node_modules/(@types/)?react(-dom)?/',
        ],
      },
    },
    {
      name: 'core-no-node-builtins',
      comment:
        'core/ uses no Node built-in module. Known exceptions, to go once hashing is injected: engine/hash.ts and ' +
        'tokens/counter.ts take SHA-256 from node:crypto (synchronous and ~20x faster than a JS SHA-256 on a ' +
        "session's multi-MB results; WebCrypto's digest is asynchronous, so the engine's synchronous callers " +
        'would change).',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '^src/core/(engine/hash|tokens/counter)[.]ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'node-knows-no-editor',
      comment: 'src/node is shared by the editor and the CLI: it imports nothing from src/host, nor vscode.',
      severity: 'error',
      from: { path: '^src/node/' },
      to: { path: ['^src/host/', '^vscode$', 'node_modules/@types/vscode/'] },
    },
    {
      name: 'store-copy-off-the-extension-host',
      comment:
        "The copy of an agent's own store (sql.js, its WebAssembly inlined, about a megabyte) runs in the CLI and " +
        "the editor's store worker only: nothing else of the editor or of src/node loads it.",
      severity: 'error',
      from: { path: '^src/(host|node)/', pathNot: '^src/(host/storeWorker|node/openCodeMirror)[.]ts$' },
      to: { path: ['^src/node/openCodeMirror[.]ts$', 'node_modules/sql[.]js/'] },
    },
    {
      name: 'webview-talks-by-protocol',
      comment: 'The webview runs in a browser frame and hears the host through the protocol only.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { path: ['^src/(host|node|cli)/', '^src/cli[.]ts$', '^vscode$', 'node_modules/@types/vscode/'] },
    },
    {
      name: 'webview-runs-no-engine',
      comment:
        'The webview draws what the host sends and never re-implements engine rules: it runs no engine, format or ' +
        'token code, nor the host-side protocol that builds its checks from the registries (src/protocol/index.ts, ' +
        'registryDescriptors.ts, webviewMessages.ts); what it needs of the registries comes with the page ' +
        '(src/protocol/viewDescriptors.ts). Type imports are erased at build and allowed.',
      severity: 'error',
      from: { path: ENGINE_FREE },
      to: { path: ENGINE_CODE, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment:
        'A circle of imports makes its files one module in all but name: none in src/ or webview/. A circle closed ' +
        'only by type imports is erased at build and is how the format ids come from the registry (model.ts names ' +
        "the registry's ids; the adapters use model.ts), so that a new format is one registry line.",
      severity: 'error',
      from: { path: '^(src|webview)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from src/host in core/ couples the layers as much as a value does.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
  },
};
