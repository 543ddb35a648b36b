import { podClientName } from './podClientName.js';
import { PodClient } from '../../../core/api.js';

/** Every socket operation between pods gives up after this long (as in the original). */
export const POD_SOCKET_TIMEOUT_MS = 5000;

/**
 * A v2 connection to a pod this pod manages, introduced as `pod/<self>` so the child knows the
 * runs it is given come from its parent (it then reports when they end).
 */
export function connectToPod(socketPath: string, self: string): Promise<PodClient> {
  return PodClient.connect({
    socketPath,
    clientName: podClientName(self),
    connectTimeoutMs: POD_SOCKET_TIMEOUT_MS,
    requestTimeoutMs: POD_SOCKET_TIMEOUT_MS,
  });
}
