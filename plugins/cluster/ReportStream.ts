import type { NatsConnection } from '@nats-io/transport-node';
import type { JetStreamManager } from '@nats-io/jetstream';
import { MAX_MESSAGE_BYTES } from './connectNats.js';
import type { ClusterNames } from './clusterNames.js';

/** Reports waiting for one parent at most; the oldest go first when a parent never comes back. */
const MAX_PER_PARENT = 10_000;
/** A report nobody read for this long is dropped (a parent gone for good). */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** The server drops a report published again with the same id within this window. */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;
/** An unacknowledged report is delivered again after this long. */
const ACK_WAIT_MS = 30_000;

const nanos = (ms: number) => ms * 1_000_000;

/** The reports stream (file storage, de-duplicated by `Nats-Msg-Id`, bounded); made if missing. */
export async function ensureReportStream(nc: NatsConnection, names: ClusterNames): Promise<JetStreamManager> {
  const { jetstreamManager, DiscardPolicy, StorageType } = await import('@nats-io/jetstream');
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(names.reportsStream);
  } catch {
    await jsm.streams
      .add({
        name: names.reportsStream,
        subjects: [names.reportsSubjects],
        storage: StorageType.File,
        discard: DiscardPolicy.Old,
        max_msgs_per_subject: MAX_PER_PARENT,
        max_age: nanos(MAX_AGE_MS),
        max_msg_size: MAX_MESSAGE_BYTES,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      })
      .catch(async (e) => {
        // Another pod made it meanwhile.
        await jsm.streams.info(names.reportsStream).catch(() => {
          throw e;
        });
      });
  }
  return jsm;
}

/**
 * The durable consumer of pod `parent`'s reports: explicit acks, one report in flight at a time
 * (reports are applied in the order they were published). Kept across the parent's restarts.
 */
export async function ensureReportConsumer(jsm: JetStreamManager, names: ClusterNames, parent: string): Promise<void> {
  const { AckPolicy, DeliverPolicy } = await import('@nats-io/jetstream');
  const durable = names.reportsConsumer(parent);
  try {
    await jsm.consumers.info(names.reportsStream, durable);
  } catch {
    await jsm.consumers.add(names.reportsStream, {
      durable_name: durable,
      filter_subject: names.reports(parent),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_ack_pending: 1,
      ack_wait: nanos(ACK_WAIT_MS),
    });
  }
}
