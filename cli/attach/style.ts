import pc from 'picocolors';
import wrapAnsi from 'wrap-ansi';

/** Colours for the terminal UI: on unless NO_COLOR is set (it only ever draws to a terminal). */
export const colorsEnabled = !process.env.NO_COLOR; // set and not empty, as no-color.org says
export const color = pc.createColors(colorsEnabled);

/**
 * The input cursor: reverse video even with NO_COLOR, which asks for no colours, not for an
 * invisible cursor (ink hides the terminal's own).
 */
export const cursor = pc.createColors(true).inverse;

/**
 * Text from the pod or the user made safe to draw: a carriage return before a newline goes,
 * other control characters (escape sequences included) become U+FFFD so they cannot move the
 * cursor or recolour the screen. Newlines and tabs stay.
 */
export function safeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\uFFFD');
}

/** Wraps one styled line to `width` columns (words kept together where possible). */
export function wrapLine(line: string, width: number): string[] {
  if (line === '') return [''];
  return wrapAnsi(line, Math.max(1, width), { hard: true, trim: false }).split('\n');
}
