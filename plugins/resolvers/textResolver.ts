import { definePlugin } from '../../core/plugin/definePlugin.js';
import type { TextSegment } from '../../core/protocol/index.js';

export const TEXT = 'yoi:text';

/** `text` segments: their content goes into the user message as is. */
export const textResolver = definePlugin({
  name: TEXT,
  apply(host) {
    host.hooks.resolveSegment.for('text').tapPromise(TEXT, async (segment) => {
      const content = (segment as Partial<TextSegment>).content;
      return typeof content === 'string' ? { type: 'inline', text: content } : undefined;
    });
  },
});
