import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PodTreeService } from './podTreePlugin.js';
import { connectToPod } from './shared/connectToPod.js';
import { recordChild } from './shared/recordChild.js';
import { formatRules } from './shared/formatRules.js';
import { RemotePodsService } from './shared/RemotePods.js';
import { spawnRemote } from './spawnRemote.js';
import { requestShutdown } from './shared/requestShutdown.js';
import { ChildStartError, startChildPod } from './startChildPod.js';
import type { LockRule } from './tree/ScopeLockSchema.js';
import {
  canonicalPath,
  checkSocketPath,
  definePlugin,
  isSocketLive,
  isYoiError,
  PodNameSchema,
  podPaths,
  refusalsAsResults,
  type Tool,
  type ToolOutput,
  ToolRefusal,
  validatePodName,
} from '../../core/api.js';

export const SPAWN_POD = 'yoi:spawn-pod';

export const PodScopeRuleSchema = z.object({
  target: z.string().min(1).describe('A path: absolute, or relative to the working directory.'),
  permission: z.enum(['read', 'write']),
  recursive: z
    .boolean()
    .default(true)
    .describe('Everything below target (default), or only target and its direct children.'),
});

export const SpawnPodInputSchema = z.object({
  name: PodNameSchema.describe(
    'A unique name for the new pod: 1 to 64 letters, digits, ".", "_", "-", starting with a letter or digit.',
  ),
  task: z.string().min(1).describe('The first message the new pod works on.'),
  scope: z
    .array(PodScopeRuleSchema)
    .min(1)
    .describe(
      'What the new pod may read and write; every rule must lie within your own scope. Regions you delegate for writing are read-only for you while the pod holds them.',
    ),
  instruction: z.string().optional().describe("Added to the new pod's system prompt."),
  host: PodNameSchema.optional().describe(
    'Run the new pod on this host of the cluster (`yoi host` there); default: this machine.',
  ),
});

/**
 * `SpawnPod`: starts a child pod with a delegated part of this pod's scope (reserved in
 * scope.lock first, so a conflict is refused before anything starts), sends it its task with
 * a confirmed `run` and reports the delegation upward. It is in spawned_pods.json from before it
 * starts until it is given up.
 */
export const spawnPodTool = definePlugin({
  name: SPAWN_POD,
  apply(api) {
    const podTree = api.use(PodTreeService);
    const remotePods = api.useOptional(RemotePodsService);
    api.hooks.tools.for('SpawnPod').tap(SPAWN_POD, (): Tool<z.infer<typeof SpawnPodInputSchema>> => ({
      name: 'SpawnPod',
      description:
        'Starts a new pod (an agent in its own process) that works on `task` within `scope`, a part of your own scope. ' +
        'It tells you when it finishes a turn, fails or stops; use ReadPodOutput to read its answers, SendToPod to give it ' +
        'more work, StopPod when it is done and ListPods to check on your pods.',
      input: SpawnPodInputSchema,
      execute: (input, ctx) =>
        refusalsAsResults(async (): Promise<ToolOutput> => {
          const tree = podTree();
          const { name } = input;
          const bad = validatePodName(name);
          if (bad) throw new ToolRefusal(bad);
          if (name === ctx.podName) throw new ToolRefusal(`a pod cannot spawn itself (\`${name}\` is this pod's name)`);
          if (tree.registry.get(name)) throw new ToolRefusal(`pod name \`${name}\` is already registered`);
          const rules: LockRule[] = input.scope.map((r) => {
            const target = canonicalPath(r.target, ctx.cwd);
            if (target === undefined) throw new ToolRefusal(`the scope target ${r.target} cannot be resolved`);
            return { target, permission: r.permission, recursive: r.recursive };
          });
          const remote = remotePods();
          if (input.host !== undefined && input.host !== remote?.hostName) {
            if (!remote)
              throw new ToolRefusal(
                `host \`${input.host}\` is another machine: placing pods there needs cluster mode (a \`cluster\` section in the config)`,
              );
            return spawnRemote(remote, tree, { ...input, host: input.host }, rules, ctx);
          }
          const paths = podPaths(name, { YOI_RUNTIME_DIR: tree.runtimeBase });
          const tooLong = checkSocketPath(paths.socket);
          if (tooLong) throw new ToolRefusal(tooLong);
          if (await isSocketLive(paths.socket)) throw new ToolRefusal(`a pod named \`${name}\` is already running`);

          try {
            await tree.reserve(name, paths.socket, rules);
          } catch (e) {
            if (isYoiError(e)) throw new ToolRefusal(e.message);
            throw e;
          }
          const config = ctx.services.config;
          // Recorded before it starts: its first report may come before SpawnPod returns, and a
          // restart of this pod after a kill mid-spawn finds it (alive, or reclaimed by ListPods).
          const secret = randomBytes(32).toString('hex');
          const record = {
            pod_name: name,
            socket_path: paths.socket,
            scope_delegated: rules,
            callback_address: tree.socket,
            spawned_at: Date.now(),
            log_path: paths.log,
            secret,
          };
          try {
            recordChild(tree, record, 'not started');
          } catch (e) {
            await tree.release(name).catch(() => undefined); // not recorded: its scope goes back
            throw e;
          }
          const forgetChild = () => tree.forget(name).catch(() => undefined);
          try {
            await startChildPod({
              name,
              paths,
              callback: tree.socket,
              cwd: config.cwd,
              env: process.env,
              secret,
              configPath: config.configPath,
              configDigest: config.configDigest,
              instruction: input.instruction,
            });
          } catch (e) {
            await forgetChild();
            removeChildDir(paths.dir, paths.spawnedPods); // a registry there belongs to a pod of that name
            if (e instanceof ChildStartError)
              return { summary: e.message, content: e.logTail || undefined, is_error: true };
            throw e;
          }

          try {
            const client = await connectToPod(paths.socket, ctx.podName);
            try {
              await client.request({ method: 'run', params: { input: [{ kind: 'text', content: input.task }] } });
            } finally {
              // Not awaited: the child answers the close only once its task's first work yields
              // (~15 ms in a fresh pod), and the spawner has its answer with the ack. Bounded: the
              // client destroys the socket after 1 s.
              void client.close();
            }
          } catch (e) {
            // Spawned but without its task: stop it, so nothing runs that nobody asked for.
            await requestShutdown(paths.socket, ctx.podName, 2000);
            await forgetChild();
            throw new ToolRefusal(
              `spawned pod \`${name}\` did not accept its task (${(e as Error).message}); it was stopped`,
            );
          }

          tree.reportUpward({
            kind: 'scope_sub_delegated',
            parent_pod: ctx.podName,
            sub_pod: name,
            sub_socket: paths.socket,
            scope: rules,
            secret,
          });
          return {
            summary: `spawned pod \`${name}\` listening on ${paths.socket}`,
            content: `Delegated scope: ${formatRules(rules)}. The pod is working on its task; you get a notification when it finishes a turn.`,
          };
        }),
    }));
  },
});

/** Removes a failed child's directory, keeping a registry a pod of that name left there. */
function removeChildDir(dir: string, keep: string): void {
  if (!fs.existsSync(keep)) {
    fs.rmSync(dir, { recursive: true, force: true });
    return;
  }
  for (const entry of fs.readdirSync(dir))
    if (path.join(dir, entry) !== keep) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
}
