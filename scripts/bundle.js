// `npm run build`'s last step: bundles what bin/run.js runs on its fast paths (the commands that
// address a pod, `pod start`, an adopted child pod) into dist/bundle/, from the TypeScript
// sources, with source maps. Loading one file instead of ~300 ESM and CommonJS modules (each
// resolved, read and compiled on its own) is most of a short command's start-up. Lazy
// `import()`s stay lazy: each becomes a chunk loaded on first use.
import { build } from 'esbuild';
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
      const resolved = await b.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir, pluginData: 'inner' });
      if (resolved.errors.length > 0 || resolved.external || !isCommonJs(resolved.path)) return undefined;
      return { path: args.path, namespace: 'cjs-named', pluginData: { resolveDir: args.resolveDir } };
    });
    b.onLoad({ filter: /.*/, namespace: 'cjs-named' }, (args) => {
      const names = Object.keys(createRequire(path.join(args.pluginData.resolveDir, 'x.js'))(args.path))
        .filter((n) => n !== 'default' && n !== '__esModule' && /^[A-Za-z_$][\w$]*$/.test(n));
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
 * flags and parser, a Command without oclif's config machinery). oclif's flag module needs its
 * help module only for the `help` flag, which no hot command has.
 */
const oclifLite = {
  name: 'oclif-lite',
  setup(b) {
    b.onResolve({ filter: /^@oclif\/core$/ }, (args) => {
      if (args.importer.includes('node_modules')) return undefined;
      return { path: path.join(root, 'cli/hot/oclifLite.ts') };
    });
    b.onResolve({ filter: /^\.\/help$/ }, (args) => {
      if (!args.importer.endsWith(path.join('@oclif', 'core', 'lib', 'flags.js'))) return undefined;
      return { path: 'help', namespace: 'oclif-no-help' };
    });
    b.onLoad({ filter: /.*/, namespace: 'oclif-no-help' }, () => ({
      contents: "exports.loadHelpClass = () => { throw new Error('help is not part of the bundle'); };",
      loader: 'js',
    }));
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
  // Packages that find files next to themselves (ripgrep's binary, jiti's transpiler, the
  // tokenizer's tables) or are large and only loaded by some pods stay outside, loaded from
  // node_modules as before.
  external: ['typescript', '@vscode/ripgrep', 'jiti', 'gpt-tokenizer', 'gpt-tokenizer/*', 'ink', 'react', 'react/*', 'yaml'],
  // CommonJS packages in an ESM bundle call `require` for Node's built-ins.
  banner: { js: "import { createRequire as __yoiCreateRequire } from 'node:module'; const require = __yoiCreateRequire(import.meta.url);" },
  plugins: [oclifLite, cjsNamedExports],
  logLevel: 'warning',
  legalComments: 'none',
  metafile: Boolean(process.env.YOI_BUNDLE_META),
});
if (process.env.YOI_BUNDLE_META) fs.writeFileSync(process.env.YOI_BUNDLE_META, JSON.stringify(result.metafile));
