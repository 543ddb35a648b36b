import fs from 'node:fs';

/** A hand-over file is small: server names, commands, URLs, a few variables. */
const MAX_BYTES = 1024 * 1024;

/**
 * Reads `pod start --mcp-servers FILE`: a JSON object of MCP servers in the config's
 * `mcp.servers` form, added to the config's servers for this pod only (`yoi acp` hands over the
 * servers an editor passes this way: their variables may hold secrets, so never on a command
 * line). Opened without following a link; it must be the user's own regular file, writable by
 * nobody else. Each server is checked by the MCP plugin, which owns that schema.
 */
export async function readMcpServersFile(file: string): Promise<Record<string, unknown>> {
  const { YoiError } = await import('../core/errors/YoiError.js');
  const fail = (why: string) => new YoiError('YOI_ERR_USAGE', `--mcp-servers ${file}: ${why}`);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw fail(code === 'ELOOP' ? 'is a symbolic link' : code === 'ENOENT' ? 'no such file' : (e as Error).message);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw fail('not a regular file');
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw fail('not owned by this user');
    if ((st.mode & 0o022) !== 0) throw fail('writable by others');
    if (st.size > MAX_BYTES) throw fail(`larger than ${MAX_BYTES} bytes`);
    let value: unknown;
    try {
      value = JSON.parse(fs.readFileSync(fd, 'utf8'));
    } catch (e) {
      throw fail(`not JSON: ${(e as Error).message}`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw fail('expected a JSON object of servers by name');
    return value as Record<string, unknown>;
  } finally {
    fs.closeSync(fd);
  }
}
