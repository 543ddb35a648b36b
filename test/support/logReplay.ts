import fs from 'node:fs';
import path from 'node:path';
import { yoiAsync } from './runCli.js';

/**
 * What a user can check with the CLI after a fault: the live history (`yoi history --json`) and
 * what a session's log replays to (`yoi sessions show ID --json`, every line's chain checked).
 */
export interface ProjectCli {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

async function json(p: ProjectCli, args: string[]): Promise<any> {
  const r = await yoiAsync(args, { cwd: p.cwd, env: p.env, timeoutMs: 60_000 });
  if (r.status !== 0) throw new Error(`yoi ${args.join(' ')} exited ${r.status}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout);
}

/** The pod's live history (`yoi history --json`). */
export function liveHistory(p: ProjectCli, pod = 'default'): Promise<unknown[]> {
  return json(p, ['history', '--json', '--pod', pod]);
}

/** A session as its log replays (`yoi sessions show ID --json`): its chain status and history. */
export function loggedSession(
  p: ProjectCli,
  id: string,
): Promise<{ chain: string; skipped_lines: number; history: unknown[] }> {
  return json(p, ['sessions', 'show', id, '--json']);
}

/** The session ids of a project, newest activity first (`yoi sessions --json`). */
export async function sessionIds(p: ProjectCli, pod?: string): Promise<string[]> {
  const all: { id: string }[] = await json(p, ['sessions', '--json', ...(pod ? ['--pod', pod] : [])]);
  return all.map((s) => s.id);
}

/** Lines of every session log in `dir` whose entry type is `type` (read raw, not through yoi). */
export function logEntries(sessionDir: string, type: string): Record<string, unknown>[] {
  if (!fs.existsSync(sessionDir)) return [];
  const out: Record<string, unknown>[] = [];
  for (const f of fs.readdirSync(sessionDir).filter((n) => n.endsWith('.jsonl'))) {
    for (const line of fs.readFileSync(path.join(sessionDir, f), 'utf8').split('\n')) {
      try {
        const e = JSON.parse(line);
        if (e.type === type) out.push(e);
      } catch {
        // a torn last line
      }
    }
  }
  return out;
}
