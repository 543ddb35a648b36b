import { YoiError } from '../errors/YoiError.js';
import type { ServiceKey } from './defineService.js';

/**
 * The services plugins provide to each other in one host. Providers register in `apply()`;
 * users declare what they use there too and read it inside hooks. `check()` (at start) fails
 * for a used service nobody provides, naming both plugins.
 */
export class ServiceRegistry {
  readonly #values = new Map<string, { value: unknown; provider: string }>();
  readonly #uses = new Map<string, { key: ServiceKey<unknown>; users: Set<string>; optional: boolean }>();

  provide<T>(key: ServiceKey<T>, value: T, provider: string): void {
    const existing = this.#values.get(key.id);
    if (existing) {
      throw new YoiError(
        'YOI_ERR_PLUGIN_SERVICE',
        `plugin ${provider} provides service ${key.id}, which plugin ${existing.provider} already provides`,
      );
    }
    this.#values.set(key.id, { value, provider });
  }

  /** Records that `user` needs `key` (checked at start unless optional). */
  use<T>(key: ServiceKey<T>, user: string, optional = false): void {
    const entry = this.#uses.get(key.id) ?? { key, users: new Set<string>(), optional: true };
    entry.users.add(user);
    entry.optional &&= optional;
    this.#uses.set(key.id, entry);
  }

  get<T>(key: ServiceKey<T>): T {
    const entry = this.#values.get(key.id);
    if (!entry) throw new YoiError('YOI_ERR_PLUGIN_SERVICE', `no plugin provides service ${key.id}${describe(key)}`);
    return entry.value as T;
  }

  find<T>(key: ServiceKey<T>): T | undefined {
    return this.#values.get(key.id)?.value as T | undefined;
  }

  /** Throws for the first required service nobody provides. */
  check(): void {
    for (const [id, { key, users, optional }] of this.#uses) {
      if (optional || this.#values.has(id)) continue;
      const who = [...users].join(', ');
      throw new YoiError(
        'YOI_ERR_PLUGIN_SERVICE',
        `plugin ${who} uses service ${id}${describe(key)}, which no plugin provides: add the plugin that provides it, or remove ${who}`,
      );
    }
  }

  /** Provided and used services, for `yoi plugins`. */
  describe(): { provided: Map<string, string[]>; used: Map<string, string[]> } {
    const provided = new Map<string, string[]>();
    for (const [id, { provider }] of this.#values) provided.set(provider, [...(provided.get(provider) ?? []), id]);
    const used = new Map<string, string[]>();
    for (const [id, { users }] of this.#uses) for (const u of users) used.set(u, [...(used.get(u) ?? []), id]);
    return { provided, used };
  }
}

function describe(key: ServiceKey<unknown>): string {
  return key.description ? ` (${key.description})` : '';
}
