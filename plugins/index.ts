import { echoProvider } from './providers/echoProvider.js';
import { scriptedProvider } from './providers/scriptedProvider.js';
import { openaiCompatibleProvider } from './providers/openaiCompatibleProvider.js';
import { anthropicProvider } from './providers/anthropicProvider.js';
import { readTool } from './tools/readTool.js';
import { writeTool } from './tools/writeTool.js';
import { editTool } from './tools/editTool.js';
import { globTool } from './tools/globTool.js';
import { grepTool } from './tools/grepTool.js';
import { bashTool } from './bash/bashTool.js';
import { staleTempFiles } from './tools/staleTempFiles.js';
import { textResolver } from './resolvers/textResolver.js';
import { pasteResolver } from './resolvers/pasteResolver.js';
import { fileRefResolver } from './resolvers/fileRef/fileRefResolver.js';
import { knowledgeResolver } from './resolvers/knowledgeResolver.js';
import { workflowResolver } from './resolvers/workflowResolver.js';
import { compactSummary } from './compaction/compactSummary.js';
import { podTreePlugin } from './podtree/podTreePlugin.js';
import { podRemotes } from './podtree/remote/podRemotesPlugin.js';
import { spawnPodTool } from './podtree/spawnPodTool.js';
import { sendToPodTool } from './podtree/sendToPodTool.js';
import { readPodOutputTool } from './podtree/readPodOutputTool.js';
import { stopPodTool } from './podtree/stopPodTool.js';
import { listPodsTool } from './podtree/listPodsTool.js';
import { podReporter } from './podtree/podReporter.js';
import { spawnedPodEvents } from './podtree/spawnedPodEvents.js';
import { podEventText } from './podtree/podEventText.js';
import { permissionsPlugin } from './permissions/permissionsPlugin.js';
import { mcp } from './mcp/mcpPlugin.js';
import { wsPlugin } from './ws/wsPlugin.js';
import { clusterPlugin } from './cluster/clusterPlugin.js';
import type { YoiPlugin } from '../core/api.js';

export { pasteResolver, fileRefResolver, knowledgeResolver, workflowResolver, bashTool, permissionsPlugin };
export {
  TextKind,
  PasteKind,
  FileRefKind,
  KnowledgeRefKind,
  WorkflowInvokeKind,
} from './resolvers/shared/builtinKinds.js';
export { PodTreeService } from './podtree/podTreePlugin.js';
/** MCP servers' tools, resources and prompts: the `mcp` config section, or `mcp({ servers })` in place of the default one. */
export { mcp };
export { McpResourceKind } from './mcp/mcpResourceSegment.js';
export { McpConfigSchema, McpServerConfigSchema, type McpConfig, type McpServerConfig } from './mcp/McpConfigSchema.js';

/**
 * The built-in plugins, in the order they are applied. A config without `plugins` gets this
 * list; a config with `plugins` can keep it with `[...defaultPlugins(), mine()]`.
 * `exclude` leaves out built-ins by name (what `disablePlugins` does for plain-data configs).
 */
export function defaultPlugins(opts: { exclude?: readonly string[] } = {}): YoiPlugin[] {
  const exclude = new Set(opts.exclude ?? []);
  const plugins: YoiPlugin[] = [
    // Built-ins (segment resolvers, offline providers, ...) are listed here, one factory call each.
    textResolver(),
    pasteResolver(),
    fileRefResolver(),
    knowledgeResolver(),
    workflowResolver(),
    compactSummary(),
    echoProvider(),
    scriptedProvider(),
    openaiCompatibleProvider(),
    anthropicProvider(),
    readTool(),
    writeTool(),
    editTool(),
    globTool(),
    grepTool(),
    staleTempFiles(),
    bashTool(),
    podTreePlugin(),
    podRemotes(),
    spawnPodTool(),
    sendToPodTool(),
    readPodOutputTool(),
    stopPodTool(),
    listPodsTool(),
    podReporter(),
    spawnedPodEvents(),
    podEventText(),
    mcp(),
    wsPlugin(),
    clusterPlugin(),
    permissionsPlugin(),
  ];
  return plugins.filter((plugin) => !exclude.has(plugin.name));
}
