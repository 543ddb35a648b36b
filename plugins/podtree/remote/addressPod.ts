import { z } from 'zod';
import type { PodRemote, PodRemotes } from './PodRemotes.js';
import { looksLikePodUrl } from './PodRemotesSchema.js';
import type { PodTree } from '../tree/PodTree.js';
import type { SpawnedPodRecord } from '../tree/SpawnedRegistry.js';
import { PodNameSchema, ToolRefusal } from '../../../core/api.js';

/** The pod tools' `name`: a pod name, or the `ws(s)://` URL of a remote of the config. */
export const PodAddressSchema = z
  .string()
  .max(512)
  .superRefine((name, ctx) => {
    if (looksLikePodUrl(name)) return;
    const checked = PodNameSchema.safeParse(name);
    if (!checked.success)
      ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'not a pod name' });
  });

/** What a pod tool's `name` addresses. */
export type AddressedPod =
  | { readonly kind: 'spawned'; readonly record: SpawnedPodRecord }
  | { readonly kind: 'remote'; readonly remote: PodRemote };

/**
 * Finds the pod a tool names: a URL must be one of `podtree.remotes` (nothing else is dialled);
 * a name is a pod this pod manages first, else a remote of that name.
 */
export function addressPod(name: string, tree: PodTree, remotes: PodRemotes | undefined): AddressedPod {
  if (looksLikePodUrl(name)) {
    const remote = remotes?.at(name);
    if (!remote) {
      const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
      throw new ToolRefusal(
        `${shown} is not one of this pod's remotes: only the pods listed under podtree.remotes in its config can be reached by URL`,
      );
    }
    return { kind: 'remote', remote };
  }
  const record = tree.registry.get(name);
  if (record) return { kind: 'spawned', record };
  const remote = remotes?.named(name);
  if (remote) return { kind: 'remote', remote };
  throw new ToolRefusal(`no spawned pod named \`${name}\``);
}

/** How a tool's result names a remote pod. */
export function remoteLabel(remote: PodRemote): string {
  return `remote pod \`${remote.name}\` (${remote.url})`;
}
