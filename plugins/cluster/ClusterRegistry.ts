import type { NatsConnection } from '@nats-io/transport-node';
import type { KV } from '@nats-io/kv';
import { HostEntrySchema, type HostEntry, PodEntrySchema, type PodEntry } from './ClusterEntries.js';
import type { ClusterNames } from './clusterNames.js';
import { listKeys } from './listKeys.js';
import type { z } from 'zod';

/** A registration is small; anything larger is not one of ours. */
const MAX_ENTRY_BYTES = 16 * 1024;
/** A listing reads at most this many entries. */
const MAX_LISTED = 10_000;

/**
 * The cluster's registry: two JetStream KV buckets whose entries expire `ttlMs` after their
 * last write (the bucket's max age), so a pod or host that stops heartbeating disappears by
 * itself. A bucket made earlier with another TTL is used as it is (the first writer decides).
 */
export class ClusterRegistry {
  private constructor(
    private readonly pods: KV,
    private readonly hosts: KV,
  ) {}

  static async open(nc: NatsConnection, names: ClusterNames, ttlMs: number): Promise<ClusterRegistry> {
    const { Kvm } = await import('@nats-io/kv');
    const kvm = new Kvm(nc);
    const opts = { ttl: ttlMs, history: 1, maxValueSize: MAX_ENTRY_BYTES };
    const [pods, hosts] = await Promise.all([kvm.create(names.podsBucket, opts), kvm.create(names.hostsBucket, opts)]);
    return new ClusterRegistry(pods, hosts);
  }

  putPod(entry: PodEntry): Promise<number> {
    return this.pods.put(entry.name, JSON.stringify(entry));
  }

  getPod(name: string): Promise<PodEntry | undefined> {
    return read(this.pods, name, PodEntrySchema);
  }

  async deletePod(name: string): Promise<void> {
    await this.pods.delete(name);
  }

  listPods(): Promise<PodEntry[]> {
    return list(this.pods, PodEntrySchema);
  }

  putHost(entry: HostEntry): Promise<number> {
    return this.hosts.put(entry.name, JSON.stringify(entry));
  }

  getHost(name: string): Promise<HostEntry | undefined> {
    return read(this.hosts, name, HostEntrySchema);
  }

  async deleteHost(name: string): Promise<void> {
    await this.hosts.delete(name);
  }

  listHosts(): Promise<HostEntry[]> {
    return list(this.hosts, HostEntrySchema);
  }
}

/** An entry, or undefined when it is missing, deleted, expired or not ours. */
async function read<T>(kv: KV, key: string, schema: z.ZodType<T>): Promise<T | undefined> {
  const e = await kv.get(key);
  if (!e || e.operation !== 'PUT' || e.length === 0 || e.length > MAX_ENTRY_BYTES) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(e.string()));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function list<T extends { name: string }>(kv: KV, schema: z.ZodType<T>): Promise<T[]> {
  const keys = await listKeys(kv, MAX_LISTED);
  const entries: T[] = [];
  for (const e of await Promise.all(keys.map((k) => read(kv, k, schema)))) if (e !== undefined) entries.push(e);
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}
