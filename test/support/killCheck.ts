import fs from 'node:fs';
import path from 'node:path';
import { liveHistory, loggedSession, type ProjectCli } from './logReplay.js';

/** Session log lines of every log in `dir`, file by file (torn last lines left out). */
function logLines(dir: string): Record<string, unknown>[][] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) =>
      fs
        .readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    );
}

/**
 * `run_end` entries that follow another with nothing a run adds in between (input, items): a
 * run ended twice. Runs a notification starts have no `user_input`, so runs are told apart by
 * what they add, not by their input. Must be none in every log of `sessionDir`.
 */
export function doubledRunEnds(sessionDir: string): number {
  let bad = 0;
  for (const lines of logLines(sessionDir)) {
    let endedAlready = false;
    for (const e of lines) {
      if (e.type === 'user_input' || e.type === 'items' || e.type === 'session_start') endedAlready = false;
      else if (e.type === 'run_end') {
        if (endedAlready) bad++;
        endedAlready = true;
      }
    }
  }
  return bad;
}

/** Hidden temp files a killed writer may leave: atomic writes' (`.yoi-tmp`) and compactions' (`.jsonl…tmp`). */
export function tempFilesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 6) return;
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory() && d.name !== 'node_modules' && d.name !== 'run') walk(p, depth + 1);
      else if (/^\..*(\.yoi-tmp|\.jsonl(\.\d+)?\.tmp)$/.test(d.name)) found.push(path.relative(root, p));
    }
  };
  walk(root, 0);
  return found;
}

/** After a restart: the live history (`yoi history`) and what the resumed session's log replays to. */
export async function historyAndReplay(
  cli: ProjectCli,
  sessionId: string,
  pod = 'default',
): Promise<{ live: unknown[]; replayed: unknown[]; chain: string }> {
  const live = await liveHistory(cli, pod);
  const logged = await loggedSession(cli, sessionId);
  return { live, replayed: logged.history, chain: logged.chain };
}

/** `scope.lock`'s allocations (empty when there is no lock file). */
export function lockAllocations(
  runtimeDir: string,
): { pod_name: string; pid: number; delegated_from: string | null }[] {
  const file = path.join(runtimeDir, 'scope.lock');
  if (!fs.existsSync(file)) return [];
  return JSON.parse(fs.readFileSync(file, 'utf8')).allocations;
}
