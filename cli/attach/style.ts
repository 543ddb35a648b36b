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

/** Wraps one styled line to `width` columns (words kept together where possible). */
export function wrapLine(line: string, width: number): string[] {
  if (line === '') return [''];
  return wrapAnsi(line, Math.max(1, width), { hard: true, trim: false }).split('\n');
}
