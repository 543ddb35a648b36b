import type { Segment } from '../../core/protocol/index.js';
import { MAX_SHOWN_CHARS, shownText } from './shownText.js';

/**
 * A user message's segments with no more typed text than the transcript shows: text segments
 * share {@link MAX_SHOWN_CHARS}, and how much they leave out is counted. Pastes show as chips,
 * whatever their size.
 */
export function shownSegments(segments: readonly Segment[]): { segments: readonly Segment[]; omitted: number } {
  let room = MAX_SHOWN_CHARS;
  let omitted = 0;
  const shown = segments.map((s) => {
    if (s.kind !== 'text') return s;
    const cut = shownText(s.content, room);
    room -= cut.text.length;
    omitted += cut.omitted;
    return cut.omitted > 0 ? { ...s, content: cut.text } : s;
  });
  return { segments: omitted > 0 ? shown : segments, omitted };
}
