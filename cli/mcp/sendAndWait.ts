import { PodClient } from '../../client/PodClient.js';

/** Most characters of a reply handed back (the tail is kept: the answer comes last). */
const MAX_REPLY_CHARS = 200_000;

/**
 * Sends `message` as a run to the pod at `socket` and waits for the run's end: resolves with the
 * text the model wrote during the run, rejects with one line if the run fails, is cancelled, or
 * the pod goes away. Aborting `signal` cancels the pod's run.
 */
export async function sendAndWait(
  socket: string,
  message: string,
  signal: AbortSignal,
  clientName: string,
): Promise<{ text: string; result: string }> {
  const client = await PodClient.connect({ socketPath: socket, clientName, protocol: 2 });
  const texts: string[] = [];
  let size = 0;
  let accepted = false;
  const onAbort = () => client.send({ method: 'cancel' });
  try {
    const end = new Promise<{ ok: true; result: string } | { ok: false; message: string }>((resolve) => {
      client.onEvent((e) => {
        // The run's events follow its ack (acks go to the requester only).
        if (e.event === 'ack' && e.data.method === 'run') accepted = true;
        if (!accepted) return;
        if (e.event === 'text_done') {
          texts.push(e.data.text);
          size += e.data.text.length;
          while (size > MAX_REPLY_CHARS && texts.length > 1) size -= texts.shift()!.length;
        } else if (e.event === 'run_end') {
          resolve(
            e.data.result === 'cancelled'
              ? { ok: false, message: 'the run was cancelled' }
              : { ok: true, result: e.data.result },
          );
        } else if (e.event === 'error' && e.request_id === undefined) {
          resolve({ ok: false, message: `${e.data.code}: ${e.data.message}` });
        } else if (e.event === 'shutdown') {
          resolve({ ok: false, message: 'the pod shut down during the run' });
        }
      });
      void client.closed.then(() => resolve({ ok: false, message: 'the connection to the pod closed during the run' }));
    });
    signal.addEventListener('abort', onAbort, { once: true });
    await client.request({ method: 'run', params: { input: [{ kind: 'text', content: message }] } });
    const outcome = await end;
    if (!outcome.ok) throw new Error(outcome.message);
    const text = texts.join('\n\n');
    return { text: text.length > MAX_REPLY_CHARS ? text.slice(-MAX_REPLY_CHARS) : text, result: outcome.result };
  } finally {
    signal.removeEventListener('abort', onAbort);
    await client.close();
  }
}
