import { describe, expect, it } from '@jest/globals';
import { NOTIFICATION_PREVIEW_CHARS, notificationPreview } from '../../../core/controller/notificationPreview.js';

describe('notificationPreview', () => {
  it('keeps a notification up to the limit as it is', () => {
    const text = 'x'.repeat(NOTIFICATION_PREVIEW_CHARS);
    expect(notificationPreview(text)).toBe(text);
  });

  it('cuts a longer one to its head and says how much more the history has', () => {
    const text = 'y'.repeat(NOTIFICATION_PREVIEW_CHARS + 10);
    expect(notificationPreview(text)).toBe(
      `${'y'.repeat(NOTIFICATION_PREVIEW_CHARS)} … [10 more characters: the whole text is in the history]`,
    );
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(NOTIFICATION_PREVIEW_CHARS - 1)}😀${'b'.repeat(5)}`;
    const preview = notificationPreview(text);
    expect(preview.startsWith(`${'a'.repeat(NOTIFICATION_PREVIEW_CHARS - 1)} …`)).toBe(true);
    expect(preview).toContain('[7 more characters');
  });
});
