import fs from 'node:fs';
import path from 'node:path';
import { canonicalPodUrl, type PodRemoteConfig } from './PodRemotesSchema.js';
import { POD_SOCKET_TIMEOUT_MS } from '../shared/connectToPod.js';
import { podClientName } from '../shared/podClientName.js';
import { defineService, PodClient, ToolRefusal } from '../../../core/api.js';

/** One configured remote pod. */

/** The longest line a pod tool takes from a remote pod (a history with its items, a reply). */
export const REMOTE_MAX_REPLY_BYTES = 32 * 1024 * 1024;

export interface PodRemote {
  /** Its name in the config (what the model calls it). */
  readonly name: string;
  /** Canonical `ws(s)://HOST:PORT`. */
  readonly url: string;
  readonly tokenEnv: string;
  readonly caFile?: string;
}

/** Where ReadPodOutput stopped reading a remote pod (an item count within one of its sessions). */
export interface ReadCursor {
  session_id: string;
  items: number;
}

/**
 * The remote pods of the config (`podtree.remotes`), for the pod tools: found by name or URL, and
 * connected to with the bearer token read from the named environment variable at each connection
 * — the token is never in a tool's arguments, its result or the session log. A URL that is not
 * configured is never dialled.
 */
export class PodRemotes {
  private readonly byName = new Map<string, PodRemote>();
  private readonly cursors = new Map<string, ReadCursor>();

  constructor(
    remotes: Readonly<Record<string, PodRemoteConfig>>,
    private readonly projectDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    for (const [name, r] of Object.entries(remotes)) {
      this.byName.set(name, {
        name,
        url: canonicalPodUrl(r.url)!,
        tokenEnv: r.tokenEnv,
        ...(r.caFile ? { caFile: r.caFile } : {}),
      });
    }
  }

  list(): PodRemote[] {
    return [...this.byName.values()];
  }

  named(name: string): PodRemote | undefined {
    return this.byName.get(name);
  }

  at(url: string): PodRemote | undefined {
    const canonical = canonicalPodUrl(url);
    return canonical === undefined ? undefined : this.list().find((r) => r.url === canonical);
  }

  /** A v2 connection as `pod/<self>`; a missing token or CA file is a refusal, an unreachable pod an error. */
  async connect(remote: PodRemote, self: string): Promise<PodClient> {
    const token = this.env[remote.tokenEnv]?.trim();
    if (!token) {
      throw new ToolRefusal(
        `remote pod \`${remote.name}\` needs a token: the environment variable ${remote.tokenEnv} (podtree.remotes.${remote.name}.tokenEnv) is not set in this pod's environment`,
      );
    }
    let ca: Buffer | undefined;
    if (remote.caFile) {
      const file = path.resolve(this.projectDir, remote.caFile);
      try {
        ca = fs.readFileSync(file);
      } catch (e) {
        throw new ToolRefusal(
          `remote pod \`${remote.name}\`: cannot read its CA file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        );
      }
    }
    return PodClient.connect({
      url: remote.url,
      token,
      clientName: podClientName(self),
      connectTimeoutMs: POD_SOCKET_TIMEOUT_MS,
      requestTimeoutMs: POD_SOCKET_TIMEOUT_MS,
      // Another machine's answer is parsed on this pod's thread: one line of tiny objects as large
      // as a local client takes (256 MiB) ran it out of heap (replayed).
      maxReplyBytes: REMOTE_MAX_REPLY_BYTES,
      ...(ca ? { ca } : {}),
    });
  }

  /** ReadPodOutput's position in a remote pod (kept while this pod runs). */
  cursor(name: string): ReadCursor | undefined {
    return this.cursors.get(name);
  }

  setCursor(name: string, cursor: ReadCursor): void {
    this.cursors.set(name, cursor);
  }
}

export const PodRemotesService = defineService<PodRemotes>(
  'yoi:pod-remotes',
  'remote pods the pod tools may reach by name or URL (podtree.remotes)',
);
