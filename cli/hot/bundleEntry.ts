/**
 * What bin/run.js takes from the bundle (dist/bundle/yoi.js, and the same as one CommonJS file,
 * dist/bundle/yoi.cjs, both built by scripts/bundle.js): the hot commands, an adopted child pod,
 * and the error formatter. Everything else these reach is loaded lazily from chunks of the same
 * bundle (in yoi.cjs: evaluated on first use).
 */
export { runHotCommand } from './runHotCommand.js';
export { startAdoptedPod } from '../startAdoptedPod.js';
export { cliErrorJson, formatCliError } from '../formatCliError.js';
export { onStartupDone } from './startupDone.js';
