import type { z } from 'zod';
import { unitEnum } from './primitives.js';

/** Scope permission; `read < write`. */
export const PermissionSchema = unitEnum('permission', ['read', 'write']);
export type Permission = z.infer<typeof PermissionSchema>;

export const AlertLevelSchema = unitEnum('alert level', ['warn', 'error']);
export type AlertLevel = z.infer<typeof AlertLevelSchema>;

export const AlertSourceSchema = unitEnum('alert source', ['pod', 'worker', 'compactor', 'agents_md']);
export type AlertSource = z.infer<typeof AlertSourceSchema>;

export const TurnResultSchema = unitEnum('turn result', ['finished', 'paused']);
export type TurnResult = z.infer<typeof TurnResultSchema>;

/** v1 values plus v2 `cancelled` (downgraded for v1 clients, see downgradeToV1). */
export const RunResultSchema = unitEnum('run result', ['finished', 'paused', 'limit_reached', 'cancelled']);
export type RunResult = z.infer<typeof RunResultSchema>;

/** v1 codes plus v2 `invalid_request` (a bad line or bad params; `internal` for v1 clients). */
export const ErrorCodeSchema = unitEnum('error code', [
  'already_running',
  'not_running',
  'not_paused',
  'provider_error',
  'tool_error',
  'internal',
  'invalid_request',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;
export const V1_ERROR_CODES: readonly ErrorCode[] = [
  'already_running',
  'not_running',
  'not_paused',
  'provider_error',
  'tool_error',
  'internal',
];

/** Pod state reported by v2 `status` and `welcome`. */
export const PodStatusSchema = unitEnum('pod status', ['idle', 'running', 'paused', 'compacting']);
export type PodStatus = z.infer<typeof PodStatusSchema>;
