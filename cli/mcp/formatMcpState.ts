import type { McpServerStatus } from '../../plugins/mcp/McpStateSchema.js';

const MAX_NAMES = 30;

function names(list: string[]): string {
  return list.length > MAX_NAMES
    ? `${list.slice(0, MAX_NAMES).join(', ')}, … (${list.length - MAX_NAMES} more)`
    : list.join(', ');
}

/** One server as `yoi mcp list` prints it: a head line, then what it offers and its last error. */
export function formatMcpServer(s: McpServerStatus): string[] {
  const counts = `${s.tools.length} tools, ${s.resources.length} resources, ${s.resource_templates.length} templates, ${s.prompts.length} prompts`;
  const extra = [s.pid !== undefined ? `pid ${s.pid}` : '', s.restarts > 0 ? `${s.restarts} restarts` : '']
    .filter(Boolean)
    .join(', ');
  const lines = [`${s.name}\t${s.state}\t${s.transport}\t${counts}${extra ? `\t${extra}` : ''}`];
  if (s.tools.length)
    lines.push(`  tools: ${names(s.tools.map((t) => (t.pod_tool ? t.name : `${t.name} (not offered)`)))}`);
  if (s.resources.length) lines.push(`  resources: ${names(s.resources.map((r) => r.uri))}`);
  if (s.resource_templates.length) lines.push(`  templates: ${names(s.resource_templates.map((t) => t.uri_template))}`);
  if (s.prompts.length)
    lines.push(
      `  prompts: ${names(s.prompts.map((p) => `/${s.name}:${p.name}${p.arguments.length ? ` ${p.arguments.map((a) => `${a.name}=${a.required ? '' : '?'}`).join(' ')}` : ''}`))}`,
    );
  if (s.last_error) lines.push(`  last error: ${s.last_error}`);
  return lines;
}
