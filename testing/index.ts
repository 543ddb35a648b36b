/**
 * `yoi/testing`: what plugin authors test with. The resolver contract suite every resolver keeps
 * (jest or node:test), helpers that call a plugin's hooks the way a pod does, and a real pod with
 * given plugins and a connected client.
 *
 * @packageDocumentation
 */
export { resolverContract, type ContractEnv, type ResolverFixtures, type TestRunner } from './resolverContract.js';
export {
  hostWith,
  hostWithConfig,
  resolveContext,
  completeContext,
  resolveWith,
  completeWith,
  tempDir,
  writeFiles,
  within,
  makeServices,
  type ContextOptions,
  type TestHost,
} from './resolverHarness.js';
export { createTestServices, type TestServicesOptions } from './createTestServices.js';
export { startPod, type StartPodOptions, type TestPodHandle } from './startPod.js';
