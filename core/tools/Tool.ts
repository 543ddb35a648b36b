import type { z } from 'zod';
import type { PodServices } from '../hooks/PodServices.js';

/** What a tool returns; `content` is what the model reads, `summary` is one line for clients. */
export interface ToolOutput {
  summary: string;
  content?: string;
  is_error?: boolean;
}

/** Passed to every tool call. */
export interface ToolContext {
  readonly signal: AbortSignal;
  readonly podName: string;
  readonly cwd: string;
  readonly projectDir: string;
  readonly callId: string;
  /** Services provided by the pod (scope, alerts, runtime paths). */
  readonly services: PodServices;
}

/** A tool the model can call. Created per pod by a `tools.for(name)` tap. */
export interface Tool<I = any> {
  readonly name: string;
  readonly description: string;
  /** zod schema of the input; its JSON Schema is what the model sees. */
  readonly input: z.ZodType<I>;
  execute(input: I, ctx: ToolContext): Promise<ToolOutput>;
}
