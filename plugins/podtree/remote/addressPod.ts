import { z } from 'zod';
import type { PodRemote, PodRemotes } from './PodRemotes.js';
import { looksLikePodUrl } from './PodRemotesSchema.js';
import { connectToManaged, type ManagedPodConnection } from '../shared/connectToManaged.js';
import type { RemotePods } from '../shared/RemotePods.js';
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

/** What a pod tool's `name` addresses (a remote with the configured remotes it came from). */
export type AddressedPod =
  | { readonly kind: 'spawned'; readonly record: SpawnedPodRecord }
  | { readonly kind: 'remote'; readonly remote: PodRemote; readonly remotes: PodRemotes };

/**
 * Finds the pod a tool names: a URL must be one of `podtree.remotes` (nothing else is dialled);
 * a name is a pod this pod manages first, else a remote of that name.
 */
export function addressPod(name: string, tree: PodTree, remotes: PodRemotes | undefined): AddressedPod {
  if (looksLikePodUrl(name)) {
    const remote = remotes?.at(name);
    if (!remotes || !remote) {
      const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
      throw new ToolRefusal(
        `${shown} is not one of this pod's remotes: only the pods listed under podtree.remotes in its config can be reached by URL`,
      );
    }
    return { kind: 'remote', remote, remotes };
  }
  const record = tree.registry.get(name);
  if (record) return { kind: 'spawned', record };
  const remote = remotes?.named(name);
  if (remotes && remote) return { kind: 'remote', remote, remotes };
  throw new ToolRefusal(`no spawned pod named \`${name}\``);
}

/** A connection to the addressed pod: a configured remote's URL, or the pod this pod manages. */
export function connectAddressed(
  target: AddressedPod,
  self: string,
  remotePods: RemotePods | undefined,
): Promise<ManagedPodConnection> {
  return target.kind === 'remote'
    ? target.remotes.connect(target.remote, self)
    : connectToManaged(target.record, self, remotePods);
}

/** How a tool's result names a remote pod. */
export function remoteLabel(remote: PodRemote): string {
  return `remote pod \`${remote.name}\` (${remote.url})`;
}
