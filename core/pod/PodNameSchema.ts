import { z } from 'zod';
import { podNameProblem } from './podName.js';

/** A pod name as zod sees it: the one rule of podName.ts, its message as the issue. @beta */
export const PodNameSchema = z.string().superRefine((name, ctx) => {
  const problem = podNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
