import { describe, expect, it } from '@jest/globals';
import { YoiConfigSchema } from '../../../core/config/YoiConfigSchema.js';
import { podNameProblem } from '../../../core/pod/podName.js';
import { PodNameSchema } from '../../../core/pod/PodNameSchema.js';
import { podPaths } from '../../../core/pod/runtimePaths.js';

const RESERVED = [
  'scope.lock',
  'Scope.Lock',
  'SCOPE.LOCK',
  'scope.lock.lock',
  'scope.lock.123.tmp',
  'scope.lockx',
  'sock',
  'pid',
  'status.json',
  'Spawned_Pods.json',
  'pod.log',
  'token',
];
const MALFORMED = ['', '.', '..', '.hidden', '-x', '_x', 'a/b', '../x', 'a b', 'a\0b', 'é', 'a:b', 'x'.repeat(65)];
const GOOD = ['default', 'test', 'child-1', 'worker_a', 'a.b', 'A1', 'scope', 'lock', 'x'.repeat(64), 'my.scope.lock'];

describe('the pod-name rule', () => {
  it('accepts ordinary names, up to 64 characters', () => {
    for (const name of GOOD) expect([name, podNameProblem(name)]).toEqual([name, undefined]);
  });

  it('refuses reserved names whatever their case, naming them', () => {
    for (const name of RESERVED)
      expect(podNameProblem(name)).toBe(`invalid pod name ${JSON.stringify(name)}: reserved for yoi's runtime files`);
  });

  it('refuses other characters, hidden names, . and .., and names over 64 characters', () => {
    for (const name of MALFORMED)
      expect([name, podNameProblem(name)]).toEqual([
        name,
        expect.stringMatching(/^(invalid pod name .*|a pod name cannot be empty)$/),
      ]);
    expect(podNameProblem('x'.repeat(65))).toBe(`invalid pod name "${'x'.repeat(65)}": at most 64 characters`);
    expect(podNameProblem('a/b')).toBe(
      'invalid pod name "a/b": use letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
    // A huge name is cut in the message, which stays one short line.
    expect(podNameProblem('y'.repeat(10_000))!.length).toBeLessThan(150);
  });

  it("is the rule of the config schema, the tools' schema and the runtime paths", () => {
    for (const name of [...RESERVED, ...MALFORMED]) {
      const problem = podNameProblem(name);
      const config = YoiConfigSchema.safeParse({ name });
      expect(config.success).toBe(false);
      expect(config.error?.issues[0].message).toBe(problem);
      expect(PodNameSchema.safeParse(name).error?.issues[0].message).toBe(problem);
      expect(() => podPaths(name, { YOI_RUNTIME_DIR: '/run/x' })).toThrow(
        expect.objectContaining({ code: 'YOI_ERR_POD_NAME', message: problem }),
      );
    }
    for (const name of GOOD) {
      expect(YoiConfigSchema.parse({ name }).name).toBe(name);
      expect(podPaths(name, { YOI_RUNTIME_DIR: '/run/x' }).dir).toBe(`/run/x/${name}`);
    }
  });
});
