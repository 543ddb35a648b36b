// The one local fake LLM server of bench/peers.js: every tool under test is configured against
// it. It speaks OpenAI chat completions (`…/chat/completions`), OpenAI Responses (`…/responses`)
// and Anthropic messages (`…/messages`, `…/messages/count_tokens`), streaming or not, and lists
// one model (`…/models`); anything else gets a 404 (and is recorded, so a bench can tell what a
// peer asked for). Every completion answers with the current reply's text; a reply is written
// in 16 KiB writes as fast as the client reads, and the times of its first and last byte are
// recorded (`performance.now()`, the bench's own clock). A request without tools is a side
// request (a session title, a topic check): it gets a short answer, so only the agent's own
// turn carries the measured reply.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { anthropicStream, openAiStream, responsesStream } from './llmStreams.js';

export const MODEL = 'fake-model';
const MAX_BODY = 64 * 1024 * 1024;

export async function startPeerLlmServer() {
  let text = ['hello'];
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        body = {};
      }
      const record = {
        method: req.method,
        path: (req.url ?? '').replace(/\?.*/, ''),
        model: body.model,
        stream: body.stream === true,
        chunks: 0,
        firstByteAt: NaN,
        lastByteAt: NaN,
      };
      requests.push(record);
      record.tools = Array.isArray(body.tools) && body.tools.length > 0;
      void answer(req, res, body, record, record.tools ? text : ['Bench title']).catch(() => res.destroy());
    });
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    /** `http://127.0.0.1:<port>`; the OpenAI-style base URL is `${origin}/v1`. */
    origin: `http://127.0.0.1:${port}`,
    requests,
    /** The text deltas every completion answers with from now on. */
    setReply: (deltas) => (text = deltas),
    /** The last streamed completion that carried `chunks` deltas (the measured reply). */
    lastReply: (chunks) => requests.findLast((r) => r.chunks === chunks && r.lastByteAt >= 0),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

async function answer(req, res, body, record, text) {
  const path = record.path;
  const json = (status, value) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  if (req.method === 'GET' && path.endsWith('/models')) {
    return json(200, {
      object: 'list',
      has_more: false,
      data: [
        {
          id: MODEL,
          object: 'model',
          type: 'model',
          display_name: MODEL,
          created: 1,
          created_at: '2025-01-01T00:00:00Z',
          owned_by: 'fake',
        },
      ],
    });
  }
  if (req.method !== 'POST') return json(404, { error: { message: `no ${req.method} ${path} here` } });
  if (path.endsWith('/messages/count_tokens')) return json(200, { input_tokens: 10 });
  const usage = { input: 10, output: text.length };
  const joined = text.join('');
  if (path.endsWith('/chat/completions')) {
    if (!record.stream) {
      return json(200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: MODEL,
        choices: [{ index: 0, message: { role: 'assistant', content: joined }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      });
    }
    return stream(res, openAiStream({ text, usage }), record, text.length);
  }
  if (path.endsWith('/responses')) return stream(res, responsesStream({ text, usage }), record, text.length);
  if (path.endsWith('/messages')) {
    if (!record.stream) {
      return json(200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: body.model ?? MODEL,
        content: [{ type: 'text', text: joined }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      });
    }
    return stream(res, anthropicStream({ text, usage }), record, text.length);
  }
  return json(404, { error: { message: `no ${path} here` } });
}

/** Writes the frames in 16 KiB writes, waiting for the socket to drain, as a busy server does. */
async function stream(res, frames, record, chunks) {
  const data = Buffer.from(frames.join(''));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  record.firstByteAt = performance.now();
  for (let at = 0; at < data.length; at += 16384) {
    if (res.destroyed) return;
    if (!res.write(data.subarray(at, at + 16384))) await new Promise((r) => res.once('drain', r));
  }
  await new Promise((r) => res.end(r));
  record.lastByteAt = performance.now();
  record.chunks = chunks;
}
