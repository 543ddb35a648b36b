import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { Scope } from '../../../core/scope/Scope.js';
import { workflowResolver } from '../../../plugins/resolvers/workflowResolver.js';
import {
  completeContext,
  completeWith,
  hostWith,
  hostWithConfig,
  resolveContext,
  resolveWith,
  tempDir,
  writeFiles,
} from '../../../testing/resolverHarness.js';

let root: string;
let project: string;
let remove: () => void;

beforeAll(() => {
  ({ dir: root, remove } = tempDir());
  project = path.join(root, 'project');
  const w = 'project/.yoi/workflows';
  writeFiles(root, {
    'outside/secret.md': 'WORKFLOW-SECRET',
    [`${w}/release.md`]: '---\ntitle: Release\ndescription: Cut a release\n---\n1. Bump the version.\n2. Tag it.\n',
    [`${w}/review.md`]: 'Review the diff.\n',
    [`${w}/ops/deploy.md`]: 'Deploy.\n',
    [`${w}/empty.md`]: '---\ntitle: Nothing\n---\n\n',
  });
  fs.symlinkSync(path.join(root, 'outside/secret.md'), path.join(project, '.yoi/workflows/leak.md'));
});

afterAll(() => remove());

const host = hostWith(workflowResolver());
const resolve = (slug: unknown, config?: Record<string, unknown>) =>
  resolveWith(
    config ? hostWithConfig(config, workflowResolver()) : host,
    'workflow_invoke',
    { kind: 'workflow_invoke', slug },
    resolveContext({ projectDir: project }),
  );

describe('yoi:workflow', () => {
  it('a scope deny on part of the folder holds: the workflow is not applied (replayed)', async () => {
    const scope = new Scope({ deny: [{ target: '.yoi/workflows/ops', permission: 'read' }] }, project);
    const ctx = resolveContext({ projectDir: project, scope });
    const at = (slug: string) => resolveWith(host, 'workflow_invoke', { kind: 'workflow_invoke', slug }, ctx);
    expect(await at('ops/deploy')).toEqual({
      type: 'unresolved',
      ref: 'ops/deploy',
      reason: "/ops/deploy is not readable: outside the pod's scope",
    });
    expect(await at('release')).toMatchObject({ type: 'context', label: 'Workflow: release' });
  });

  it('gives the body, without front matter, as an instruction for this run', async () => {
    expect(await resolve('release')).toEqual({
      type: 'context',
      role: 'instruction',
      label: 'Workflow: release',
      text: '1. Bump the version.\n2. Tag it.',
    });
    expect(await resolve('ops/deploy')).toEqual({
      type: 'context',
      role: 'instruction',
      label: 'Workflow: ops/deploy',
      text: 'Deploy.',
    });
  });

  it('refuses a workflow with an empty body', async () => {
    expect(await resolve('empty')).toEqual({
      type: 'unresolved',
      ref: 'empty',
      reason: 'workflow /empty has no instructions (its body is empty)',
    });
  });

  it('suggests close slugs for an unknown one', async () => {
    expect(await resolve('relase')).toEqual({
      type: 'unresolved',
      ref: 'relase',
      reason: 'no workflow /relase in .yoi/workflows; did you mean /release?',
    });
    expect(await resolve('deploy')).toMatchObject({
      reason: 'no workflow /deploy in .yoi/workflows; did you mean /ops/deploy?',
    });
  });

  it('refuses invalid slugs and links out of the directory', async () => {
    expect(await resolve('../x')).toMatchObject({
      type: 'unresolved',
      reason: 'invalid workflow name: the name has an empty, "." or ".." segment',
    });
    expect(await resolve('')).toMatchObject({ type: 'unresolved', reason: 'invalid workflow name: the name is empty' });
    expect(await resolve('leak')).toEqual({
      type: 'unresolved',
      ref: 'leak',
      reason: "/leak leads outside .yoi/workflows and the pod's scope",
    });
  });

  it('reads the directory from the config', async () => {
    writeFiles(project, { 'flows/alt.md': 'Alt.\n' });
    expect(await resolve('alt', { workflows: { dir: path.join(project, 'flows') } })).toMatchObject({
      type: 'context',
      text: 'Alt.',
    });
  });

  it('completes slugs by prefix', async () => {
    const complete = (prefix: string) =>
      completeWith(host, 'workflow_invoke', completeContext({ projectDir: project, prefix }));
    expect(await complete('re')).toEqual(['release', 'review']);
    expect(await complete('ops/')).toEqual(['ops/deploy']);
    // Symlinked documents are not listed (the walk never follows links).
    expect(await complete('')).toEqual(['empty', 'ops/deploy', 'release', 'review']);
  });
});
