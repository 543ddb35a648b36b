import { z } from 'zod';
import { formatZodError } from '../../../core/api.js';

/** An environment variable's name (where an API key is read from). */
export const EnvNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name' });

/** An http(s) URL; a trailing `/` is dropped (the SDKs append paths). */
export const BaseUrlSchema = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
  .transform((u) => u.replace(/\/+$/, ''));

/** Settings every SDK-backed provider takes. */
export const CommonModelSettings = {
  /** Extra HTTP headers sent with every request. */
  headers: z.record(z.string(), z.string()).optional(),
  /** Retries of a failed request (429, 5xx, connection failures), with backoff honouring `retry-after`. */
  maxRetries: z.int().min(0).max(10).default(2),
  /** Most output tokens per request. */
  maxTokens: z.int().min(1).optional(),
};

/**
 * Parses the config's `model` section with a provider's schema; a problem is one line naming
 * the key (`model.baseURL: expected an http(s) URL`).
 */
export function parseModelSettings<S extends z.ZodType>(schema: S, model: unknown): z.output<S> {
  const parsed = schema.safeParse(model);
  if (!parsed.success) throw new Error(formatZodError(parsed.error, schema, ['model']));
  return parsed.data;
}

/**
 * The API key from `env[name]`; a missing or empty variable stops the pod at start with a
 * message saying what to set, instead of failing at the first request.
 */
export function readApiKey(env: NodeJS.ProcessEnv, name: string, explicit: boolean): string {
  const key = env[name]?.trim();
  if (key) return key;
  throw new Error(
    explicit
      ? `the API key variable ${name} (model.apiKeyEnv) is not set`
      : `the API key variable ${name} is not set: export it, or name another variable in model.apiKeyEnv`,
  );
}
