import type { AlertLevel } from '../protocol/index.js';

/**
 * What the running pod offers to plugins inside hooks. Members are added as the pod grows
 * (scope engine, runtime paths); plugins must tolerate absent optional members.
 */
export interface PodServices {
  /** Sends an alert to every client (and the replay buffer); the message names its plugin. */
  alert(level: AlertLevel, message: string): void;
}
