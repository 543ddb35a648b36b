import { MethodError, PodRequestError, UnknownPodEvent } from '../../core/api.js';
import type { PodTree } from '../podtree/tree/PodTree.js';
import { connectToPod } from '../podtree/shared/connectToPod.js';
import {
  PERMISSION_REPLY,
  PERMISSION_REQUEST,
  PERMISSION_RESOLVED,
  type PermissionReply,
  type PermissionRequest,
  type PermissionResolved,
} from './permissionWire.js';

/**
 * The permission protocol along the pod tree: a pod's asks and their resolutions go up to its
 * parent as pod events (through the reporter's acknowledged outbox), and a reply given at a
 * parent goes down to the child as a `permission_reply` on the child's socket, sent as
 * `pod/<parent>`. Without the pod tree (or for a top-level pod) nothing goes anywhere.
 */
export class AskRelay {
  constructor(
    private readonly self: () => string,
    private readonly tree: () => PodTree | undefined,
  ) {}

  reportRequest(request: PermissionRequest): void {
    this.tree()?.reportUpward(new UnknownPodEvent({ kind: PERMISSION_REQUEST, pod_name: this.self(), request }));
  }

  reportResolved(resolved: PermissionResolved): void {
    this.tree()?.reportUpward(new UnknownPodEvent({ kind: PERMISSION_RESOLVED, pod_name: this.self(), resolved }));
  }

  /** Answers a child's ask on the child's socket; the child's refusal becomes this reply's error. */
  async reply(child: string, reply: PermissionReply): Promise<void> {
    const record = this.tree()?.registry.get(child);
    if (!record)
      throw new MethodError(
        'internal',
        `cannot answer permission request ${reply.id}: pod ${child} is not a pod this pod manages any more`,
      );
    let client;
    try {
      client = await connectToPod(record.socket_path, this.self());
    } catch (e) {
      throw new MethodError(
        'internal',
        `cannot answer permission request ${reply.id}: pod ${child} cannot be reached: ${(e as Error).message}`,
      );
    }
    try {
      await client.requestExtension(PERMISSION_REPLY, reply);
    } catch (e) {
      if (e instanceof PodRequestError) throw new MethodError(e.podCode, e.message.replace(/^[a-z_]+: /, ''));
      throw new MethodError(
        'internal',
        `pod ${child} did not take the answer to permission request ${reply.id}: ${(e as Error).message}`,
      );
    } finally {
      await client.close();
    }
  }
}
