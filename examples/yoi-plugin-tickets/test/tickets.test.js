// The plugin's own tests, run with node:test against the built package (`npm run build && npm test`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultPlugins } from 'yoi';
import {
  completeContext,
  completeWith,
  hostWith,
  hostWithConfig,
  resolveContext,
  resolveWith,
  resolverContract,
  startPod,
  tempDir,
  writeFiles,
} from 'yoi/testing';
import { ticketTool, tickets } from 'yoi-plugin-tickets';

const TICKET = '# T-12: the login page forgets the name\n';

// What every resolver keeps: no throw on hostile input, cancellation, determinism, the scope.
resolverContract({ describe, it, before, after }, tickets(), 'ticket_ref', {
  field: 'id',
  setup: (env) => {
    writeFiles(env.projectDir, { 'tickets/T-12.md': TICKET });
    // A ticket that is a link to a file outside the scope.
    fs.symlinkSync(path.join(env.outsideDir, 'secret.md'), path.join(env.projectDir, 'tickets/T-13.md'));
  },
  valid: () => [{ kind: 'ticket_ref', id: 'T-12' }],
  escapes: (env) => [
    { kind: 'ticket_ref', id: 'T-13' },
    { kind: 'ticket_ref', id: '../outside-link/secret' },
    { kind: 'ticket_ref', id: `${env.outsideDir}/secret` },
  ],
});

describe('acme:tickets', () => {
  let project;
  before(() => {
    project = tempDir('tickets-');
    writeFiles(project.dir, {
      'issues/BUG-2.md': 'crash on start\n',
      'issues/BUG-10.md': 'x'.repeat(100),
      'issues/notes.txt': '',
    });
  });
  after(() => project.remove());

  const host = () => hostWithConfig({ tickets: { dir: 'issues', prefix: 'BUG', maxBytes: 50 } }, tickets());

  it('reads tickets from the folder and with the id shape its config section sets', async () => {
    const ctx = resolveContext({ projectDir: project.dir });
    assert.deepEqual(await resolveWith(host(), 'ticket_ref', { kind: 'ticket_ref', id: 'BUG-2' }, ctx), {
      type: 'context',
      label: 'Ticket: BUG-2',
      text: 'crash on start\n',
    });
    const refused = await resolveWith(host(), 'ticket_ref', { kind: 'ticket_ref', id: 'T-2' }, ctx);
    assert.equal(refused?.type, 'unresolved');
    assert.match(refused.reason, /they look like BUG-12/);
  });

  it('cuts a long ticket to maxBytes and says so', async () => {
    const result = await resolveWith(
      host(),
      'ticket_ref',
      { kind: 'ticket_ref', id: 'BUG-10' },
      resolveContext({ projectDir: project.dir }),
    );
    assert.equal(result?.type, 'context');
    assert.equal(result.text.length, 50);
    assert.equal(result.warning, 'ticket BUG-10 was cut to 50 of 100 bytes');
  });

  it('completes ids in number order', async () => {
    const items = await completeWith(
      host(),
      'ticket_ref',
      completeContext({ projectDir: project.dir, prefix: 'BUG-' }),
    );
    assert.deepEqual(items, ['BUG-2', 'BUG-10']);
  });

  it('gives the model a ReadTicket tool through the store acme:tickets provides', async () => {
    const h = hostWithConfig({ tickets: { dir: 'issues', prefix: 'BUG' } }, tickets(), ticketTool());
    const ctx = { ...resolveContext({ projectDir: project.dir }), callId: 'call-1' };
    const tool = h.hooks.tools.for('ReadTicket').call(ctx);
    assert.deepEqual(await tool.execute({ id: 'BUG-2' }, ctx), {
      summary: 'read ticket BUG-2',
      content: 'crash on start\n',
    });
    // A refusal is a result the model reads, not a failure of the run.
    assert.deepEqual(await tool.execute({ id: 'BUG-3' }, ctx), { summary: 'no ticket BUG-3', is_error: true });
  });

  it('refuses to start the tool without the plugin that provides the store, naming both', () => {
    assert.throws(
      () => hostWith(ticketTool()),
      /plugin acme:ticket-tool uses service acme:tickets\.store .*which no plugin provides/,
    );
  });

  it('rejects a bad config section at pod start, naming the key', async () => {
    await assert.rejects(
      startPod({ plugins: [...defaultPlugins(), tickets()], config: { tickets: { prefix: 'bug' } } }),
      /tickets\.prefix/,
    );
  });

  it('resolves a ticket_ref sent to a real pod, and refuses a payload its schema rejects', async () => {
    const pod = await startPod({
      plugins: [...defaultPlugins(), tickets(), ticketTool()],
      files: { 'tickets/T-12.md': TICKET },
    });
    try {
      assert.ok(
        pod.client.welcome?.segments?.some((s) => s.kind === 'ticket_ref' && s.sigil === '!' && s.field === 'id'),
      );
      const events = await pod.run([
        { kind: 'text', content: 'what is T-12 about?' },
        { kind: 'ticket_ref', id: 'T-12' },
      ]);
      const reply = events.find((e) => e.event === 'text_done');
      assert.match(reply.data.text, /\[Ticket: T-12\]\n# T-12: the login page/);
      const bad = await pod.run([{ kind: 'ticket_ref', id: 12 }]);
      const alert = bad.find((e) => e.event === 'alert');
      assert.match(alert.data.message, /id/);
    } finally {
      await pod.stop();
    }
  });
});
