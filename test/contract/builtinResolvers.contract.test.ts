import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileRefResolver } from '../../plugins/resolvers/fileRef/fileRefResolver.js';
import { knowledgeResolver } from '../../plugins/resolvers/knowledgeResolver.js';
import { pasteResolver } from '../../plugins/resolvers/pasteResolver.js';
import { workflowResolver } from '../../plugins/resolvers/workflowResolver.js';
import { resolverContract, type ContractEnv } from '../../testing/resolverContract.js';
import { writeFiles } from '../../testing/resolverHarness.js';

/** The contract suite registers its cases with jest's functions (node:test's work the same). */
const jest = { describe, it, before: beforeAll, after: afterAll };

const TEN_MB = 10 * 1024 * 1024;

resolverContract(jest, pasteResolver(), 'paste', {
  field: 'content',
  valid: () => [
    { kind: 'paste', id: 1, chars: 5, lines: 1, content: 'hello' },
    { kind: 'paste', id: 2, chars: 0, lines: 0, content: '' },
    { kind: 'paste', id: 3, chars: 12, lines: 1, content: '@secret-link' },
  ],
  escapes: (env) => [
    { kind: 'paste', id: 1, chars: 1, lines: 1, content: `@${path.join(env.outsideDir, 'secret.txt')}` },
  ],
  large: () => ({ kind: 'paste', id: 9, chars: TEN_MB, lines: 1, content: 'p'.repeat(TEN_MB) }),
});

resolverContract(jest, fileRefResolver(), 'file_ref', {
  field: 'path',
  setup: ({ projectDir }) => {
    writeFiles(projectDir, {
      'src/a.ts': 'export const a = 1;\n',
      'docs/é ü.md': '# unicode\n',
      'big.txt': 'b'.repeat(300 * 1024),
    });
    execFileSync('mkfifo', [path.join(projectDir, 'pipe')]);
    fs.closeSync(fs.openSync(path.join(projectDir, 'sparse.bin'), 'w'));
    fs.truncateSync(path.join(projectDir, 'sparse.bin'), 2 * 1024 ** 3);
  },
  valid: () => [
    { kind: 'file_ref', path: 'src/a.ts' },
    { kind: 'file_ref', path: 'docs/é ü.md' },
    { kind: 'file_ref', path: 'src' },
    { kind: 'file_ref', path: '.' },
    { kind: 'file_ref', path: 'big.txt' },
  ],
  escapes: (env: ContractEnv) => [
    { kind: 'file_ref', path: '../outside/secret.txt' },
    { kind: 'file_ref', path: 'src/../../outside/secret.txt' },
    { kind: 'file_ref', path: path.join(env.outsideDir, 'secret.txt') },
    { kind: 'file_ref', path: 'secret-link' },
    { kind: 'file_ref', path: 'outside-link/secret.txt' },
    { kind: 'file_ref', path: 'outside-link' },
    { kind: 'file_ref', path: env.outsideDir },
  ],
  hostile: () => [
    { kind: 'file_ref', path: 'pipe' },
    { kind: 'file_ref', path: 'sparse.bin' },
    { kind: 'file_ref', path: '/dev/zero' },
  ],
});

function docFixtures(kind: 'knowledge_ref' | 'workflow_invoke', dir: string) {
  return {
    field: 'slug',
    setup: ({ projectDir, outsideDir }: ContractEnv) => {
      writeFiles(projectDir, {
        [`${dir}/style.md`]: '---\ntitle: Style\ndescription: How we write\n---\nUse short sentences.\n',
        [`${dir}/team/review.md`]: 'Review every change.\n',
        [`${dir}/日本 語.md`]: 'ユニコード\n',
      });
      fs.symlinkSync(path.join(outsideDir, 'secret.md'), path.join(projectDir, dir, 'leak.md'));
      fs.symlinkSync(outsideDir, path.join(projectDir, dir, 'outdir'));
      execFileSync('mkfifo', [path.join(projectDir, dir, 'pipe.md')]);
    },
    valid: () => [
      { kind, slug: 'style' },
      { kind, slug: 'team/review' },
      { kind, slug: '日本 語' },
    ],
    escapes: (env: ContractEnv) => [
      { kind, slug: 'leak' },
      { kind, slug: 'outdir/secret' },
      { kind, slug: '../../../outside/secret' },
      { kind, slug: path.join(env.outsideDir, 'secret') },
      { kind, slug: '../../outside-link/secret' },
    ],
    hostile: () => [
      { kind, slug: 'pipe' },
      { kind, slug: 'styel' },
    ],
  };
}

resolverContract(jest, knowledgeResolver(), 'knowledge_ref', docFixtures('knowledge_ref', '.yoi/knowledge'));
resolverContract(jest, workflowResolver(), 'workflow_invoke', docFixtures('workflow_invoke', '.yoi/workflows'));
