import path from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

/** The ACP kind of a yoi tool, by name: editors pick icons and follow-along from it. */
export function toolKind(name: string): ToolKind {
  switch (name) {
    case 'Read':
    case 'ReadPodOutput':
      return 'read';
    case 'Write':
    case 'Edit':
      return 'edit';
    case 'Glob':
    case 'Grep':
    case 'ListPods':
      return 'search';
    case 'Bash':
      return 'execute';
    default:
      return 'other';
  }
}

/** Parsed tool arguments (`{}` for anything that is not a JSON object). */
export function parseArgs(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (args: Record<string, unknown>, key: string) =>
  typeof args[key] === 'string' && args[key] !== '' ? (args[key] as string) : undefined;

/** One line saying what the call does: `Read src/a.ts`, `Bash: npm test`, `docs: search` (MCP). */
export function toolTitle(name: string, args: Record<string, unknown>): string {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  if (mcp) return `${mcp[1]}: ${mcp[2]}`;
  const subject =
    str(args, 'file_path') ??
    str(args, 'command') ??
    str(args, 'pattern') ??
    str(args, 'path') ??
    str(args, 'name') ??
    str(args, 'pod');
  if (subject === undefined) return name;
  const line = subject.split('\n')[0];
  const short = line.length > 120 ? `${line.slice(0, 119)}…` : line;
  return name === 'Bash' ? `Bash: ${short}` : `${name} ${short}`;
}

/** Files the call reads or writes (absolute), for the editor to follow. */
export function toolLocations(name: string, args: Record<string, unknown>, cwd: string): ToolCallLocation[] {
  const abs = (p: string) => path.resolve(cwd, p);
  const file = str(args, 'file_path');
  if (file !== undefined && (name === 'Read' || name === 'Write' || name === 'Edit')) {
    const offset =
      typeof args.offset === 'number' && Number.isInteger(args.offset) && args.offset >= 0
        ? args.offset + 1
        : undefined;
    return [{ path: abs(file), ...(name === 'Read' && offset !== undefined ? { line: offset } : {}) }];
  }
  const dir = str(args, 'path');
  if (dir !== undefined && (name === 'Glob' || name === 'Grep')) return [{ path: abs(dir) }];
  return [];
}

/** What an Edit call changes, as a diff the editor renders (before the result arrives). */
export function toolDiff(name: string, args: Record<string, unknown>, cwd: string): ToolCallContent[] {
  const file = str(args, 'file_path');
  if (
    name !== 'Edit' ||
    file === undefined ||
    typeof args.old_string !== 'string' ||
    typeof args.new_string !== 'string'
  )
    return [];
  return [{ type: 'diff', path: path.resolve(cwd, file), oldText: args.old_string, newText: args.new_string }];
}

/** A tool result as the call's content: its summary, then its output. */
export function resultContent(summary: string, output: string | undefined): ToolCallContent[] {
  const text = output !== undefined && output !== '' ? `${summary}\n${output}` : summary;
  return [{ type: 'content', content: { type: 'text', text } }];
}
