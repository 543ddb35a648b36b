import { TextKind } from './shared/builtinKinds.js';
import { definePlugin } from '../../core/api.js';

export const TEXT = 'yoi:text';

/** `text` segments: their content goes into the user message as is. */
export const textResolver = definePlugin({
  name: TEXT,
  apply(api) {
    api.segmentKind(TextKind).resolve(async (segment) => {
      const content: unknown = segment.content;
      return typeof content === 'string' ? { type: 'inline', text: content } : undefined;
    });
  },
});
