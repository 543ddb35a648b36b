import { expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandServer } from '../../../plugins/cluster/host/serveCommand.js';
import { signReport } from '../../../plugins/cluster/reportSignature.js';

const secret = crypto.randomBytes(32).toString('hex');
const env = { YOI_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-cmd-')) };

function signed(at: number, id = crypto.randomUUID()) {
  const body = JSON.stringify({ pod: 'kid', parent: 'root', id, at, method: { method: 'get_history' } });
  return Buffer.from(JSON.stringify({ body, sig: signReport(secret, Buffer.from(body)) }));
}

it('a command signed before the host (re)started is refused: the seen ids did not survive it (replayed)', async () => {
  const placements = new Map([['kid', { parent: 'root', secret }]]);
  const captured = signed(Date.now() - 1000); // seen by the host before it restarted
  const server = new CommandServer(placements, env);
  expect(await server.handle(captured)).toEqual({
    ok: false,
    code: 'invalid_request',
    message: 'command refused: it was sent before this host started (it may be a replay)',
  });
  // One sent now passes the checks (and then finds no pod at the socket).
  const fresh = await server.handle(signed(Date.now() + 1));
  expect(fresh).not.toMatchObject({ message: expect.stringContaining('command refused') });
});
