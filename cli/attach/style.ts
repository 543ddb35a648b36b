import pc from 'picocolors';
import wrapAnsi from 'wrap-ansi';

/** Colours for the terminal UI: on unless NO_COLOR is set (it only ever draws to a terminal). */
export const color = pc.createColors(!('NO_COLOR' in process.env));

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
