/**
 * A typed key for a service one plugin provides and others use (`api.provide(key, value)`,
 * `api.use(key)`), in the spirit of Fastify decorators: the dependency is explicit, checked
 * when the pod starts, and typed on both sides.
 */
export interface ServiceKey<T> {
  /** Unique id, prefixed like plugin names (`yoi:pod-tree`, `acme:jira-client`). */
  readonly id: string;
  /** One line for `yoi plugins` and error messages. */
  readonly description?: string;
  /** Type carrier only; never set. */
  readonly __type?: T;
}

/** Declares a service key. Export it from the providing plugin's module so users can import it. */
export function defineService<T>(id: string, description?: string): ServiceKey<T> {
  if (typeof id !== 'string' || id.trim() === '') throw new TypeError('defineService needs a non-empty id');
  return Object.freeze({ id, ...(description ? { description } : {}) });
}
