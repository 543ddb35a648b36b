import { echoStream } from './echoReply.js';
import { definePlugin, type Provider } from '../../core/api.js';

export const ECHO = 'yoi:echo';

/**
 * The offline `echo` provider (the embedded default): answers each request with the context the
 * model was given since its last reply. Used by the demo and the tests.
 */
export const echoProvider = definePlugin({
  name: ECHO,
  apply(api) {
    api.hooks.providers.for('echo').tap(ECHO, (): Provider => ({ name: 'echo', model: 'echo', stream: echoStream }));
  },
});
