import { createHash } from 'node:crypto';
import path from 'node:path';
import { podNameProblem } from '../../core/pod/podName.js';

/**
 * The pod an editor's session uses for a project: the config's `name` when it sets one, else one
 * named after the directory and a hash of its path (`webapp-3f2a9c1e`), so projects that keep
 * the default name (`default`) never share a pod.
 */
export function podNameFor(configName: string, cwd: string): string {
  if (configName !== 'default') return configName;
  const hash = createHash('sha256').update(path.resolve(cwd)).digest('hex').slice(0, 8);
  const base = path
    .basename(path.resolve(cwd))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 40)
    .replace(/[.-]+$/, '');
  const name = `${base === '' ? 'project' : base}-${hash}`;
  return podNameProblem(name) === undefined ? name : `project-${hash}`;
}
