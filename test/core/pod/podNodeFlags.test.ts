import { expect, it } from '@jest/globals';
import fs from 'node:fs';
import { POD_NODE_FLAGS } from '../../../core/pod/podNodeFlags.js';

// A pod started by `yoi pod start` runs under the executable's shebang; one started by yoi itself
// (`--detach`, SpawnPod) under POD_NODE_FLAGS. Both must be the same pod.
it("the yoi executable's shebang carries exactly the pod's Node flags", () => {
  const first = fs.readFileSync(new URL('../../../bin/run.js', import.meta.url), 'utf8').split('\n')[0];
  expect(first).toBe(`#!/usr/bin/env -S node ${POD_NODE_FLAGS.join(' ')}`);
});
