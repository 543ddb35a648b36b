/** Most characters of a notification that clients are sent as it arrives. */
export const NOTIFICATION_PREVIEW_CHARS = 16 * 1024;

/**
 * What clients are shown of a notification: all of it up to NOTIFICATION_PREVIEW_CHARS, else its
 * head and how much more there is. A huge notify (megabytes) would otherwise be copied to every
 * client and count against each one's queue; the model and `get_history` still get all of it.
 */
export function notificationPreview(text: string): string {
  if (text.length <= NOTIFICATION_PREVIEW_CHARS) return text;
  let end = NOTIFICATION_PREVIEW_CHARS;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // never split a surrogate pair
  return `${text.slice(0, end)} … [${text.length - end} more characters: the whole text is in the history]`;
}
