import type { ClientInfo } from '../hooks/HookTypes.js';
import type { PluginHost } from '../plugin/PluginHost.js';
import { POD_EVENT_KINDS, PROTOCOL_VERSION, type PodStatus } from '../protocol/index.js';

/** The v2 `welcome` for a client that sent `hello`: every kind the pod resolves, and what plugins add. */
export function welcomeData(
  host: PluginHost,
  pod: { name: string; sessionId: string; status: PodStatus },
  client: ClientInfo,
) {
  const kinds = host.keysOf('resolveSegment');
  const base = {
    protocol_version: PROTOCOL_VERSION,
    pod_name: pod.name,
    session_id: pod.sessionId,
    status: pod.status,
    segment_kinds: kinds,
    pod_event_kinds: [...POD_EVENT_KINDS],
    segments: host.segmentKinds.describe(kinds),
  };
  return host.hooks.welcome.call({ ...base }, client) as typeof base;
}
