/**
 * Named tap stages (tapable's `stage` option): lower runs earlier, taps of one stage run in the
 * order their plugins were applied. Use these instead of bare numbers, and `before: 'yoi:paste'`
 * only for a local adjustment. Built-ins tap at STAGE_DEFAULT, so a user plugin can run before
 * them (a resolver overriding a built-in kind) or after them (an observer seeing final values).
 */

/** Before the built-ins: override a built-in resolver or provider, rewrite input first. */
export const STAGE_EARLY = -100;
/** Where built-ins and most plugins tap (tapable's default). */
export const STAGE_DEFAULT = 0;
/** After the built-ins: fallbacks, and waterfalls that should see everyone's changes. */
export const STAGE_LATE = 100;
