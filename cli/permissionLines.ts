import {
  PermissionRequestSchema,
  PermissionResolvedSchema,
  type PermissionRequest,
  type PermissionResolved,
} from '../plugins/permissions/permissionWire.js';

/**
 * How the CLI shows permission asks (`yoi asks`, `yoi send`; `yoi attach` draws its own modal
 * from the same data). Data from the pod is checked with the plugin's schemas first.
 */

/** `9m 12s`, `45s`. */
export function timeLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function parseRequest(data: unknown): PermissionRequest | undefined {
  const r = PermissionRequestSchema.safeParse(data);
  return r.success ? r.data : undefined;
}

export function parseResolved(data: unknown): PermissionResolved | undefined {
  const r = PermissionResolvedSchema.safeParse(data);
  return r.success ? r.data : undefined;
}

/** The pod a command talked to: its name, and the flag that addresses it (`--pod alpha`). */
export interface AskTarget {
  readonly name: string;
  readonly flag: string;
}

/** How to answer an ask shown by `target`. */
export function howToAnswer(id: string, target: AskTarget): string {
  const flag = target.flag ? ` ${target.flag}` : '';
  return `yoi approve ${id}${flag} | yoi deny ${id}${flag}`;
}

/** `yoi asks`: a table, or a line saying there is nothing. */
export function askLines(raw: readonly unknown[], target: AskTarget): string[] {
  const requests = raw.flatMap((r) => parseRequest(r) ?? []);
  if (requests.length === 0) return [`no pending permission requests (pod ${target.name})`];
  const rows = requests.map((r) => [r.id, r.pod, timeLeft(r.deadline_ms), r.default, r.summary]);
  const head = ['ID', 'POD', 'LEFT', 'DEFAULT', 'CALL'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [
    line(head),
    ...rows.map(line),
    '',
    `answer with: yoi approve ID [--always] ${target.flag} | yoi deny ID [--always] [--message M] ${target.flag}`,
  ];
}

/** One line for a stream (`yoi send`): the ask, its id and how to answer it. */
export function requestLine(r: PermissionRequest, target: AskTarget): string {
  const from = r.pod === target.name ? '' : ` [pod ${r.pod}]`;
  return `[permission ${r.id}]${from} ${r.summary} — answer: ${howToAnswer(r.id, target)} (${r.default} in ${timeLeft(r.deadline_ms)})`;
}

export function resolvedLine(r: PermissionResolved): string {
  return `[permission ${r.id}] ${r.decision} (${r.by})${r.message ? `: ${r.message}` : ''}`;
}

/**
 * The line a streaming client prints for a plugin's event, if it is a permission event
 * (undefined for anything else, or for data that does not pass the plugin's schema).
 */
export function permissionEventLine(
  event: { event: string; data?: unknown },
  target: AskTarget,
): { line: string; request?: PermissionRequest } | undefined {
  if (event.event === 'permission_request') {
    const r = parseRequest(event.data);
    return r && { line: requestLine(r, target), request: r };
  }
  if (event.event === 'permission_resolved') {
    const r = parseResolved(event.data);
    return r && { line: resolvedLine(r) };
  }
  return undefined;
}
