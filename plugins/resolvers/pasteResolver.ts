import { definePlugin } from '../../core/plugin/definePlugin.js';
import type { Resolution } from '../../core/pipeline/Resolution.js';
import { segmentField } from './shared/segmentField.js';

const NAME = 'yoi:paste';

/**
 * `paste` segments (a bracketed paste): the pasted text is appended to the user message as
 * is. The typed segment (id, chars, lines) stays in `user_message` and the session log, so
 * clients still show the `[Clipboard #N | …]` chip; the model only sees the text.
 */
export const pasteResolver = definePlugin({
  name: NAME,
  apply(host) {
    host.hooks.resolveSegment.for('paste').tapPromise(NAME, async (segment): Promise<Resolution> => {
      const content = segmentField(segment, 'content');
      if (typeof content !== 'string') return { type: 'unresolved', reason: 'malformed paste segment: `content` is not a string' };
      return { type: 'inline', text: content };
    });
  },
});
