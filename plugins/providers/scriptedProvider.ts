import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { echoStream } from './echoReply.js';
import { ScriptedStream } from './scriptedStream.js';
import { definePlugin, formatZodError, type Provider } from '../../core/api.js';

export const SCRIPTED = 'yoi:scripted';

/** One scripted reply, consumed by one LLM request (ARCHITECTURE §8). */
export const ScriptReplySchema = z.strictObject({
  text: z.string().optional(),
  /** Streamed as separate `text_delta`s (instead of `text`). */
  chunks: z.array(z.string()).optional(),
  tool_calls: z.array(z.strictObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })).optional(),
  usage: z.strictObject({ input_tokens: z.int().min(0), output_tokens: z.int().min(0) }).optional(),
  /** Wait this long before streaming (abortable). */
  delay_ms: z.int().min(0).optional(),
  /** Fail the request with this provider error, after streaming any text. */
  error: z.string().optional(),
});
export const ScriptSchema = z.array(ScriptReplySchema);
export type ScriptReply = z.infer<typeof ScriptReplySchema>;

/** Strict: a typo (`scrpt`) is named, with the key it was probably meant to be. */
const ModelSchema = z.strictObject({ provider: z.literal('scripted'), script: z.string().min(1) });

/**
 * The offline `scripted` provider: `model: { provider: 'scripted', script: 'replies.json' }`
 * (path relative to the project directory). Each LLM request consumes the next reply; once the
 * script is exhausted it answers like `echo`. Usage numbers and errors drive tests of
 * compaction thresholds and failure paths. `{pod}` in the path is replaced by the pod's name
 * (`script: 'script.{pod}.json'`), so the pods of one project (a parent and the children it
 * spawns, which share its config) can each follow their own script.
 */
export const scriptedProvider = definePlugin({
  name: SCRIPTED,
  apply(api) {
    api.hooks.providers.for('scripted').tap(SCRIPTED, (model, ctx): Provider => {
      const parsed = ModelSchema.safeParse(model);
      if (!parsed.success) throw new Error(formatZodError(parsed.error, ModelSchema, ['model']));
      const file = path.resolve(
        ctx.projectDir,
        ctx.podName ? parsed.data.script.replaceAll('{pod}', ctx.podName) : parsed.data.script,
      );
      let script: ScriptReply[];
      try {
        const r = ScriptSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
        if (!r.success) throw new Error(formatZodError(r.error, ScriptSchema));
        script = r.data;
      } catch (e) {
        throw new Error(`cannot use script ${file}: ${(e as Error).message}`);
      }
      let next = 0;
      let callId = 0;
      return {
        name: 'scripted',
        model: path.basename(file),
        stream: (request) =>
          next < script.length
            ? new ScriptedStream(script[next++], request, () => `call_${++callId}`)
            : echoStream(request),
      };
    });
  },
});
