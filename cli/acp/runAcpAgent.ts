import { Readable, Writable } from 'node:stream';
import { agent, ndJsonStream } from '@agentclientprotocol/sdk';
import { AcpAgent } from './AcpAgent.js';
import { LineLimit } from './LineLimit.js';

/** Longest line an editor may send (embedded files travel inside prompts). */
const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * `yoi acp`: an ACP agent on stdin/stdout until the editor closes stdin. stdout carries the
 * protocol only — anything else that would print goes to stderr, where the log goes too.
 */
export async function runAcpAgent(opts: { version: string }): Promise<void> {
  const out = process.stdout;
  // Nothing but the SDK may write to stdout: a stray console.log would corrupt the stream.
  for (const k of ['log', 'info', 'debug'] as const) console[k] = console.error;
  const log = (line: string) => process.stderr.write(`yoi acp: ${line}\n`);
  const impl = new AcpAgent({ version: opts.version, log });
  const input = process.stdin.pipe(new LineLimit(MAX_LINE_BYTES));
  const stream = ndJsonStream(
    Writable.toWeb(out) as WritableStream<Uint8Array>,
    Readable.toWeb(input) as ReadableStream<Uint8Array>,
    { maxMessageBytes: MAX_LINE_BYTES + 1024 },
  );
  const connection = agent({ name: 'yoi' })
    .onRequest('initialize', ({ params }) => impl.initialize(params))
    .onRequest('authenticate', () => ({}))
    .onRequest('session/new', ({ params }) => impl.newSession(params))
    .onRequest('session/load', ({ params }) => impl.loadSession(params))
    .onRequest('session/prompt', ({ params }) => impl.prompt(params))
    .onNotification('session/cancel', ({ params }) => impl.cancel(params.sessionId))
    .connect(stream);
  impl.connected(connection.client);
  await connection.closed;
  await impl.close();
  log('the editor closed the connection');
}
