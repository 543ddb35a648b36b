import { PasteKind } from './shared/builtinKinds.js';
import { segmentField } from './shared/segmentField.js';
import { definePlugin, type Resolution } from '../../core/api.js';

const NAME = 'yoi:paste';

/**
 * `paste` segments (a bracketed paste): the pasted text is appended to the user message as
 * is. The typed segment (id, chars, lines) stays in `user_message` and the session log, so
 * clients still show the `[Clipboard #N | …]` chip; the model only sees the text.
 */
export const pasteResolver = definePlugin({
  name: NAME,
  apply(api) {
    api.segmentKind(PasteKind).resolve(async (segment): Promise<Resolution> => {
      const content = segmentField(segment, 'content');
      if (typeof content !== 'string')
        return { type: 'unresolved', reason: 'malformed paste segment: `content` is not a string' };
      return { type: 'inline', text: content };
    });
  },
});
