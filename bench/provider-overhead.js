// A 20k-token streamed reply from a local fake OpenAI-compatible server, through a pod (the
// AI SDK provider, streamTurn, the event bus, the socket) to a client that receives every
// text_delta, against the same stream consumed directly with the AI SDK's streamText in the
// same run. ratio = pod time / direct SDK time (goal ≤ 1.3). Also printed, for information: the
// pod against the provider package's model read directly (`doStream`, the layer the pod's
// provider streams from, so the ratio is what the pod and its client add to the SDK's floor).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { streamText } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { PodClient } from '../dist/client/PodClient.js';
import { createHostFromConfig } from '../dist/core/config/createHostFromConfig.js';
import { loadConfig } from '../dist/core/config/loadConfig.js';
import { Pod } from '../dist/core/pod/Pod.js';
import { defaultPlugins } from '../dist/plugins/index.js';
import { medianMs, report } from './measure.js';

const TOKENS = 20_000;
const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const frames = [chunk({ role: 'assistant', content: '' })];
for (let i = 0; i < TOKENS; i++) frames.push(chunk({ content: ` w${i % 1000}` }));
frames.push(chunk({}, 'stop'));
frames.push(
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [], usage: { prompt_tokens: 50, completion_tokens: TOKENS, total_tokens: TOKENS + 50 } })}\n\n`,
);
frames.push('data: [DONE]\n\n');
// Sent in 16 KiB writes, as a server flushing tokens as they come would.
const body = Buffer.from(frames.join(''));
const expected = Array.from({ length: TOKENS }, (_, i) => ` w${i % 1000}`).join('');

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', async () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let at = 0; at < body.length; at += 16384) {
      if (!res.write(body.subarray(at, at + 16384))) await new Promise((r) => res.once('drain', r));
    }
    res.end();
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseURL = `http://127.0.0.1:${server.address().port}/v1`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-bench-provider-'));
fs.writeFileSync(
  path.join(dir, 'yoi.config.json'),
  JSON.stringify({ model: { provider: 'openai-compatible', baseURL, model: 'bench', maxRetries: 0 } }),
);
const env = { ...process.env, YOI_RUNTIME_DIR: path.join(dir, 'run') };
const config = await loadConfig({ cwd: dir, env, defaultPlugins: defaultPlugins() });
const pod = await Pod.start({ config, host: createHostFromConfig(config), name: 'bench', env });
const client = await PodClient.connect({ socketPath: pod.paths.socket });

const model = createOpenAICompatible({ name: 'bench', baseURL, includeUsage: true }).chatModel('bench');
const direct = async () => {
  const result = streamText({
    model,
    system: 'You are a benchmark.',
    messages: [{ role: 'user', content: 'go' }],
    maxRetries: 0,
    onError: () => undefined,
  });
  let text = '';
  for await (const part of result.fullStream) if (part.type === 'text-delta') text += part.text;
  if (text !== expected) throw new Error(`direct: got ${text.length} chars`);
};

const floor = async () => {
  const { stream } = await model.doStream({
    prompt: [
      { role: 'system', content: 'You are a benchmark.' },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
    ],
  });
  let text = '';
  for await (const part of stream) if (part.type === 'text-delta') text += part.delta;
  if (text !== expected) throw new Error(`doStream: got ${text.length} chars`);
};

const viaPod = async () => {
  let text = '';
  const off = client.onEvent((e) => {
    if (e.event === 'text_delta') text += e.data.text;
  });
  const ended = client.waitFor((e) => e.event === 'run_end' || e.event === 'error', 120_000);
  await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'go' }] } });
  const end = await ended;
  off();
  if (end.event !== 'run_end' || text !== expected)
    throw new Error(`pod: ${JSON.stringify(end)}, ${text.length} chars`);
};

// Interleaved so both see the same machine load.
const directMs = [];
const floorMs = [];
const podMs = [];
for (let round = 0; round < 3; round++) {
  directMs.push(await medianMs(direct, { runs: 3, warmup: round === 0 ? 2 : 0 }));
  floorMs.push(await medianMs(floor, { runs: 3, warmup: round === 0 ? 2 : 0 }));
  podMs.push(await medianMs(viaPod, { runs: 3, warmup: round === 0 ? 2 : 0 }));
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const d = med(directMs);
const f = med(floorMs);
const p = med(podMs);

await client.close();
await pod.stop();
server.close();
fs.rmSync(dir, { recursive: true, force: true });
const ok = report('provider-overhead: 20k-token reply through a pod to a client vs streamText directly', p / d, 1.3, {
  higherIsBetter: false,
  detail: `pod ${p.toFixed(0)} ms, direct SDK ${d.toFixed(0)} ms`,
});
console.log(
  `provider-overhead (info): the same vs the model's doStream read directly: ratio ${(p / f).toFixed(2)} — pod ${p.toFixed(0)} ms, doStream ${f.toFixed(0)} ms`,
);
process.exitCode = ok ? 0 : 1;
