#!/usr/bin/env node
// The offline demo (`npm run demo`, after the build): starts a pod on the embedded default (the
// echo provider) in a temp project, sends a message with a pasted block and an @file
// reference, shows the streamed reply and the alerts, then stops the pod.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-demo-'));
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
fs.writeFileSync(
  path.join(dir, 'notes.md'),
  '# Release notes\n\n- pods report to their parents\n- compaction rotates sessions\n',
);

// Bold and dim only on a terminal (and not with NO_COLOR): piped, the demo is plain text.
const ansi = process.stdout.isTTY === true && !process.env.NO_COLOR;
const style = (code, text) => (ansi ? `\x1b[${code}m${text}\x1b[0m` : text);
const say = (text) => process.stdout.write(`\n${style(1, text)}\n`);
const note = (text) => process.stdout.write(`${style(2, `# ${text}`)}\n`);
const yoi = (args, opts = {}) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, stdio: 'inherit', ...opts });

say(`$ cd ${dir} && yoi pod start --detach --name demo`);
if (yoi(['pod', 'start', '--detach', '--name', 'demo']).status !== 0) process.exit(1);

const paste = 'const answer = 42;\nconsole.log(answer);\n';
say(
  '$ printf "const answer = 42;\\nconsole.log(answer);\\n" | yoi send --pod demo "Review this snippet against the notes" --file notes.md --knowledge style-guide',
);
note('the echo provider answers with exactly what the model was given: the message, the paste inlined,');
note(
  'the file as a context item; #style-guide does not exist, so the model sees a placeholder and an alert goes to stderr',
);
const send = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [
      bin,
      'send',
      '--pod',
      'demo',
      'Review this snippet against the notes',
      '--file',
      'notes.md',
      '--knowledge',
      'style-guide',
    ],
    { cwd: dir, env, stdio: ['pipe', 'inherit', 'inherit'] },
  );
  child.stdin.end(paste);
  child.on('close', resolve);
});

say('$ yoi history --pod demo');
yoi(['history', '--pod', 'demo']);

say('$ yoi pod stop --pod demo');
yoi(['pod', 'stop', '--pod', 'demo']);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(send === 0 ? 0 : 1);
