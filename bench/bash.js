// `Bash{command:"true"}` through a pod — the pod in its own process on the scripted provider, the
// time from the client sending `run` to receiving the call's `tool_result`: the run, the scripted
// turn asking for the call, the tool's scope and mount planning, bwrap, the output pipe, the
// result's broadcast — against spawning the same `bwrap … true` command line directly in this
// process, interleaved in the same run. Goal: ≤ 1.5x. For information: the whole run (with the
// turn after the call, to `run_end`) and a bare `bwrap --ro-bind / / true`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../dist/core/config/loadConfig.js';
import { podPaths } from '../dist/core/pod/runtimePaths.js';
import { Scope } from '../dist/core/scope/Scope.js';
import { bwrapArgs, shellCommand } from '../dist/plugins/bash/bwrapArgs.js';
import { controlPlaneOf } from '../dist/plugins/bash/controlPlane.js';
import { planMounts } from '../dist/plugins/bash/planMounts.js';
import { probeSandbox } from '../dist/plugins/bash/probeSandbox.js';
import { sandboxEnv } from '../dist/plugins/bash/sandboxEnv.js';
import { defaultPlugins } from '../dist/plugins/index.js';
import { report } from './measure.js';
import { lineSocket } from './support/lineSocket.js';
import { startPodProcess } from './support/startPodProcess.js';

const RUNS = Number(process.env.BASH_RUNS ?? 41);
const WARMUP = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (ns) => Number(ns) / 1e6;

const probe = probeSandbox(undefined, { network: false });
if (!probe.ok) {
  console.log(`bash: skipped: ${probe.reason}`);
  process.exit(0);
}

const rounds = WARMUP + RUNS;
const script = Array.from({ length: rounds }, () => [
  { tool_calls: [{ name: 'Bash', arguments: { command: 'true' } }] },
  { text: 'ok' },
]).flat();
const pod = await startPodProcess({
  files: {
    's.json': JSON.stringify(script),
    'yoi.config.json': JSON.stringify({
      model: { provider: 'scripted', script: 's.json' },
      permissions: { rules: [{ tool: 'Bash', action: 'allow' }] },
    }),
  },
});

// The command line the pod's Bash builds for `true` in that project.
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(pod.dir, 'run') };
const config = await loadConfig({ cwd: pod.dir, env, defaultPlugins: defaultPlugins() });
const scope = new Scope(config.scope, config.projectDir);
const info = {
  podName: 'bench',
  cwd: config.cwd,
  projectDir: config.projectDir,
  services: {
    alert: () => undefined,
    scope,
    config,
    // The pod's runtime files, as the pod that runs the commands has them (hidden in the sandbox).
    runtime: { ...podPaths('bench', env), keep: () => undefined },
  },
};
const plan = planMounts({
  allow: scope.allowRules,
  deny: scope.denyRules,
  locks: scope.locks,
  ...controlPlaneOf(info, env),
});
const sandboxedTrue = bwrapArgs(plan, { network: false }, config.cwd, sandboxEnv(), shellCommand('true'));

const nullFd = fs.openSync('/dev/null', 'r'); // what bwrap reads for an empty (hidden) file
function spawnDirect(args, dataFds = 0, infoFd = undefined) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const stdio = ['ignore', 'pipe', 'pipe', ...Array(dataFds).fill(nullFd)];
    if (infoFd !== undefined) stdio[infoFd] = 'pipe'; // bwrap writes its sandbox's PID 1 there
    const child = spawn(probe.bwrap, args, { cwd: config.cwd, detached: true, stdio });
    child.stdout.resume();
    child.stderr.resume();
    if (infoFd !== undefined) child.stdio[infoFd].resume();
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(ms(process.hrtime.bigint() - t)) : reject(new Error(`bwrap exited with ${code}`)),
    );
  });
}

const c = await lineSocket(pod.socket);
const welcome = c.next('"welcome"');
c.write('{"method":"hello","params":{"protocol_version":2,"client":"bench"}}');
await welcome;

const through = [];
const direct = [];
const whole = [];
for (let i = 0; i < rounds; i++) {
  const t0 = process.hrtime.bigint();
  const result = c.next('"tool_result"');
  const done = c.next('"run_end"');
  const idle = c.next('"status":"idle"');
  c.write('{"method":"run","params":{"input":[{"kind":"text","content":"run true"}]}}');
  const [b, end] = await Promise.all([result, done, idle]);
  const d = await spawnDirect(sandboxedTrue.args, sandboxedTrue.dataFds, sandboxedTrue.infoFd);
  if (i >= WARMUP) {
    through.push(ms(b - t0));
    whole.push(ms(end - t0));
    direct.push(d);
  }
}
c.close();
const bare = [];
for (let i = 0; i < 15; i++) bare.push(await spawnDirect(['--ro-bind', '/', '/', '/bin/true']));
await pod.stop();

const [p, q] = [median(through), median(direct)];
console.log(
  `bash info: whole run (run → run_end, two scripted turns) ${median(whole).toFixed(1)} ms; bare bwrap --ro-bind / / true ${median(bare).toFixed(1)} ms; ${plan.mounts.length} mounts over the root`,
);
const ok = report('bash Bash{command:"true"} through a pod vs bwrap … true directly', p / q, 1.5, {
  higherIsBetter: false,
  detail: `${p.toFixed(1)} ms vs ${q.toFixed(1)} ms (median of ${RUNS})`,
});
process.exitCode = ok ? 0 : 1;
