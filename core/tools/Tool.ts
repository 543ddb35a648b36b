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
  /** This call's own signal: aborts with the run, or at the call's deadline. */
  readonly signal: AbortSignal;
  readonly podName: string;
  readonly cwd: string;
  readonly projectDir: string;
  readonly callId: string;
  /** Services provided by the pod (scope, alerts) and by plugins (`services.get(key)`). */
  readonly services: PodServices;
  readonly launch: Readonly<Record<string, unknown>>;
  /** Reports how far a long call got; v2 clients see it as `tool_progress` (absent outside a pod run). */
  readonly progress?: (update: ToolProgress) => void;
}

/** One progress report of a running tool call. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A tool the model can call. Created per pod by a `tools.for(name)` tap. */
export interface Tool<I = any> {
  readonly name: string;
  readonly description: string;
  /** zod schema of the input; its JSON Schema is what the model sees (unless `inputJsonSchema` is set). */
  readonly input: z.ZodType<I>;
  /**
   * The JSON Schema the model sees, when the tool comes with one (an MCP server's); `input`
   * then only checks the shape loosely.
   */
  readonly inputJsonSchema?: Record<string, unknown>;
  execute(input: I, ctx: ToolContext): Promise<ToolOutput>;
}
