import path from 'node:path';
import { z } from 'zod';
import { YoiError } from '../errors/YoiError.js';
import { formatZodError } from '../errors/formatZodError.js';
import { writeFileAtomic } from '../pod/podFiles.js';
import { checkOwnDir, ensureOwnDir, readOwnFile, type TrustLabel } from '../pod/trustedPath.js';
import { userConfigDir } from './userDirs.js';

/** Configs the store remembers; trusting one more forgets the one trusted longest ago. */
export const MAX_TRUSTED = 1000;

/** One config content the user trusted with `yoi trust`. */
export const TrustEntrySchema = z.object({
  /** The config file, absolute. */
  path: z.string().min(1),
  /** Its digest (configSources.ts) when the user trusted it. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  /** The files that digest covers. */
  files: z.array(z.string()).max(256),
  /** When (ms since the epoch). */
  trusted_at: z.int(),
});
export type TrustEntry = z.infer<typeof TrustEntrySchema>;

export const TrustFileSchema = z.object({ version: z.literal(1), configs: z.array(TrustEntrySchema) });
export type TrustFile = z.infer<typeof TrustFileSchema>;

const DIR: TrustLabel = {
  what: 'yoi settings directory',
  fix: 'remove it, or set XDG_CONFIG_HOME to a directory you own',
};
const FILE: TrustLabel = { what: 'trust store', fix: 'remove it and run yoi trust again' };

/**
 * The user's trust store, `$XDG_CONFIG_HOME/yoi/trust.json` (else `~/.config/yoi/trust.json`):
 * which content of which config the user let spawned pods load (ARCHITECTURE §13: a project's
 * code-executing config must be trusted before children load a changed one). One entry per
 * config file (trusting new content replaces the old); 0600 in a 0700 directory, both the
 * user's own, or it is not used at all.
 */
export class TrustStore {
  readonly file: string;

  constructor(readonly env: NodeJS.ProcessEnv = process.env) {
    this.file = path.join(userConfigDir(env), 'trust.json');
  }

  /** The entries; none when there is no store yet. */
  read(): TrustFile {
    if (!checkOwnDir(path.dirname(this.file), DIR)) return { version: 1, configs: [] };
    const text = readOwnFile(this.file, FILE);
    if (text === undefined) return { version: 1, configs: [] };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw this.error(`not valid JSON (${(e as Error).message})`);
    }
    const parsed = TrustFileSchema.safeParse(json);
    if (!parsed.success) throw this.error(formatZodError(parsed.error, TrustFileSchema));
    return parsed.data;
  }

  /** Whether the user trusted exactly this content of `configPath`. */
  isTrusted(configPath: string, digest: string): boolean {
    return this.read().configs.some((c) => c.path === configPath && c.digest === digest);
  }

  /** Records (or replaces) the entry for its config file. */
  trust(entry: TrustEntry): void {
    const parsed = TrustEntrySchema.parse(entry);
    // A damaged store, or one that is not the user's, is never overwritten: read() says why.
    const current = this.read();
    const configs = [...current.configs.filter((c) => c.path !== parsed.path), parsed].slice(-MAX_TRUSTED);
    ensureOwnDir(path.dirname(this.file), DIR);
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, configs }, null, 2)}\n`);
  }

  private error(cause: string): YoiError {
    return new YoiError(
      'YOI_ERR_TRUST_STORE',
      `the trust store ${this.file} cannot be used: ${cause}; fix or remove it, then run yoi trust again`,
    );
  }
}
