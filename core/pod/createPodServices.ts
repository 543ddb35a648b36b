import type { ResolvedConfig } from '../config/resolveConfig.js';
import type { PodServices } from '../hooks/PodServices.js';
import type { ServiceKey } from '../plugin/defineService.js';
import type { AlertLevel } from '../protocol/index.js';
import type { Scope } from '../scope/Scope.js';
import type { Transport } from '../server/Transport.js';
import type { SessionLog } from '../session/SessionLog.js';
import { FileActivity } from '../tools/FileActivity.js';
import type { RuntimeDir } from './RuntimeFiles.js';

/** What the pod lends its plugins' services; late parts (the session, the server) are read when used. */
export interface PodServiceParts {
  scope: Scope;
  config: ResolvedConfig;
  runtime: RuntimeDir;
  services: { get<T>(key: ServiceKey<T>): T; find<T>(key: ServiceKey<T>): T | undefined };
  alert(level: AlertLevel, message: string): void;
  note(message: string): void;
  serveClient(transport: Transport): void;
  session(): SessionLog;
  restored(plugin: string): readonly unknown[];
}

/** `services` of every hook's PodInfo: the pod's own services and those plugins provide. */
export function createPodServices(parts: PodServiceParts): PodServices {
  return {
    alert: parts.alert,
    note: parts.note,
    scope: parts.scope,
    config: parts.config,
    files: new FileActivity(),
    runtime: parts.runtime,
    serveClient: parts.serveClient,
    get: (key) => parts.services.get(key),
    find: (key) => parts.services.find(key),
    pluginLog: {
      append: (plugin, data) => parts.session().append({ type: 'plugin', ts: Date.now(), plugin, data }),
      restored: parts.restored,
    },
  };
}
