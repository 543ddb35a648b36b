import fs from 'node:fs';
import path from 'node:path';

/** What a cluster test's pods and host said, for a failure message (a hang is otherwise silent). */
export function clusterDiagnosis(o: {
  projectDir: string;
  kidDir: string;
  rootDir: string;
  hostStderr: string;
  rootStderr: string;
}): string {
  const sessions = path.join(o.projectDir, '.yoi', 'sessions');
  const files = (fs.existsSync(sessions) ? fs.readdirSync(sessions, { recursive: true }) : [])
    .map(String)
    .filter((f) => fs.statSync(path.join(sessions, f)).isFile());
  // Per session: its SpawnPod lines, and its last entries (whether the kid ran its task at all).
  const sessionLines = files.flatMap((f) => {
    const lines = fs.readFileSync(path.join(sessions, f), 'utf8').trim().split('\n');
    return [
      ...lines.filter((l) => /SpawnPod|spawned pod|not started/.test(l)).map((l) => `${f}: ${l.slice(0, 600)}`),
      `${f} ends: ${lines.slice(-3).join(' | ').slice(0, 1500)}`,
    ];
  });
  const read = (file: string, max: number) =>
    fs.existsSync(file) ? fs.readFileSync(file, 'utf8').slice(-max) : '(none)';
  const listing = fs.existsSync(o.kidDir)
    ? fs
        .readdirSync(o.kidDir, { recursive: true })
        .map((f) => `${f} (${fs.statSync(path.join(o.kidDir, String(f))).size} bytes)`)
        .join(', ')
    : '(none)';
  return [
    `host stderr: ${o.hostStderr}`,
    `root stderr: ${o.rootStderr}`,
    ...[o.kidDir, o.rootDir].map((d) => `${path.join(d, 'pod.log')}: ${read(path.join(d, 'pod.log'), 4000)}`),
    ...sessionLines,
    `${o.kidDir}: ${listing}`,
    `kid status.json: ${read(path.join(o.kidDir, 'status.json'), 4000)}`,
  ].join('\n');
}

/**
 * The reports stream and pod `parent`'s consumer as NATS holds them, for the same message: tells
 * a report never published from one published and not delivered, or delivered and not acked.
 */
export async function reportsDiagnosis(servers: string, prefix: string, parent: string): Promise<string> {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const { clusterNames } = await import('../../plugins/cluster/clusterNames.js');
  const names = clusterNames(prefix);
  try {
    const nc = await connect({ servers, timeout: 5000 });
    try {
      const jsm = await jetstreamManager(nc, { timeout: 5000 });
      const stream = await jsm.streams.info(names.reportsStream).then(
        (i) => `messages ${i.state.messages}, last seq ${i.state.last_seq}`,
        (e: Error) => e.message,
      );
      const consumer = await jsm.consumers.info(names.reportsStream, names.reportsConsumer(parent)).then(
        (i) =>
          `delivered ${i.delivered.stream_seq}, ack floor ${i.ack_floor.stream_seq}, pending ${i.num_pending}, ack pending ${i.num_ack_pending}, redelivered ${i.num_redelivered}, waiting pulls ${i.num_waiting}`,
        (e: Error) => e.message,
      );
      return `reports stream: ${stream}\n${parent}'s consumer: ${consumer}`;
    } finally {
      await nc.close();
    }
  } catch (e) {
    return `reports stream: cannot ask NATS: ${(e as Error).message}`;
  }
}
