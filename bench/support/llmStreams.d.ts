// Types of llmStreams.js, for the TypeScript test helpers that import it.

/** What a scripted model reply contains, in any API's streaming format. */
export interface StreamScript {
  /** Text deltas, in order. */
  text?: string[];
  /** Tool calls; `args` are the argument JSON split into deltas (not in the Responses writer). */
  toolCalls?: { id: string; name: string; args: string[] }[];
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** Leave out the finish (a stream cut short by the server). */
  noFinish?: boolean;
}

export function sse(data: unknown, event?: string): string;
export function openAiStream(s: StreamScript): string[];
export function anthropicStream(s: StreamScript): string[];
export function responsesStream(s: StreamScript): string[];
