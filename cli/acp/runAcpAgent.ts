import { agent } from '@agentclientprotocol/sdk';
import { AcpAgent } from './AcpAgent.js';
import { stdioStream } from './stdioStream.js';

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
  const stream = stdioStream(process.stdin, out, MAX_LINE_BYTES);
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
