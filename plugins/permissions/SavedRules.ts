import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { z } from 'zod';
import { YoiError, formatZodError } from '../../core/api.js';
import { RuleSchema, type Rule } from './permissionsConfig.js';

/** Rules `allow_always` / `reject_always` save: never `ask`. */
export const SavedRuleSchema = z.object({
  tool: RuleSchema.shape.tool,
  match: RuleSchema.shape.match,
  exact: RuleSchema.shape.exact,
  action: z.enum(['allow', 'deny']),
  /** When and by whom it was saved (shown by `yoi config`). */
  added_at: z.int().min(0).optional(),
  by: z.string().max(200).optional(),
});
export type SavedRule = z.infer<typeof SavedRuleSchema>;

export const MAX_SAVED_RULES = 1000;
/** A bigger file is not a rules file yoi wrote. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export const PermissionsFileSchema = z.object({
  version: z.literal(1),
  rules: z.array(SavedRuleSchema).max(MAX_SAVED_RULES),
});
export type PermissionsFile = z.infer<typeof PermissionsFileSchema>;

const LOCK_OPTIONS = {
  realpath: false,
  stale: 10_000,
  retries: { retries: 100, factor: 1.5, minTimeout: 5, maxTimeout: 100 },
  onCompromised: () => undefined,
} as const;

/** `<project>/.yoi/permissions.json`. */
export function permissionsFile(projectDir: string): string {
  return path.join(projectDir, '.yoi', 'permissions.json');
}

/**
 * The rules saved by `allow_always` / `reject_always` in `.yoi/permissions.json`: pretty JSON
 * validated with zod, mode 0600, written atomically under a lock (pods of one project share
 * it). Trusted only when `.yoi/` and the file are the user's, not links and not writable by
 * others; the file is read where it was opened (checked through the open descriptor). Re-read
 * when it changed on disk, so a rule another pod saved applies here at once. An unusable file
 * gives no rules and a problem to report; it is never overwritten.
 */
export class SavedRules {
  #cached: readonly SavedRule[] = [];
  #stamp = '';
  #problem?: string;
  /** Set until the event loop's next turn: a reply's calls, checked together, share one stat. */
  #fresh = false;

  constructor(readonly file: string) {}

  /** What is wrong with the file (undefined when it is fine or absent). */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** The saved rules as they are on disk now (cheap when unchanged: one stat). */
  rules(): readonly SavedRule[] {
    if (this.#fresh) return this.#cached;
    this.#fresh = true;
    setImmediate(() => (this.#fresh = false)).unref();
    let st: fs.Stats | undefined;
    try {
      // Asked before every tool call: a missing file is an answer, not an exception (whose
      // stack trace cost ~20 µs a call).
      st = fs.lstatSync(this.file, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st) {
      this.#cached = [];
      this.#stamp = '';
      this.#problem = undefined;
      return this.#cached;
    }
    const stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.mode}:${st.uid}`;
    if (stamp === this.#stamp) return this.#cached;
    try {
      this.#cached = this.#read()?.rules ?? [];
      this.#problem = undefined;
    } catch (e) {
      this.#cached = [];
      this.#problem = (e as Error).message;
    }
    this.#stamp = stamp;
    return this.#cached;
  }

  /** Saves a rule (replacing one for the same tool and match); applies at once. Throws YoiErrors. */
  async add(rule: SavedRule): Promise<void> {
    const dir = path.dirname(this.file);
    trustedDir(dir, this.file, true);
    let unlock: () => Promise<void>;
    try {
      unlock = await lockfile.lock(this.file, LOCK_OPTIONS);
    } catch (e) {
      throw this.#error(`cannot take the lock: ${(e as Error).message}`);
    }
    try {
      const current = this.#read() ?? { version: 1 as const, rules: [] };
      const rules = [
        ...current.rules.filter((r) => !(r.tool === rule.tool && r.match === rule.match && r.exact === rule.exact)),
        rule,
      ];
      if (rules.length > MAX_SAVED_RULES) throw this.#error(`it holds ${MAX_SAVED_RULES} rules already; remove some`);
      this.#write({ version: 1, rules });
      this.#stamp = '';
      this.#fresh = false;
    } finally {
      await unlock().catch(() => undefined);
    }
  }

  /** The parsed file, or undefined when there is none. Throws YoiErrors naming the problem. */
  #read(): PermissionsFile | undefined {
    trustedDir(path.dirname(this.file), this.file, false);
    let fd: number;
    try {
      fd = fs.openSync(this.file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      throw this.#error(code === 'ELOOP' ? 'it is a symbolic link' : (e as Error).message);
    }
    let text: string;
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw this.#error('it is not a regular file');
      if (notOurs(st)) throw this.#error('it belongs to another user');
      if ((st.mode & 0o022) !== 0) throw this.#error('others may write it (chmod 600 it)');
      if (st.size > MAX_FILE_BYTES) throw this.#error(`it is larger than ${MAX_FILE_BYTES} bytes`);
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
    if (text.trim() === '') return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw this.#error(`not valid JSON (${(e as Error).message})`);
    }
    const parsed = PermissionsFileSchema.safeParse(json);
    if (!parsed.success) throw this.#error(formatZodError(parsed.error, PermissionsFileSchema));
    return parsed.data;
  }

  /** Temp file created exclusively (never through a planted link), then renamed over the file. */
  #write(content: PermissionsFile): void {
    const tmp = path.join(path.dirname(this.file), `.permissions.json.${randomBytes(6).toString('hex')}.tmp`);
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
    try {
      const fd = fs.openSync(tmp, flags, 0o600);
      try {
        fs.writeFileSync(fd, `${JSON.stringify(content, null, 2)}\n`);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, this.file);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw this.#error(`cannot write it: ${(e as Error).message}`);
    }
  }

  #error(cause: string): YoiError {
    return new YoiError('YOI_ERR_PERMISSIONS_FILE', `the permissions file ${this.file} cannot be used: ${cause}`);
  }
}

/** `.yoi/` must be a real directory of the user's that nobody else can write (created 0700 when asked). */
function trustedDir(dir: string, file: string, create: boolean): void {
  const fail = (cause: string) =>
    new YoiError('YOI_ERR_PERMISSIONS_FILE', `the permissions file ${file} cannot be used: ${cause}`);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw fail((e as Error).message);
    if (!create) return;
    fs.mkdirSync(dir, { mode: 0o700 });
    st = fs.lstatSync(dir);
  }
  if (!st.isDirectory()) throw fail(`${dir} is not a directory`);
  if (notOurs(st)) throw fail(`${dir} belongs to another user`);
  if ((st.mode & 0o022) !== 0) throw fail(`others may write ${dir}`);
}

function notOurs(st: fs.Stats): boolean {
  return typeof process.getuid === 'function' && st.uid !== process.getuid();
}

/** A saved rule as a policy rule. */
export function asRule(saved: SavedRule): Rule {
  return {
    tool: saved.tool,
    ...(saved.match !== undefined ? { match: saved.match } : {}),
    ...(saved.exact !== undefined ? { exact: saved.exact } : {}),
    action: saved.action,
  };
}
