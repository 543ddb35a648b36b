import fs from 'node:fs';
import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import type { PodStatus } from '../protocol/index.js';
import { AtomicFileWriter } from './AtomicFileWriter.js';
import { ensurePrivateDir, isSocketLive, writeFileAtomic, type PodStatusFile } from './podFiles.js';
import type { PodPaths } from './runtimePaths.js';
import { checkOwnSocketOrFile } from './trustedPath.js';

/** A pod's runtime directory as plugins see it (`services.runtime`). */
export interface RuntimeDir {
  /** The runtime base (`$YOI_RUNTIME_DIR`…): every pod's directory and the machine-wide files. */
  readonly base: string;
  /** This pod's directory. */
  readonly dir: string;
  readonly socket: string;
  /** Keeps `file` (in this pod's directory) when the pod stops; the rest of the directory is removed. */
  keep(file: string): void;
}

/** How long status.json waits after a transition: a run's `running` and `idle` within it are one write. */
export const STATUS_SETTLE_MS = 50;

/**
 * The files a pod keeps under its runtime directory (ARCHITECTURE §4.1): the 0700 directory,
 * the socket (a stale one is replaced, a live one refuses the start), `pid` and `status.json`
 * (written synchronously once when listening, then asynchronously, `STATUS_SETTLE_MS` after a
 * transition, with the state of that moment: it may trail a transition by that long, never
 * miss the state the pod settles in; back-to-back runs do not cost four file calls each), and
 * the removal of it all at a clean stop except what plugins keep.
 */
export class RuntimeFiles {
  readonly handle: RuntimeDir;
  readonly #kept = new Set<string>();
  #writer?: AtomicFileWriter;
  #settling?: NodeJS.Timeout;
  #written = '';
  readonly #startedAt = Date.now();

  constructor(
    readonly paths: PodPaths,
    private readonly status: () => PodStatus,
    private readonly sessionId: () => string,
  ) {
    const kept = this.#kept;
    this.handle = Object.freeze({
      base: paths.base,
      dir: paths.dir,
      socket: paths.socket,
      keep: (file: string) => void kept.add(path.resolve(file)),
    });
  }

  /**
   * Creates the directories (refusing any that is not the user's); refuses a live socket of the
   * same name and removes a stale one — someone else's socket in its place is refused, never
   * replaced (trustedPath.ts).
   */
  async prepare(name: string): Promise<void> {
    ensurePrivateDir(this.paths.base);
    ensurePrivateDir(this.paths.dir);
    if (!checkOwnSocketOrFile(this.paths.socket)) return;
    if (await isSocketLive(this.paths.socket)) {
      throw new YoiError('YOI_ERR_POD_RUNNING', `pod ${name} is already running (socket ${this.paths.socket})`);
    }
    fs.rmSync(this.paths.socket, { force: true }); // stale: nobody listens
  }

  /** The pod accepts connections: `pid` and the first `status.json`. */
  listening(): void {
    writeFileAtomic(this.paths.pid, `${process.pid}\n`);
    this.#written = this.#statusText();
    writeFileAtomic(this.paths.status, this.#written);
    this.#writer = new AtomicFileWriter(this.paths.status);
  }

  /** Rewrites status.json soon, without waiting on the disk. */
  statusChanged(): void {
    if (this.#writer === undefined || this.#settling !== undefined) return;
    this.#settling = setTimeout(() => {
      this.#settling = undefined;
      const text = this.#statusText();
      if (text === this.#written) return;
      this.#written = text;
      this.#writer?.write(text);
    }, STATUS_SETTLE_MS).unref();
  }

  /** After a clean stop: waits for the last status write, removes the directory except kept files. */
  async remove(): Promise<void> {
    clearTimeout(this.#settling);
    await this.#writer?.drain();
    const { dir, socket } = this.paths;
    const keep = [...this.#kept].filter((f) => path.dirname(f) === dir && fs.existsSync(f));
    if (keep.length === 0) fs.rmSync(dir, { recursive: true, force: true });
    else
      for (const entry of fs.readdirSync(dir))
        if (!keep.includes(path.join(dir, entry))) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
    if (socket !== path.join(dir, 'sock')) fs.rmSync(socket, { force: true });
  }

  #statusText(): string {
    const file: PodStatusFile = {
      pod_name: path.basename(this.paths.dir),
      state: this.status(),
      session_id: this.sessionId(),
      pid: process.pid,
      socket: this.paths.socket,
      started_at: this.#startedAt,
    };
    return `${JSON.stringify(file, null, 2)}\n`;
  }
}
