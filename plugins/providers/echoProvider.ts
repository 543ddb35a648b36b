import { z } from 'zod';
import { echoStream } from './echoReply.js';
import { definePlugin, formatZodError, type Provider } from '../../core/api.js';

export const ECHO = 'yoi:echo';

/** `echo` takes no settings: any other key in `model` is a mistake worth naming. */
const ModelSchema = z.strictObject({ provider: z.literal('echo') });

/**
 * The offline `echo` provider (the embedded default): answers each request with the context the
 * model was given since its last reply. Used by the demo and the tests.
 */
export const echoProvider = definePlugin({
  name: ECHO,
  apply(api) {
    api.hooks.providers.for('echo').tap(ECHO, (model): Provider => {
      // No `model` at all is the embedded default.
      const parsed = model === undefined ? undefined : ModelSchema.safeParse(model);
      if (parsed && !parsed.success) throw new Error(formatZodError(parsed.error, ModelSchema, ['model']));
      return { name: 'echo', model: 'echo', stream: echoStream };
    });
  },
});
