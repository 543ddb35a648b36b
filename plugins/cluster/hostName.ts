import os from 'node:os';
import type { ClusterConfig } from './ClusterConfigSchema.js';
import { validatePodName } from '../../core/api.js';

/** The environment variable `yoi host` hands the pods it starts: the host they run on. */
export const HOST_NAME_ENV = 'YOI_HOST_NAME';

/**
 * This machine's name in the cluster: `cluster.host`, else `$YOI_HOST_NAME` (set by `yoi host`
 * for the pods it places), else the OS host name with anything outside the pod-name rule
 * replaced by `-` (names become KV keys and subject tokens).
 */
export function clusterHostName(config: ClusterConfig | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (config?.host) return config.host;
  const fromEnv = env[HOST_NAME_ENV];
  if (fromEnv && validatePodName(fromEnv) === undefined) return fromEnv;
  const cleaned = os
    .hostname()
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return cleaned || 'localhost';
}
