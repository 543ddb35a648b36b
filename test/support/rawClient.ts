import net from 'node:net';
import { LineReader, decodeEventLine, type Event } from '../../core/protocol/index.js';

/** A bare socket client speaking raw lines (what a v1 or a hostile client does). */
export class RawClient {
  readonly events: Event[] = [];
  readonly lines: string[] = [];
  private readonly socket: net.Socket;
  private waiters: (() => void)[] = [];

  private constructor(socket: net.Socket, maxLineBytes?: number) {
    this.socket = socket;
    const reader = new LineReader({
      maxLineBytes,
      onLine: (line) => {
        this.lines.push(line);
        const d = decodeEventLine(line);
        if (d.ok) this.events.push(d.value);
        for (const w of this.waiters.splice(0)) w();
      },
      onError: () => undefined,
    });
    socket.on('data', (c: Buffer) => reader.push(c));
    socket.on('error', () => undefined);
  }

  /** `maxLineBytes`: longest event line read (default 16 MiB, the pod's own default limit). */
  /** Connects; a pod whose listen backlog is full (EAGAIN, many clients at once) is tried again, as PodClient does. */
  static connect(path: string, opts: { maxLineBytes?: number } = {}): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      let wait = 5;
      const attempt = () => {
        const s = net.connect(path, () => resolve(new RawClient(s, opts.maxLineBytes)));
        s.once('error', (e: NodeJS.ErrnoException) => {
          if (e.code !== 'EAGAIN' || wait > 2000) return reject(e);
          setTimeout(attempt, wait);
          wait *= 2;
        });
      };
      attempt();
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Waits until an event satisfies `pred` (checks already received events first). */
  async until(pred: (e: Event) => boolean, timeoutMs = 10_000): Promise<Event> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(pred);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(this.events.map((e) => e.event))}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  end(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }
}
