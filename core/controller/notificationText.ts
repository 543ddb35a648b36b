/**
 * How a notification (a `notify` message or a child pod's report) reads in the model's context.
 * The wording follows the original, so prompts written for it keep working.
 */
export function notificationText(message: string): string {
  return `[Notification]\n${message}\n\nThis is a notification, not a blocking request. If you are in the middle of a task, continue your current work and address this at a natural stopping point.`;
}
