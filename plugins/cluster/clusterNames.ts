/**
 * Everything yoi keeps in NATS, named from the configured prefix: one KV bucket of pods, one of
 * hosts, one stream of reports (a subject per parent pod), one placement subject per host.
 * Pod and host names follow the pod-name rule (letters, digits, `.`, `_`, `-`), so they are
 * valid KV keys as they are; in subjects a `.` would split a token, and a durable consumer's
 * name may hold none, so there they are hex-encoded.
 */
export function clusterNames(prefix: string) {
  const token = (name: string) => Buffer.from(name, 'utf8').toString('hex');
  return {
    podsBucket: `${prefix}pods`,
    hostsBucket: `${prefix}hosts`,
    reportsStream: `${prefix}reports`,
    reportsSubjects: `${prefix}reports.>`,
    /** Where the reports to pod `parent` are published. */
    reports: (parent: string) => `${prefix}reports.${token(parent)}`,
    /** The durable consumer pod `parent` reads its reports with. */
    reportsConsumer: (parent: string) => `reports-${token(parent)}`,
    /** Placement requests for host `host`. */
    spawn: (host: string) => `${prefix}host.${token(host)}.spawn`,
    /** Commands (SendToPod, StopPod ...) for pods that host `host` runs. */
    command: (host: string) => `${prefix}host.${token(host)}.command`,
  };
}

export type ClusterNames = ReturnType<typeof clusterNames>;
