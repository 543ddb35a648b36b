import { z } from 'zod';
import { PodNameSchema } from '../../core/api.js';

/** Names a NATS bucket or stream can hold: the prefix starts every one of them. */
const PREFIX = /^[A-Za-z0-9_-]{0,32}$/;

/** `cluster.nats`: where the NATS servers are and how yoi names what it keeps there. */
export const NatsSettingsSchema = z.strictObject({
  servers: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).describe('nats://host:port, one or several'),
  credsFile: z.string().min(1).optional().describe('a NATS .creds file (JWT + nkey seed)'),
  prefix: z.string().regex(PREFIX, 'letters, digits, "_" or "-", at most 32').default('yoi-'),
});

/** `cluster.hosts.<name>`: how a host sees the project (its checkout lives elsewhere). */
export const HostMappingSchema = z.strictObject({
  projectDir: z.string().min(1),
});

/**
 * The `cluster` config section (plugin `yoi:cluster`): without it a pod never touches NATS.
 * Times are bounded so a typo cannot make a pod hammer the servers or keep a dead entry for a day.
 */
export const ClusterConfigSchema = z
  .strictObject({
    nats: NatsSettingsSchema,
    /** This machine's host name in the cluster (else `YOI_HOST_NAME`, else the OS host name). */
    host: PodNameSchema.optional(),
    /** How long a registration outlives its last heartbeat. */
    ttlMs: z.int().min(1000).max(3_600_000).default(30_000),
    /** How often a registration is refreshed (default a third of `ttlMs`). */
    heartbeatMs: z.int().min(200).max(1_200_000).optional(),
    /** Per host: where the project is on that host (default: the same path). */
    hosts: z.record(PodNameSchema, HostMappingSchema).default({}),
  })
  .optional();

export type ClusterConfig = NonNullable<z.output<typeof ClusterConfigSchema>>;
export type NatsSettings = ClusterConfig['nats'];

/** The heartbeat period in effect. */
export function heartbeatMs(config: ClusterConfig): number {
  return Math.min(config.heartbeatMs ?? Math.floor(config.ttlMs / 3), Math.floor(config.ttlMs / 2));
}
