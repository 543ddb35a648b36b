import type { SessionSummary } from '../core/session/summarizeSession.js';

/** A local date and time to the minute, as a listing shows it: `2025-06-01 14:05`. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** What a listing says about a session's chain, or nothing when it is intact. */
export function chainMarker(s: Pick<SessionSummary, 'chain' | 'chain_break'>): string | undefined {
  if (s.chain === 'unchained') return 'unchained';
  if (s.chain !== 'broken') return undefined;
  const b = s.chain_break;
  const at =
    b?.line !== undefined
      ? ` at line ${b.line}`
      : b?.from_end === 1
        ? ' at the last line'
        : b?.from_end
          ? ` at line ${b.from_end} from the end`
          : '';
  return `CHAIN BROKEN${at}`;
}

/** `yoi sessions` as a table, most recently active first. */
export function formatSessionTable(sessions: readonly SessionSummary[]): string[] {
  const rows = sessions.map((s) => [
    s.id,
    s.pod,
    localTime(s.started),
    localTime(s.last_activity),
    s.items === null ? '?' : String(s.items),
    [
      s.live ? 'live' : undefined,
      chainMarker(s),
      s.compacted_from ? `compacted from ${s.compacted_from}` : undefined,
      s.compacted_to ? `compacted to ${s.compacted_to}` : undefined,
    ]
      .filter(Boolean)
      .join(', '),
  ]);
  const header = ['ID', 'POD', 'STARTED', 'LAST ACTIVITY', 'ITEMS', 'NOTES'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** The head of `yoi sessions show`: one `label  value` line per fact. */
export function formatSessionDetails(
  s: SessionSummary,
  hashedLines: number,
  compactedAt: number | undefined,
  link: { status: string; detail: string } | undefined,
): string[] {
  const rows: [string, string][] = [
    ['session', s.id],
    ['pod', `${s.pod}${s.live ? ' (live: a running pod has it open)' : ''}`],
    ['file', s.file],
    ['started', localTime(s.started)],
    ['last activity', localTime(s.last_activity)],
    ['items', s.items === null ? '?' : String(s.items)],
  ];
  if (s.compacted_from) {
    const at = compactedAt !== undefined ? ` at ${localTime(compactedAt)}` : '';
    rows.push([
      'compacted from',
      `${s.compacted_from}${at}${link ? `: ${link.status === 'intact' ? '' : 'WARNING: '}${link.detail}` : ''}`,
    ]);
  }
  if (s.compacted_to) rows.push(['compacted to', s.compacted_to]);
  const chain =
    s.chain === 'intact'
      ? `intact (${hashedLines} line(s), every one checked)`
      : s.chain === 'unchained'
        ? 'unchained (written before session logs were hash-chained)'
        : `${chainMarker(s)}: ${s.chain_break?.reason ?? ''} — the log was changed after yoi wrote it`;
  rows.push(['chain', chain]);
  if (s.skipped_lines) {
    const utf8 = s.invalid_utf8_lines ? `, ${s.invalid_utf8_lines} of them not valid UTF-8` : '';
    rows.push(['skipped', `${s.skipped_lines} unreadable line(s)${utf8}`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
}
