import { createHash } from 'node:crypto';
import type { CallSubject } from './callSubject.js';

/** Longest summary line. */
const MAX_SUMMARY = 240;
/** String arguments longer than this are clipped in the event (the model's call keeps them whole). */
const MAX_ARG_STRING = 4000;
/** Arguments larger than this (as JSON, after clipping strings) are sent as clipped JSON text. */
const MAX_ARGS_JSON = 64 * 1024;
const MAX_DEPTH = 16;

/** One line saying what a call does: `Bash: npm test`, `Write src/a.ts`, `github/create_issue {…}`. */
export function summarizeCall(tool: string, args: unknown, subject: CallSubject | undefined): string {
  const a = (args !== null && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  let line: string;
  if (subject?.kind === 'command') line = `${tool}: ${firstLine(subject.text)}`;
  else if (subject?.kind === 'path')
    line = `${tool} ${typeof a.file_path === 'string' ? a.file_path : typeof a.path === 'string' ? a.path : subject.absolute}`;
  else if (subject?.kind === 'name' && tool.startsWith('mcp__')) line = `${subject.text} ${compact(args)}`;
  else if (subject?.kind === 'name') line = `${tool} ${subject.text}`;
  else line = `${tool} ${compact(args)}`;
  return clip(line.replace(/[\u0000-\u001f\u007f]/g, ' '), MAX_SUMMARY);
}

function firstLine(text: string): string {
  const lines = text.split('\n');
  return lines.length > 1 ? `${lines[0]} (+${lines.length - 1} more lines)` : text;
}

function compact(args: unknown): string {
  try {
    return JSON.stringify(args) ?? '';
  } catch {
    return '';
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The arguments as clients see them: long strings clipped, size bounded. */
export function clipArgs(args: unknown): { args: unknown; clipped: boolean } {
  let clipped = false;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      if (v.length <= MAX_ARG_STRING) return v;
      clipped = true;
      return `${v.slice(0, MAX_ARG_STRING)}…[${v.length - MAX_ARG_STRING} more characters]`;
    }
    if (v === null || typeof v !== 'object') return v;
    if (depth >= MAX_DEPTH) {
      clipped = true;
      return '…';
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
  };
  const out = walk(args, 0);
  const json = JSON.stringify(out) ?? 'null';
  if (json.length <= MAX_ARGS_JSON) return { args: out, clipped };
  return { args: `${json.slice(0, MAX_ARGS_JSON)}…`, clipped: true };
}

/** Identifies a call by tool and arguments (the same call made again after a restart): a SHA-256. */
export function callKey(tool: string, args: unknown): string {
  return createHash('sha256').update(tool).update('\u0000').update(stableJson(args)).digest('hex');
}

function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** `10 minutes`, `45 s`, `1.5 s`. */
export function formatDuration(ms: number): string {
  if (ms >= 120_000) return `${Math.round(ms / 60_000)} minutes`;
  if (ms >= 10_000) return `${Math.round(ms / 1000)} s`;
  return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`;
}
