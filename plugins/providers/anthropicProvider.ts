import { z } from 'zod';
import {
  BaseUrlSchema,
  CommonModelSettings,
  EnvNameSchema,
  parseModelSettings,
  readApiKey,
} from './aiSdk/modelSettings.js';
import { loadSdk, streamWithSdk, type SdkModel } from './aiSdk/streamWithSdk.js';
import { warmUpWhenStarted } from './aiSdk/warmUpWhenStarted.js';
import { toModelMessages, type ProviderOptions } from './aiSdk/toModelMessages.js';
import { definePlugin, type Provider } from '../../core/api.js';

export const ANTHROPIC = 'yoi:anthropic';

/** `model` for the Anthropic Messages API. */
export const AnthropicModelSchema = z.strictObject({
  provider: z.literal('anthropic'),
  model: z.string().min(1),
  /** Variable holding the API key (sent as `x-api-key`). */
  apiKeyEnv: EnvNameSchema.default('ANTHROPIC_API_KEY'),
  /** Default `https://api.anthropic.com/v1`; requests go to `<baseURL>/messages`. */
  baseURL: BaseUrlSchema.optional(),
  /** Longest wait for the response to start or for its next chunk. */
  timeoutMs: z.int().min(1).default(300_000),
  ...CommonModelSettings,
});

const DEFAULT_BASE_URL = 'https://api.anthropic.com/v1';

/** An ephemeral prompt-cache breakpoint: the prefix up to it is cached (and read back). */
const CACHE: ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/**
 * The `anthropic` provider, through the AI SDK (`@ai-sdk/anthropic`), loaded on the first
 * request. Prompt-cache breakpoints sit on the system prompt (with the tools before it), the
 * conversation before the newest user message, and the newest message; system items in the
 * conversation go as user text (no system role mid-conversation). Usage counts cache reads
 * and writes as input, so `input_tokens` is the whole prompt.
 */
export const anthropicProvider = definePlugin({
  name: ANTHROPIC,
  apply(api) {
    const warmUp = warmUpWhenStarted(api);
    api.hooks.providers.for('anthropic').tap(ANTHROPIC, (model, ctx): Provider => {
      const settings = parseModelSettings(AnthropicModelSchema, model);
      const explicitEnv = typeof (model as { apiKeyEnv?: unknown }).apiKeyEnv === 'string';
      const apiKey = readApiKey(ctx.env, settings.apiKeyEnv, explicitEnv);
      let sdk: Promise<(fetch: typeof globalThis.fetch) => SdkModel> | undefined;
      // A model per request (a few objects): its fetch keeps that request's idle clock.
      const load = () =>
        (sdk ??= loadSdk(() => import('@ai-sdk/anthropic')).then(
          (an) => (fetch) =>
            an.createAnthropic({ apiKey, baseURL: settings.baseURL, headers: settings.headers, fetch })(settings.model),
        ));
      warmUp(load);
      return {
        name: 'anthropic',
        model: settings.model,
        async *stream(request) {
          const languageModel = await load();
          yield* streamWithSdk(request, {
            plugin: ANTHROPIC,
            model: languageModel,
            system: request.system ? { role: 'system', content: request.system, providerOptions: CACHE } : undefined,
            messages: toModelMessages(request.items, { systemItemsAs: 'user', cacheBreakpoint: CACHE }),
            maxRetries: settings.maxRetries,
            timeoutMs: settings.timeoutMs,
            maxOutputTokens: settings.maxTokens,
            apiKeyEnv: settings.apiKeyEnv,
            baseURL: settings.baseURL ?? DEFAULT_BASE_URL,
          });
        },
      };
    });
  },
});
