import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { messageItem } from '../../core/history/HistoryItem.js';
import { openSession, type OpenSessionOptions } from '../../core/pod/openSession.js';
import { makeProject } from './startTestPod.js';

/**
 * Session logs for tests, written by the real writer (openSession + SessionLog), plus the other
 * kinds of files a session directory can hold: logs of the format before hashing, and forgeries.
 */

const base = { cwd: '/w', provider: 'echo', model: 'echo', systemPrompt: 'sys' };

/** The sessions directory of a new temp project (`<project>/.yoi/sessions`, not created). */
export const testSessionsDir = (): string => path.join(makeProject(), '.yoi', 'sessions');

/** Opens a session of `pod` in `dir` as a pod on the echo provider would (`resume` and the like in `more`). */
export function openTestSession(
  dir: string,
  pod: string,
  more: Partial<OpenSessionOptions> = {},
): ReturnType<typeof openSession> {
  return openSession({ ...base, dir, podName: pod, ...more });
}

/**
 * A session of `pod` with one finished run per text (user text, assistant echo); returns its file
 * and id. `at`: the first entry's time (later ones follow it by 1 ms), so tests set the order.
 */
export function writeSession(dir: string, pod: string, texts: string[], at = Date.now()): { file: string; id: string } {
  const s = openSession({ ...base, dir, podName: pod });
  let ts = at;
  for (const text of texts) {
    s.log.append({
      type: 'user_input',
      ts: ts++,
      segments: [{ kind: 'text', content: text }],
      items: [messageItem('user', text)],
    });
    s.log.append({ type: 'items', ts: ts++, source: 'assistant', items: [messageItem('assistant', `echo: ${text}`)] });
    s.log.append({ type: 'run_end', ts: ts++, result: 'finished' });
  }
  s.log.close();
  return { file: s.log.file, id: s.log.sessionId };
}

/** The lines of a file (without the final newline's empty piece). */
export function lines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');
}

export function writeLines(file: string, content: string[]): void {
  fs.writeFileSync(file, `${content.join('\n')}\n`, { mode: 0o600 });
}

/**
 * A log as yoi wrote them before hashing (or a forgery made by hand): entries without chain
 * fields, `session_start` first. `at` sets the entries' timestamps.
 */
export function writeUnchainedSession(dir: string, id: string, pod: string, texts: string[], at = Date.now()): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${id}.jsonl`);
  const entries: unknown[] = [
    {
      type: 'session_start',
      v: 1,
      ts: at,
      session_id: id,
      pod_name: pod,
      cwd: '/w',
      provider: 'echo',
      model: 'echo',
      system_prompt: `forged prompt of ${pod}`,
    },
  ];
  texts.forEach((text, i) => {
    entries.push({
      type: 'user_input',
      ts: at + i + 1,
      segments: [{ kind: 'text', content: text }],
      items: [messageItem('user', text)],
    });
    entries.push({ type: 'run_end', ts: at + i + 1, result: 'finished' });
  });
  writeLines(
    file,
    entries.map((e) => JSON.stringify(e)),
  );
  return file;
}

/** What the chain format says a line's hash is, computed here independently of yoi's code. */
export function expectedHash(line: string, prevHex: string | null): { hash: string; body: string } {
  const m = /^\{"hash":"([0-9a-f]{64})","prev_hash":(null|"[0-9a-f]{64}"),/.exec(line);
  if (!m) throw new Error(`not a chained line: ${line.slice(0, 80)}`);
  const body = `{${line.slice(m[0].length)}`;
  const prev = prevHex === null ? Buffer.alloc(32) : Buffer.from(prevHex, 'hex');
  return { hash: createHash('sha256').update(prev).update(body, 'utf8').digest('hex'), body };
}

/** Re-hashes lines from `from` on, as a forger who knows the format would (keeps the chain valid). */
export function rechain(content: string[]): string[] {
  let prev: string | null = null;
  return content.map((line) => {
    const body = `{${line.replace(/^\{"hash":"[0-9a-f]{64}","prev_hash":(null|"[0-9a-f]{64}"),/, '').replace(/^\{/, '')}`;
    const hash = createHash('sha256')
      .update(prev === null ? Buffer.alloc(32) : Buffer.from(prev, 'hex'))
      .update(body, 'utf8')
      .digest('hex');
    const out = `{"hash":"${hash}","prev_hash":${prev === null ? 'null' : `"${prev}"`},${body.slice(1)}`;
    prev = hash;
    return out;
  });
}
