import { MethodError, definePlugin, type PodEvent } from '../../core/api.js';
import { bashSandboxed } from '../bash/bashTool.js';
import { PodTreeService } from '../podtree/podTreePlugin.js';
import { AskLogEntrySchema, type AskLogEntry } from './AskBook.js';
import { AskRelay } from './AskRelay.js';
import { formatDuration } from './describeCall.js';
import { PermissionGate } from './PermissionGate.js';
import { PolicySchema } from './permissionsConfig.js';
import {
  AskReportSchema,
  PERMISSION_LIST,
  PERMISSION_REPLY,
  PERMISSION_REQUEST,
  PERMISSION_RESOLVED,
  PermissionListSchema,
  PermissionReplySchema,
  PermissionRequestSchema,
  PermissionResolvedSchema,
  ResolvedReportSchema,
} from './permissionWire.js';

export const PERMISSIONS = 'yoi:permissions';

/** The raw object of a pod event of a kind the protocol does not define. */
function rawOf(event: PodEvent): unknown {
  return (event as { raw?: unknown }).raw ?? event;
}

/**
 * The permission policy (`yoi:permissions`): every tool call of the pod
 * passes `beforeToolCall` here and is allowed, denied (the model reads why) or asked about.
 * Asks are v2 `permission_request` events (v1 clients get an alert saying how to answer),
 * answered with `permission_reply` (the first valid reply wins; every client gets
 * `permission_resolved`), bounded by a deadline, kept in the session log until resolved (so
 * `--resume` and clients that attach later see them) and relayed up the pod tree, so a child's
 * ask is answered where a person is. `allow_always` / `reject_always` save a rule in
 * `.yoi/permissions.json`.
 */
export const permissionsPlugin = definePlugin({
  name: PERMISSIONS,
  config: { key: 'permissions', schema: PolicySchema },
  apply(api) {
    const policy = api.config;
    const podTree = api.useOptional(PodTreeService);
    let self = '';
    let gate: PermissionGate | undefined;
    const running = (): PermissionGate => {
      if (!gate) throw new MethodError('internal', 'the permission policy is not running yet');
      return gate;
    };

    const requests = api.event({
      name: PERMISSION_REQUEST,
      schema: PermissionRequestSchema,
      v1: (r) =>
        `permission request ${r.id}${r.pod !== self ? ` from pod ${r.pod}` : ''}: ${r.summary} — answer with \`yoi approve ${r.id} --pod ${self}\` or \`yoi deny ${r.id} --pod ${self}\` (${r.default} in ${formatDuration(r.deadline_ms)})`,
    });
    const resolutions = api.event({
      name: PERMISSION_RESOLVED,
      schema: PermissionResolvedSchema,
      v1: (r) => `permission request ${r.id}: ${r.decision} (${r.by})`,
    });
    const listing = api.event({ name: PERMISSION_LIST, schema: PermissionListSchema });

    api.method({
      name: PERMISSION_REPLY,
      params: PermissionReplySchema,
      handle: (params, ctx) => running().reply(params, ctx.client),
    });
    api.method({
      name: PERMISSION_LIST,
      params: null,
      handle: () => listing.reply({ requests: running().book.requests() }),
    });

    api.hooks.podStart.tapPromise(PERMISSIONS, async (pod) => {
      self = pod.podName;
      gate = new PermissionGate({
        plugin: PERMISSIONS,
        policy,
        pod,
        requests,
        resolutions,
        relay: new AskRelay(() => pod.podName, podTree),
        bashSandboxed: () => bashSandboxed(pod.services),
      });
      const entries: AskLogEntry[] = [];
      for (const raw of pod.services.pluginLog.restored(PERMISSIONS)) {
        const entry = AskLogEntrySchema.safeParse(raw);
        if (entry.success) entries.push(entry.data);
      }
      gate.restore(entries);
    });

    api.hooks.beforeToolCall.tapPromise(PERMISSIONS, (call) => (gate ? gate.check(call) : Promise.resolve(undefined)));

    api.hooks.welcome.tap(PERMISSIONS, (welcome) => ({ ...welcome, permission_requests: gate?.book.requests() ?? [] }));
    api.hooks.clientConnected.tapPromise(PERMISSIONS, async (client) => {
      for (const request of gate?.book.requests() ?? []) requests.send(client, request);
    });

    // A child's asks and their ends come as pod events (authenticated by the pod tree's checkPodEvent).
    api.hooks.podEvent.for(PERMISSION_REQUEST).tapPromise(PERMISSIONS, async (event) => {
      const report = AskReportSchema.safeParse(rawOf(event));
      if (!report.success)
        throw new Error(`malformed ${PERMISSION_REQUEST} report: ${report.error.issues[0]?.message ?? 'invalid'}`);
      running().relayed(report.data.request, report.data.pod_name);
    });
    api.hooks.podEvent.for(PERMISSION_RESOLVED).tapPromise(PERMISSIONS, async (event) => {
      const report = ResolvedReportSchema.safeParse(rawOf(event));
      if (!report.success)
        throw new Error(`malformed ${PERMISSION_RESOLVED} report: ${report.error.issues[0]?.message ?? 'invalid'}`);
      running().relayedResolved(report.data.resolved, report.data.pod_name);
    });
    // Not for the model: the asks are the people's business.
    api.hooks.renderPodEvent.for(PERMISSION_REQUEST).tap(PERMISSIONS, () => null);
    api.hooks.renderPodEvent.for(PERMISSION_RESOLVED).tap(PERMISSIONS, () => null);

    api.hooks.afterCompact.tapPromise(PERMISSIONS, async (outcome) => {
      if (outcome.ok) gate?.carryOver();
    });
    api.hooks.podStop.tapPromise(PERMISSIONS, async () => gate?.stop());
  },
});
