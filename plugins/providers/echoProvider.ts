import { definePlugin } from '../../core/plugin/definePlugin.js';
import type { Provider } from '../../core/provider/Provider.js';
import { echoStream } from './echoReply.js';

export const ECHO = 'yoi:echo';

/**
 * The offline `echo` provider (the embedded default): answers each request with the context the
 * model was given since its last reply. Used by the demo and the tests.
 */
export const echoProvider = definePlugin({
  name: ECHO,
  apply(host) {
    host.hooks.providers.for('echo').tap(ECHO, (): Provider => ({ name: 'echo', model: 'echo', stream: echoStream }));
  },
});
