/** Longest pod name: it becomes a directory name and part of the socket path. */
export const POD_NAME_MAX = 64;

const CHARSET = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Names that are files of the runtime base or of a pod directory (`scope.lock`, its lock and
 * temp files, `sock`, `pid`...). A pod named like one would have its directory created or
 * removed in their place (`SpawnPod{name:"scope.lock"}` once deleted the machine-wide lock).
 */
const RESERVED = new Set(['sock', 'pid', 'status.json', 'spawned_pods.json', 'pod.log', 'token']);
const RESERVED_PREFIX = 'scope.lock';

/**
 * The one pod-name rule, for names from the CLI (`--name`, `--pod`), the config (`name`) and
 * the pod tools: 1 to 64 ASCII letters, digits, `.`, `_`, `-`, starting with a letter or a
 * digit (so never `.`, `..` or a hidden name), not a runtime file's name. Reserved names are
 * compared without case: on a case-insensitive file system `Scope.Lock` is `scope.lock`.
 * Returns why `name` is refused, or undefined.
 */
export function podNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'a pod name cannot be empty';
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  if (name.length > POD_NAME_MAX) return `invalid pod name ${shown}: at most ${POD_NAME_MAX} characters`;
  if (!CHARSET.test(name)) {
    return `invalid pod name ${shown}: use letters, digits, ".", "_" or "-", starting with a letter or digit`;
  }
  const lower = name.toLowerCase();
  if (lower.startsWith(RESERVED_PREFIX) || RESERVED.has(lower)) {
    return `invalid pod name ${shown}: reserved for yoi's runtime files`;
  }
  return undefined;
}
