import fs from 'node:fs';
import path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';

/** Longest first line read (a compacted session's start holds its summary and kept tail). */
const MAX_START_BYTES = 16 * 1024 * 1024;
/** Newer sessions looked at for the one a compaction continued in. */
const MAX_SCANNED = 2000;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface SessionStart {
  readonly podName: string;
  readonly compactedFrom?: string;
}

export interface FoundSession {
  /** The pod the session belongs to (`pod_name` of its first entry). */
  readonly podName: string;
  /** The session the conversation continues in now: `id`, or the last a compaction made from it. */
  readonly current: string;
}

/**
 * Where an ACP session id (a pod's session id) lives now: its log in the project's session
 * directory names its pod, and compaction may have continued it in newer sessions (uuidv7 ids
 * sort by time, so only newer files are read, and only their first line).
 */
export function findSession(dir: string, id: string): FoundSession {
  const sid = id.toLowerCase();
  const start = SESSION_ID.test(sid) ? readStart(path.join(dir, `${sid}.jsonl`)) : undefined;
  if (!start) throw RequestError.resourceNotFound(id);
  let current = sid;
  const newer = listNewer(dir, sid);
  const children = new Map<string, string>();
  for (const file of newer) {
    const next = readStart(path.join(dir, file));
    if (next?.compactedFrom !== undefined && next.podName === start.podName)
      children.set(next.compactedFrom, file.slice(0, -'.jsonl'.length));
  }
  const seen = new Set<string>([current]);
  for (let child = children.get(current); child !== undefined && !seen.has(child); child = children.get(current)) {
    seen.add(child);
    current = child;
  }
  return { podName: start.podName, current };
}

function listNewer(dir: string, id: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.jsonl') && SESSION_ID.test(n.slice(0, -6)) && n.slice(0, -6) > id)
    .sort()
    .slice(0, MAX_SCANNED);
}

/** The session_start entry of a log: its first line, read without following a link. */
function readStart(file: string): SessionStart | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.alloc(64 * 1024);
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(0x0a);
      chunks.push(buf.subarray(0, nl >= 0 ? nl : n));
      total += nl >= 0 ? nl : n;
      if (nl >= 0 || total > MAX_START_BYTES) break;
    }
    const entry = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    if (entry.type !== 'session_start' || typeof entry.pod_name !== 'string') return undefined;
    const from = (entry.compacted_from as { session_id?: unknown } | undefined)?.session_id;
    return { podName: entry.pod_name, ...(typeof from === 'string' ? { compactedFrom: from.toLowerCase() } : {}) };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
