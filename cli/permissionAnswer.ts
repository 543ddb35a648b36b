import type { PodTargetFlags } from './podTarget.js';

export type AnswerDecision = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

/**
 * Sends `permission_reply` for one ask to the pod (the one the ask was shown by: a parent
 * relays answers to its children). A pod without the permission policy says so in one line.
 */
export async function answerAsk(
  flags: PodTargetFlags,
  id: string,
  decision: AnswerDecision,
  message?: string,
): Promise<string> {
  const [{ connectPod }, { PodRequestError }, { YoiError }] = await Promise.all([
    import('./podTarget.js'),
    import('../client/PodClient.js'),
    import('../core/errors/YoiError.js'),
  ]);
  const { client, name } = await connectPod(flags);
  try {
    await client.requestExtension(
      'permission_reply',
      { id, decision, ...(message !== undefined ? { message } : {}) },
      30_000,
    );
  } catch (e) {
    if (
      e instanceof PodRequestError &&
      /unknown method|permission_reply/.test(e.message) &&
      !/permission request/.test(e.message)
    ) {
      throw new YoiError(
        'YOI_ERR_REQUEST',
        `pod ${name} has no permission policy (plugin yoi:permissions is not applied): ${e.message}`,
      );
    }
    throw e;
  } finally {
    await client.close();
  }
  return name;
}
