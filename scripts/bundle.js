// `npm run build`'s last step: bundles what bin/run.js runs on its fast paths (the commands that
// address a pod, `pod start`, an adopted child pod) into dist/bundle/, from the TypeScript
// sources, with source maps. Loading one file instead of ~300 ESM and CommonJS modules (each
// resolved, read and compiled on its own) is most of a short command's start-up. Lazy
// `import()`s stay lazy: each becomes a chunk loaded on first use.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * `await import('cosmiconfig')` gets a CommonJS module's named exports in Node (it reads them
 * from the source), but from a bundle chunk only `default`. This plugin puts a small ES module
 * in front of every CommonJS package imported dynamically, re-exporting the names the package
 * has when required at build time.
 */
const cjsNamedExports = {
  name: 'cjs-named-exports',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === 'inner') return undefined;
      const resolved = await b.resolve(args.path, {
        kind: 'import-statement',
        resolveDir: args.resolveDir,
        pluginData: 'inner',
      });
      if (resolved.errors.length > 0 || resolved.external || !isCommonJs(resolved.path)) return undefined;
      return { path: args.path, namespace: 'cjs-named', pluginData: { resolveDir: args.resolveDir } };
    });
    b.onLoad({ filter: /.*/, namespace: 'cjs-named' }, (args) => {
      const names = Object.keys(createRequire(path.join(args.pluginData.resolveDir, 'x.js'))(args.path)).filter(
        (n) => n !== 'default' && n !== '__esModule' && /^[A-Za-z_$][\w$]*$/.test(n),
      );
      const spec = JSON.stringify(args.path);
      return {
        contents: `import * as m from ${spec};\nexport default m.default ?? m;\n${names.map((n) => `export const ${n} = m.${n};`).join('\n')}\n`,
        resolveDir: args.pluginData.resolveDir,
        loader: 'js',
      };
    });
  },
};

/**
 * Inside the bundle, yoi's own `import … from '@oclif/core'` gets cli/hot/oclifLite.ts (the same
 * flags and parser, a Command without oclif's config machinery). Three of oclif's modules reach
 * its help renderer (with ejs, the spinners' table and the config loader), which no hot command
 * uses: the `help` flag's class loader (no hot command has a `help` flag), the help that
 * `handle()` prints after an error (the hot path reports errors itself, see bin/run.js), and the
 * parser's `flagUsages` (help text). Each gets a stand-in that throws if it is ever called.
 * Two built-ins and a package that oclif loads at once are only used now and then: the parser
 * reads stdin with `readline` only for a flag whose value is `-`, and the logger's `debug` logs
 * nothing unless DEBUG is set (the hot path leaves those command lines to oclif). Their
 * stand-ins load the real module at the first call.
 */
const standIns = [
  {
    importer: ['@oclif', 'core', 'lib', 'flags.js'],
    spec: './help',
    contents: "exports.loadHelpClass = () => { throw new Error('help is not part of the bundle'); };",
  },
  {
    importer: ['@oclif', 'core', 'lib', 'errors', 'handle.js'],
    spec: '../help/index',
    contents: "exports.Help = class { constructor() { throw new Error('help is not part of the bundle'); } };",
  },
  {
    importer: ['@oclif', 'core', 'lib', 'parser', 'index.js'],
    spec: './help',
    contents: "exports.flagUsages = () => { throw new Error('help is not part of the bundle'); };",
  },
  {
    importer: ['@oclif', 'core', 'lib', 'parser', 'parse.js'],
    spec: 'node:readline',
    contents: "exports.createInterface = (...args) => require('node:readline').createInterface(...args);",
  },
  // uuid's random bytes come from `crypto.getRandomValues`, whose first use loads all of Node's
  // WebCrypto; node:crypto's `randomFillSync` fills the same 16 bytes from the same source.
  {
    importer: ['uuid', 'dist-node', 'v7.js'],
    spec: './rng.js',
    contents:
      "import { randomFillSync } from 'node:crypto'; const rnds8 = new Uint8Array(16); export default function rng() { return randomFillSync(rnds8); }",
  },
  // Loaded at every start for a check made only now and then: oclif's colour support (which
  // loads `tty`) when an error is printed, signal-exit's `assert` when a lock is taken.
  {
    importer: ['@oclif', 'core', 'lib', 'ux', 'supports-color.js'],
    spec: 'supports-color',
    contents:
      "for (const name of ['stdout', 'stderr']) Object.defineProperty(exports, name, { get: () => require('supports-color')[name] });",
  },
  {
    importer: ['signal-exit', 'index.js'],
    spec: 'assert',
    contents: "exports.equal = (a, b, message) => { if (a != b) require('node:assert').equal(a, b, message); };",
  },
  {
    importer: ['@oclif', 'core', 'lib', 'logger.js'],
    spec: 'debug',
    contents:
      "module.exports = (namespace) => { let real; return (...args) => (real ??= require('debug')(namespace))(...args); };",
  },
];
const oclifLite = {
  name: 'oclif-lite',
  setup(b) {
    b.onResolve({ filter: /^@oclif\/core$/ }, (args) => {
      if (args.importer.includes('node_modules')) return undefined;
      return { path: path.join(root, 'cli/hot/oclifLite.ts') };
    });
    b.onResolve(
      { filter: /^(\.\.?\/help(\/index)?|node:readline|debug|\.\/rng\.js|supports-color|assert)$/ },
      (args) => {
        const i = standIns.findIndex((h) => h.spec === args.path && args.importer.endsWith(path.join(...h.importer)));
        return i < 0
          ? undefined
          : { path: String(i), namespace: 'oclif-stand-in', pluginData: path.dirname(args.importer) };
      },
    );
    b.onLoad({ filter: /.*/, namespace: 'oclif-stand-in' }, (args) => ({
      contents: standIns[Number(args.path)].contents,
      loader: 'js',
      resolveDir: args.pluginData,
    }));
  },
};

/**
 * zod's `locales` namespace (`z.locales.fr()`…) is ~360 KB of error texts in 50 languages that
 * every pod would parse at start, for a namespace yoi never uses and a plugin rarely does. In
 * the bundle each locale but `en` (zod's default, bundled as it is) becomes a function that
 * requires zod's own CommonJS build of it on first call, and returns what it returns.
 */
const zodLocales = {
  name: 'zod-locales',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)) return undefined;
      return { path: path.join(path.dirname(args.importer), args.path), namespace: 'zod-locales' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => {
      const names = [
        ...fs.readFileSync(args.path, 'utf8').matchAll(/export \{ default as (\w+) \} from "\.\/([\w-]+)\.js"/g),
      ];
      const lines = names.map(([, name, file]) =>
        name === 'en'
          ? 'export { default as en } from "./en.js";'
          : `export const ${name} = (...args) => load(${JSON.stringify(file)})(...args);`,
      );
      return {
        contents: [
          "import { createRequire } from 'node:module';",
          // zod's CommonJS locale files export the function itself.
          'const load = (file) => { const m = createRequire(import.meta.url)(`zod/v4/locales/${file}.cjs`); return typeof m === "function" ? m : m.default; };',
          ...lines,
        ].join('\n'),
        resolveDir: path.dirname(args.path),
        loader: 'js',
      };
    });
  },
};

function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs') || !file.endsWith('.js')) return false;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) return JSON.parse(fs.readFileSync(pkg, 'utf8')).type !== 'module';
  }
  return true;
}

fs.rmSync(new URL('../dist/bundle', import.meta.url), { recursive: true, force: true });
// Left outside both forms of the bundle, loaded from node_modules as before: packages that find
// files next to themselves (ripgrep's binary, jiti's transpiler, the tokenizer's tables) or are
// large and only loaded by some pods. `ws` too: client/WebSocketTransport.ts requires it at
// run time, and the WebSocket listener and client must share that one copy.
const external = [
  'typescript',
  '@vscode/ripgrep',
  'jiti',
  'gpt-tokenizer',
  'gpt-tokenizer/*',
  'ink',
  'react',
  'react/*',
  'yaml',
  'ws',
];
const result = await build({
  absWorkingDir: root,
  entryPoints: { yoi: 'cli/hot/bundleEntry.ts' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  external,
  // CommonJS packages in an ESM bundle call `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __yoiCreateRequire } from 'node:module'; const require = __yoiCreateRequire(import.meta.url);",
  },
  plugins: [oclifLite, zodLocales, cjsNamedExports],
  logLevel: 'warning',
  legalComments: 'none',
  metafile: Boolean(process.env.YOI_BUNDLE_META),
});
if (process.env.YOI_BUNDLE_META) fs.writeFileSync(process.env.YOI_BUNDLE_META, JSON.stringify(result.metafile));

/**
 * The same entry as one CommonJS script without code splitting (a function expression, Node's
 * module wrapper around the bundle), which cli/hot/loadBundle.ts compiles as a `vm.Script` with a V8 code cache (Node 20 has none for ES modules). Lazy
 * `import()`s stay lazy: esbuild wraps each module they reach in a function run on first use.
 * `import.meta.url` is the file's URL, as in a chunk of the ES-module bundle next to it.
 * Whitespace and comments are left out (the file is parsed in full when there is no cache yet;
 * stack traces with source maps come from the ES-module bundle, see bin/run.js), and the few
 * non-ASCII characters esbuild leaves in regular expressions are escaped: an ASCII file is read
 * into a string without decoding.
 */
const cjs = await build({
  absWorkingDir: root,
  entryPoints: ['cli/hot/bundleEntry.ts'],
  outfile: 'dist/bundle/yoi.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  define: { 'import.meta.url': '__yoiImportMetaUrl' },
  banner: { js: "var __yoiImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [oclifLite, zodLocales],
  minifyWhitespace: true,
  logLevel: 'warning',
  legalComments: 'none',
  write: false,
});
// A script compiled from a code cache loses its `import()` callback on Node 20 (it throws "A
// dynamic import callback was not specified"): the bundle's `import()`s of what stays outside it
// call `__yoiImport`, which the loader passes in. They are the same sites as in the ES-module
// bundle (its `import()`s of anything but its own chunks), checked here, so no other text is
// taken for one.
const importSites = (code) => [...code.matchAll(/(?<![\w$.])import\(([^()]*)\)/g)];
const esmSites = fs
  .readdirSync(path.join(root, 'dist/bundle'))
  .filter((f) => f.endsWith('.js'))
  .flatMap((f) => importSites(fs.readFileSync(path.join(root, 'dist/bundle', f), 'utf8')))
  .filter((m) => m[1] !== '' && !/^["']\.\//.test(m[1]));
for (const out of cjs.outputFiles) {
  const sites = importSites(out.text);
  if (sites.length !== esmSites.length) {
    throw new Error(`yoi.cjs: ${sites.length} import() sites, the ES-module bundle has ${esmSites.length}`);
  }
  const text = shareInterop(out.text)
    .replace(/(?<![\w$.])import\(/g, '__yoiImport(')
    .replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // Node's CommonJS wrapper (on the first line: line numbers stay esbuild's) with `__yoiImport`:
  // the file is the very source V8 compiles, so the loader does not build a copy of 3 MB.
  const wrapped = `(function (exports, require, module, __filename, __dirname, __yoiImport) {${text}\n})`;
  fs.writeFileSync(out.path, wrapped);
  // The digest the code cache is keyed by, so a start does not hash 3 MB (see codeCacheKey).
  fs.writeFileSync(`${out.path}.sha256`, `${createHash('sha256').update(wrapped).digest('hex')}\n`);
}
/**
 * esbuild gives every module that imports a CommonJS module's default (`import fs from
 * 'node:fs'`) its own copy of the module object, one getter per export: 46 copies of `fs` and
 * 66 of `path` here, ~8,000 closures an idle pod kept (4.5 MiB of RSS) and built at every start. The
 * copies are read-only and alike, so the bundle's `__toESM` makes one per module and mode.
 */
function shareInterop(code) {
  const helper = /var __toESM=\(mod,isNodeMode,target\)=>\([^;]*\);/;
  const found = helper.exec(code);
  if (!found) throw new Error("yoi.cjs: esbuild's __toESM helper was not found");
  const shared =
    'var __yoiInterop=new WeakMap(),__yoiToESM=__toESM;' +
    '__toESM=(mod,isNodeMode)=>{if(mod==null||typeof mod!=="object"&&typeof mod!=="function")return __yoiToESM(mod,isNodeMode);' +
    'let slots=__yoiInterop.get(mod);if(!slots)__yoiInterop.set(mod,slots=[]);const i=isNodeMode?1:0;' +
    'return slots[i]??=__yoiToESM(mod,isNodeMode)};';
  return code.replace(helper, (m) => m + shared);
}

// bin/run.js's loader of the bundle (with the cache checks it needs, in one file), CommonJS too:
// Node's ES-module facade of `node:crypto` would load all of WebCrypto for its getters.
await build({
  absWorkingDir: root,
  entryPoints: ['cli/hot/loadBundle.ts'],
  outfile: 'dist/bundle/load.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { 'import.meta.url': '__yoiImportMetaUrl' },
  banner: { js: "var __yoiImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
  legalComments: 'none',
});
