/** The system prompt when the config sets none: where the agent is and what it may touch. */
export function defaultSystemPrompt(opts: { cwd: string; scopeSummary: string; date?: Date }): string {
  const day = (opts.date ?? new Date()).toISOString().slice(0, 10);
  return [
    'You are an agent running in a yoi pod. Be precise, and say so when you are unsure.',
    `You are operating in ${opts.cwd}. Today is ${day}.`,
    `## Working boundaries\n\n${opts.scopeSummary}`,
  ].join('\n\n');
}
