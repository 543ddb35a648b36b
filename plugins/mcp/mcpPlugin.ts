import path from 'node:path';
import { z } from 'zod';
import { AtomicFileWriter, definePlugin, STAGE_EARLY, writeFileAtomic } from '../../core/api.js';
import { FileRefLimit } from '../resolvers/shared/fileRefLimit.js';
import { McpConfigSchema } from './McpConfigSchema.js';
import { McpManager } from './McpManager.js';
import { withLaunchServers } from './launchServers.js';
import { completePrompts, resolvePrompt } from './mcpPromptWorkflow.js';
import { McpResourceKind, completeResources, resolveResource } from './mcpResourceSegment.js';

const NAME = 'yoi:mcp';

/** The file in a pod's runtime directory where it describes its MCP servers (for `yoi mcp list`). */
export const MCP_STATE_FILE = 'mcp.json';

declare module '../../core/config/YoiConfigSchema.js' {
  interface PluginConfigSections {
    /** MCP servers whose tools, resources and prompts the pod offers. */
    mcp?: z.input<typeof McpConfigSchema>;
  }
}

/**
 * MCP servers as yoi plugins: every server's tools become pod tools `mcp__<server>__<tool>`,
 * its resources `mcp_resource{server, uri}` segments (`&server:uri`), its prompts
 * `/<server>:<prompt>` workflows. Servers start when the pod has started listening (never
 * delaying it) and stop with the pod. The live state goes to `<pod runtime dir>/mcp.json`
 * (0600, atomic) on every change, for `yoi mcp list`.
 *
 * Servers come from the `mcp` config section (`{ servers: { <name>: {command, args?, env?, cwd?}
 * | {url, headers?, headersEnv?} } }`, see McpConfigSchema) and from the options of `mcp({...})`
 * (a server named in both: the options' wins), and from the launch (`launch.mcp.servers`, see
 * launchServers: an editor's servers through `yoi acp`; a configured name wins).
 */
export const mcp = definePlugin({
  name: NAME,
  options: McpConfigSchema,
  config: { key: 'mcp', schema: McpConfigSchema },
  apply(api, options) {
    const config = { servers: { ...api.config.servers, ...options.servers } };
    const limit = api.useOptional(FileRefLimit);
    let manager: McpManager | undefined;
    let writer: AtomicFileWriter | undefined;

    api.hooks.podStart.tapPromise(NAME, async (pod) => {
      const file = path.join(pod.services.runtime.dir, MCP_STATE_FILE);
      // Servers for this launch only (an editor's, through `yoi acp`); configured names win.
      const launched = withLaunchServers(config.servers, pod.launch);
      for (const problem of launched.problems) pod.services.alert('warn', problem);
      const m = new McpManager(
        { servers: launched.servers },
        {
          podName: pod.podName,
          projectDir: pod.projectDir,
          cwd: pod.cwd,
          env: process.env,
          alert: (message) => pod.services.alert('warn', message),
        },
      );
      manager = m;
      writeFileAtomic(file, `${JSON.stringify(m.describe(), null, 2)}\n`);
      const w = new AtomicFileWriter(file);
      writer = w;
      m.onChange(() => w.write(`${JSON.stringify(m.describe(), null, 2)}\n`));
      // After the pod's `listening` (a macrotask later): no server, not even loading the SDK, delays it.
      setImmediate(() => void m.start());
    });

    api.hooks.listTools.tap(NAME, (tools) => (manager ? [...tools, ...manager.podTools()] : tools));

    api.hooks.podStop.tapPromise(NAME, async () => {
      await manager?.close();
      await writer?.drain();
    });

    const resources = api.segmentKind(McpResourceKind);
    resources.resolve((segment, ctx) => resolveResource(manager, segment, ctx, limit()?.maxBytes));
    resources.complete(async (items, ctx) => completeResources(manager, items, ctx));

    // In front of `yoi:workflow`: `/<server>:<prompt>` is ours, every other slug is declined.
    api.hooks.resolveSegment
      .for('workflow_invoke')
      .tapPromise({ name: NAME, stage: STAGE_EARLY }, (segment, ctx) =>
        resolvePrompt(manager, segment as Record<string, unknown>, ctx),
      );
    api.hooks.completeSegment
      .for('workflow_invoke')
      .tapPromise({ name: NAME, stage: STAGE_EARLY }, async (items, ctx) => completePrompts(manager, items, ctx));
  },
});
