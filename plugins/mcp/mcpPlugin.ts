import { definePlugin } from '../../core/plugin/definePlugin.js';
import { STAGE_EARLY } from '../../core/plugin/stages.js';
import { AtomicFileWriter, writeFileAtomic } from '../../core/pod/podFiles.js';
import { runtimeBase } from '../../core/pod/runtimePaths.js';
import type { PodInfo } from '../../core/hooks/HookTypes.js';
import { McpConfigSchema } from './McpConfigSchema.js';
import { McpManager } from './McpManager.js';
import { mcpStatePath } from './mcpStatePath.js';
import { completePrompts, resolvePrompt } from './mcpPromptWorkflow.js';
import { RESOURCE_KIND, completeResources, resolveResource } from './mcpResourceSegment.js';

const NAME = 'yoi:mcp';

/** The pod's environment and runtime base (from its pod tree, which knows the env the pod started with). */
function podEnvironment(pod: PodInfo): { env: NodeJS.ProcessEnv; base: string } {
  const tree = pod.services.podTree;
  return tree ? { env: tree.env, base: tree.runtimeBase } : { env: process.env, base: runtimeBase(process.env) };
}

/**
 * MCP servers as yoi plugins: every server's tools become pod tools `mcp__<server>__<tool>`,
 * its resources `mcp_resource{server, uri}` segments, its prompts `/<server>:<prompt>`
 * workflows. Servers start when the pod has started listening (never delaying it) and stop with
 * the pod. The live state goes to `<pod runtime dir>/mcp.json` (0600, atomic) on every change,
 * for `yoi mcp list`.
 *
 * Options are the `mcp` config section (`{ servers: { <name>: {command, args?, env?, cwd?} |
 * {url, headers?, headersEnv?} } }`, see McpConfigSchema).
 */
export const mcp = definePlugin({
  name: NAME,
  options: McpConfigSchema,
  apply(host, config) {
    let manager: McpManager | undefined;
    let writer: AtomicFileWriter | undefined;

    host.hooks.podStart.tapPromise(NAME, async (pod) => {
      const { env, base } = podEnvironment(pod);
      const file = mcpStatePath(base, pod.podName);
      const m = new McpManager(config, {
        podName: pod.podName, projectDir: pod.projectDir, cwd: pod.cwd, env,
        alert: (message) => pod.services.alert('warn', message),
      });
      manager = m;
      writeFileAtomic(file, `${JSON.stringify(m.describe(), null, 2)}\n`);
      const w = new AtomicFileWriter(file);
      writer = w;
      m.onChange(() => w.write(`${JSON.stringify(m.describe(), null, 2)}\n`));
      // After the pod's `listening` (a macrotask later): no server, not even loading the SDK, delays it.
      setImmediate(() => void m.start());
    });

    host.hooks.listTools.tap(NAME, (tools) => (manager ? [...tools, ...manager.podTools()] : tools));

    host.hooks.podStop.tapPromise(NAME, async () => {
      await manager?.close();
      await writer?.drain();
    });

    host.hooks.resolveSegment.for(RESOURCE_KIND).tapPromise(NAME, (segment, ctx) => resolveResource(manager, segment as Record<string, unknown>, ctx));
    host.hooks.completeSegment.for(RESOURCE_KIND).tapPromise(NAME, async (items, ctx) => completeResources(manager, items, ctx));

    // In front of `yoi:workflow`: `/<server>:<prompt>` is ours, every other slug is declined.
    host.hooks.resolveSegment.for('workflow_invoke').tapPromise({ name: NAME, stage: STAGE_EARLY }, (segment, ctx) => resolvePrompt(manager, segment as Record<string, unknown>, ctx));
    host.hooks.completeSegment.for('workflow_invoke').tapPromise({ name: NAME, stage: STAGE_EARLY }, async (items, ctx) => completePrompts(manager, items, ctx));
  },
});
