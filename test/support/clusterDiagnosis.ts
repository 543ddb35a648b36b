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
