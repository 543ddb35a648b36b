import { z } from 'zod';
import { PodNameSchema } from '../../../core/api.js';

/** `ws://HOST:PORT` or `wss://HOST:PORT` as the pod tools compare it (scheme and host lower-cased, default port dropped). */
export function canonicalPodUrl(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return undefined;
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) return undefined;
  return `${u.protocol}//${u.host}`;
}

/** Whether the pod tools' `name` argument is meant as a URL (then it must be a configured remote's). */
export function looksLikePodUrl(name: string): boolean {
  return /^wss?:\/\//i.test(name);
}

/** `podtree.remotes.<name>`: a pod on another machine (or user) the pod tools may address. */
export const PodRemoteSchema = z.strictObject({
  url: z
    .string()
    .refine(
      (u) => canonicalPodUrl(u) !== undefined,
      'a ws://HOST:PORT or wss://HOST:PORT URL, without credentials, path or query',
    )
    .describe("the remote pod's listener (`yoi pod start --listen`)"),
  tokenEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
    .describe('the environment variable holding its bearer token (never the token itself)'),
  caFile: z
    .string()
    .min(1)
    .optional()
    .describe('CA certificate (PEM) to trust for a wss:// URL; relative to the project'),
});

/**
 * The `podtree` config section (plugin `yoi:pod-remotes`): the pods beyond this machine's pod tree
 * that the pod tools may reach by name or URL. Nothing else is reachable by URL.
 */
export const PodTreeConfigSchema = z
  .strictObject({
    remotes: z.record(PodNameSchema, PodRemoteSchema).default({}),
  })
  .optional();

export type PodRemoteConfig = z.output<typeof PodRemoteSchema>;
