/** The parts of yoi a real pod is assembled from (what `yoi pod start` uses). */
export { Pod } from '../core/pod/Pod.js';
export { loadConfig } from '../core/config/loadConfig.js';
export { createHostFromConfig } from '../core/config/createHostFromConfig.js';
export { defaultPlugins } from '../plugins/index.js';
