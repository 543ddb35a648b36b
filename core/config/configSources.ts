import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { YoiError } from '../errors/YoiError.js';

/** One file of a config's content: its path and the SHA-256 of what counts of it. */
export interface ConfigSourceFile {
  readonly path: string;
  readonly sha256: string;
}

/** What a config is made of, and its digest (what `yoi trust` records and children compare). */
export interface ConfigSources {
  readonly files: readonly ConfigSourceFile[];
  readonly digest: string;
  /**
   * Paths that would change what one of the config's local imports resolves to, were they
   * created: `./helpers` found as `helpers/index.ts` is shadowed by a new `helpers.ts`.
   */
  readonly shadows: readonly string[];
}

/** Local modules followed from one config, at most (a config is a few files). */
const MAX_FILES = 256;
/** Paths collected that would shadow an import, at most (the control plane keeps 1000 config paths in all). */
const MAX_SHADOWS = 1000;
/** Largest file hashed or scanned. */
const MAX_BYTES = 16 * 1024 * 1024;
const CODE = /\.(?:[cm]?[jt]sx?)$/;
const VERSION = 'yoi-config-digest-v1';

/**
 * Module specifiers in JS/TS source: `import … from 'x'`, `import 'x'`, `export … from 'x'`,
 * `import('x')` and `require('x')` with a literal. A scan, not a parse: a specifier in a comment
 * only adds a file to the digest (more is covered, never less of what is really imported).
 */
const SPECIFIER =
  /\b(?:import|export)\s*(?:[\w*${}\s,]*?\bfrom\s*)?["']([^"'\n]+)["']|\b(?:import|require)\s*\(\s*["']([^"'\n]+)["']\s*\)/g;

/**
 * `import type … from` and `export type … from`: erased by every TypeScript transform, so the
 * module is never run by the config and is not part of it (this repository's own config, whose
 * one import is `import type { YoiConfig } from './index.js'`, walked 240 files in 2.7 s on every
 * command). `import type from 'x'` and `import type, { a } from 'x'` import a value named `type`;
 * `import { type A } from 'x'` may keep the module; both are followed.
 */
const TYPE_ONLY = /^(?:import|export)\s+type\s+(?!from\b)[{*\w$]/;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The digest of no config at all (a pod that found none; a child must find none either). */
export const NO_CONFIG_DIGEST = digestOf([]);

/** What a specifier without its own extension may resolve to, besides itself. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];

function digestOf(files: readonly ConfigSourceFile[]): string {
  const lines = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => `${f.path}\0${f.sha256}\n`);
  return sha256(`${VERSION}\n${lines.join('')}`);
}

function read(file: string): Buffer {
  const st = fs.statSync(file);
  if (st.size > MAX_BYTES)
    throw new YoiError('YOI_ERR_CONFIG', `${file}: a config file over ${MAX_BYTES / 1024 / 1024} MiB is not loaded`);
  return fs.readFileSync(file);
}

/**
 * The files a config consists of, found without running any of it, and their digest: the
 * config file, and for a JS/TS config every local module reachable through static imports
 * (type-only imports are erased, never run, and not followed)
 * (relative or absolute specifiers, resolved as jiti resolves them; packages under
 * node_modules are not followed). `package.json` counts with its `yoi` key only (the rest of
 * the file is the project's). Dynamic imports with a computed name are not seen.
 */
export async function configSources(configPath: string | null): Promise<ConfigSources> {
  if (configPath === null) return { files: [], digest: NO_CONFIG_DIGEST, shadows: [] };
  const file = path.resolve(configPath);
  if (path.basename(file) === 'package.json') {
    const bytes = read(file);
    let counted: string | Buffer = bytes;
    try {
      counted = JSON.stringify((JSON.parse(bytes.toString('utf8')) as { yoi?: unknown }).yoi ?? null);
    } catch {
      // not JSON: the whole file counts (loading it fails anyway)
    }
    const files = [{ path: file, sha256: sha256(counted) }];
    return { files, digest: digestOf(files), shadows: [] };
  }
  if (!CODE.test(file)) {
    const files = [{ path: file, sha256: sha256(read(file)) }];
    return { files, digest: digestOf(files), shadows: [] };
  }
  const { createJiti } = await import('jiti');
  const jiti = createJiti(pathToFileURL(file).href, { fsCache: false, moduleCache: false });
  const files: ConfigSourceFile[] = [];
  const shadows = new Set<string>();
  // A relative or absolute specifier resolves the same from every file of one directory, and
  // jiti's resolver costs ~2 ms a call (it stats and throws its way through the candidates).
  const resolved = new Map<string, string | undefined>();
  const queue = [file];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const current = queue.shift()!;
    const bytes = read(current);
    files.push({ path: current, sha256: sha256(bytes) });
    if (!CODE.test(current)) continue;
    for (const spec of specifiers(bytes.toString('utf8'))) {
      if (shadows.size < MAX_SHADOWS) for (const p of shadowsOf(spec, current)) shadows.add(p);
      const key = `${path.dirname(current)}\0${spec}`;
      if (!resolved.has(key))
        resolved.set(
          key,
          withoutStackTraces(() => resolveLocal(jiti, spec, current)),
        );
      const dep = resolved.get(key);
      if (dep === undefined || seen.has(dep)) continue;
      if (seen.size >= MAX_FILES)
        throw new YoiError('YOI_ERR_CONFIG', `${file}: imports more than ${MAX_FILES} local modules`);
      seen.add(dep);
      queue.push(dep);
    }
  }
  const own = new Set(files.map((f) => f.path));
  return { files, digest: digestOf(files), shadows: [...shadows].filter((p) => !own.has(p)) };
}

/**
 * Where a local specifier could resolve to, as a resolver tries it: the path as written, with
 * each extension added or (for `./a.js` meaning `./a.ts`) swapped, and a directory's `index.*`
 * and `package.json`. An existing directory is not itself one (only what is in it).
 */
function shadowsOf(spec: string, from: string): string[] {
  if (!spec.startsWith('.') && !spec.startsWith('/') && !spec.startsWith('file:')) return [];
  let base: string;
  try {
    base = spec.startsWith('file:') ? fileURLToPath(spec) : path.resolve(path.dirname(from), spec);
  } catch {
    return [];
  }
  if (base.split(path.sep).includes('node_modules')) return [];
  const out = [...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  out.push(path.join(base, 'package.json'));
  if (!fs.statSync(base, { throwIfNoEntry: false })?.isDirectory()) out.push(base);
  if (CODE.test(base)) {
    const stem = base.replace(CODE, '');
    out.push(...EXTENSIONS.map((e) => stem + e));
  }
  return out;
}

function specifiers(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(SPECIFIER)) if (!TYPE_ONLY.test(m[0])) out.push(m[1] ?? m[2]);
  return out;
}

/**
 * Runs synchronous `fn` with `Error.stackTraceLimit` held at 0 and read-only. jiti's resolver
 * makes an error for every candidate it rules out and, where the limit is writable, raises it to
 * Infinity to capture each one's whole stack (its errors are caught and never shown): half the
 * resolver's time. Where the limit is read-only it leaves it alone. Restored before returning.
 */
function withoutStackTraces<T>(fn: () => T): T {
  const own = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit');
  if (!own?.configurable) return fn();
  Object.defineProperty(Error, 'stackTraceLimit', { value: 0, writable: false, configurable: true });
  try {
    return fn();
  } finally {
    Object.defineProperty(Error, 'stackTraceLimit', own);
  }
}

/** A relative or absolute specifier resolved to a local file (not a package, not a builtin). */
function resolveLocal(
  jiti: { esmResolve: (id: string, opts: { parentURL: string; try: true }) => string | undefined },
  spec: string,
  from: string,
): string | undefined {
  if (!spec.startsWith('.') && !spec.startsWith('/') && !spec.startsWith('file:')) return undefined;
  const resolved = jiti.esmResolve(spec, { parentURL: pathToFileURL(from).href, try: true });
  if (!resolved?.startsWith('file:')) return undefined;
  const p = fileURLToPath(resolved);
  if (p.split(path.sep).includes('node_modules')) return undefined;
  return fs.statSync(p, { throwIfNoEntry: false })?.isFile() ? p : undefined;
}
