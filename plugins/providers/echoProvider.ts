import { z } from 'zod';
import { formatZodError } from '../../core/errors/formatZodError.js';
import { definePlugin } from '../../core/plugin/definePlugin.js';
import type { Provider } from '../../core/provider/Provider.js';
import { echoStream } from './echoReply.js';

export const ECHO = 'yoi:echo';

/** `echo` takes no settings: any other key in `model` is a mistake worth naming. */
const ModelSchema = z.strictObject({ provider: z.literal('echo') });

/**
 * The offline `echo` provider (the embedded default): answers each request with the context the
 * model was given since its last reply. Used by the demo and the tests.
 */
export const echoProvider = definePlugin({
  name: ECHO,
  apply(host) {
    host.hooks.providers.for('echo').tap(ECHO, (model): Provider => {
      // No `model` at all is the embedded default.
      const parsed = model === undefined ? undefined : ModelSchema.safeParse(model);
      if (parsed && !parsed.success) throw new Error(formatZodError(parsed.error, ModelSchema, ['model']));
      return { name: 'echo', model: 'echo', stream: echoStream };
    });
  },
});
