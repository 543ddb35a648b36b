import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

/**
 * The `yoi` executable (`bin/run.js`) of this copy of yoi: the nearest ancestor directory of this
 * module holding `bin/run.js` and a package.json (from `dist/plugins/podtree/shared` in a build,
 * from `plugins/podtree/shared` when run from source).
 */
export function yoiBin(): string {
  if (found) return found;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const bin = path.join(dir, 'bin', 'run.js');
    if (fs.existsSync(bin) && fs.existsSync(path.join(dir, 'package.json'))) return (found = bin);
    if (path.dirname(dir) === dir) throw new Error('cannot find bin/run.js of this yoi installation');
  }
}
