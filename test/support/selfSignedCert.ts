import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl in a temp dir. */
export function selfSignedCert(): { dir: string; cert: string; key: string; pem: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const r = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return { dir, cert, key, pem: fs.readFileSync(cert) };
}
