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
import { toModelMessages } from './aiSdk/toModelMessages.js';
import { definePlugin, type Provider } from '../../core/api.js';

export const OPENAI_COMPATIBLE = 'yoi:openai-compatible';

/** `model` for an OpenAI chat-completions server (OpenAI, Ollama, llama.cpp server, vLLM...). */
export const OpenAiCompatibleModelSchema = z.strictObject({
  provider: z.literal('openai-compatible'),
  /** Up to and including the version segment: requests go to `<baseURL>/chat/completions`. */
  baseURL: BaseUrlSchema,
  model: z.string().min(1),
  /** Variable holding the API key, sent as `Authorization: Bearer`. Unset: no key (local servers). */
  apiKeyEnv: EnvNameSchema.optional(),
  /** Longest wait for the response to start or for its next chunk (local models can be slow). */
  timeoutMs: z.int().min(1).default(600_000),
  ...CommonModelSettings,
});

/**
 * The `openai-compatible` provider: streams chat completions through the AI SDK
 * (`@ai-sdk/openai-compatible`), loaded on the first request so that commands which never
 * talk to a model stay fast. Settings and the API key are checked when the pod starts.
 */
export const openaiCompatibleProvider = definePlugin({
  name: OPENAI_COMPATIBLE,
  apply(api) {
    const warmUp = warmUpWhenStarted(api);
    api.hooks.providers.for('openai-compatible').tap(OPENAI_COMPATIBLE, (model, ctx): Provider => {
      const settings = parseModelSettings(OpenAiCompatibleModelSchema, model);
      const apiKey = settings.apiKeyEnv ? readApiKey(ctx.env, settings.apiKeyEnv, true) : undefined;
      let sdk: Promise<(fetch: typeof globalThis.fetch) => SdkModel> | undefined;
      // A model per request (a few objects): its fetch keeps that request's idle clock.
      const load = () =>
        (sdk ??= loadSdk(() => import('@ai-sdk/openai-compatible')).then(
          (oc) => (fetch) =>
            oc
              .createOpenAICompatible({
                name: 'openai-compatible',
                baseURL: settings.baseURL,
                apiKey,
                headers: settings.headers,
                includeUsage: true,
                fetch,
              })
              .chatModel(settings.model),
        ));
      warmUp(load);
      return {
        name: 'openai-compatible',
        model: settings.model,
        async *stream(request) {
          const languageModel = await load();
          yield* streamWithSdk(request, {
            plugin: OPENAI_COMPATIBLE,
            model: languageModel,
            system: request.system || undefined,
            messages: toModelMessages(request.items, { systemItemsAs: 'system' }),
            maxRetries: settings.maxRetries,
            timeoutMs: settings.timeoutMs,
            maxOutputTokens: settings.maxTokens,
            apiKeyEnv: settings.apiKeyEnv,
            baseURL: settings.baseURL,
          });
        },
      };
    });
  },
});
