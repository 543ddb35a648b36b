import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { parse } from '@oclif/core/parser';

/**
 * What `@oclif/core` is inside the bundle (scripts/bundle.js points the bare specifier here):
 * the same flag and argument builders and the same parser, and a `Command` that runs a command
 * as oclif's does for yoi's hot commands — `init`, `run`, `catch`, `finally`, and `parse` with
 * the class's flags, args and strictness — without oclif's config, plugin and help machinery,
 * which the real `Command` loads as soon as it is imported. None of these commands declares a
 * deprecation, and yoi taps no `preparse` hook, so nothing of either is left out. Any other use
 * of oclif (help, unknown commands, the other commands) goes through oclif itself.
 */
export { Args, Flags };

interface ParseOptions {
  flags?: Record<string, unknown>;
  baseFlags?: Record<string, unknown>;
  args?: Record<string, unknown>;
  strict?: boolean;
  [key: string]: unknown;
}

export abstract class Command {
  static id: string | undefined;
  static flags: Record<string, unknown> | undefined;
  static baseFlags: Record<string, unknown> | undefined;
  static args: Record<string, unknown> | undefined;
  static strict = true;
  static enableJsonFlag = false;
  id: string | undefined;
  parsed = false;

  constructor(
    public argv: string[],
    public config: { bin: string; scopedEnvVarKey(k: string): string },
  ) {
    this.id = (this.constructor as typeof Command).id;
  }

  abstract run(): Promise<unknown>;

  async _run(): Promise<unknown> {
    let err: unknown;
    try {
      // As oclif's Command: a redirected parent's marker is not passed on.
      delete process.env[this.config.scopedEnvVarKey('REDIRECTED')];
      await this.init();
      return await this.run();
    } catch (error) {
      err = error;
      await this.catch(error as Error);
      return undefined;
    } finally {
      await this.finally(err);
    }
  }

  async init(): Promise<void> {}

  async catch(error: Error): Promise<unknown> {
    throw error;
  }

  async finally(_error: unknown): Promise<void> {}

  async parse(
    options: ParseOptions = this.constructor as unknown as ParseOptions,
    argv: string[] = this.argv,
  ): Promise<any> {
    // oclif's aggregateFlags, for a command without `enableJsonFlag`: base flags, then its own.
    const flags = { ...options.baseFlags, ...options.flags };
    const results = await parse(argv, { context: this, ...options, flags } as never);
    this.parsed = true;
    return results;
  }
}
