export { JsonFloat } from './JsonFloat.js';
export { JsonSyntaxError } from './JsonSyntaxError.js';
export { formatRustFloat } from './formatRustFloat.js';
export { parseJson, needsExactParse } from './parseJson.js';
export { parseJsonExact, MAX_JSON_DEPTH } from './parseJsonExact.js';
export { stringifyJsonExact, compareUtf8 } from './stringifyJsonExact.js';
export { wellFormed, stringifyWellFormed } from './wellFormed.js';
