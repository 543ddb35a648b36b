/** Node's last line after an uncaught error: `Node.js v20.20.2`. */
const NODE_TRAILER = /^Node\.js v\d+\.\d+\.\d+$/;
/** Lines of Node's report that say nothing alone: stack frames, the caret under the source line, braces, blanks. */
const NOISE = /^\s*(?:at .*|\^+|[{}]|)\s*$/;
/** The pod's own one-line error: `yoi: <message> [YOI_ERR_…]`. */
const OWN_ERROR = /^yoi: .* \[YOI_ERR_[A-Z_]+\]$/;
/** Node's line for an uncaught error: `Error: …`, `TypeError [ERR_X]: …`, `UnhandledPromiseRejection: …`. */
const THROWN = /^\[?[A-Z]\w*(?:Error|Exception|Rejection)(?: \[[A-Z0-9_]+\])?: /;

/**
 * The one line that says why a detached pod exited before it listened, from what it wrote to its
 * log: its own `yoi:` error, else the error Node printed for an uncaught throw or rejection, else
 * its last line that is not Node's version trailer or part of a stack trace (undefined when none
 * is left). Taking the last line alone gave `Node.js v20.20.2`.
 */
export function podExitLine(output: string): string | undefined {
  const lines = output
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => !NODE_TRAILER.test(l) && !NOISE.test(l));
  return lines.findLast((l) => OWN_ERROR.test(l)) ?? lines.find((l) => THROWN.test(l)) ?? lines.at(-1);
}
