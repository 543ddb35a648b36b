import fs from 'node:fs';
import path from 'node:path';
import { YoiError } from '../../core/errors/YoiError.js';
import { listPods } from '../../client/listPods.js';
import { isSocketLive } from '../../core/pod/podFiles.js';
import { runtimeBase } from '../../core/pod/runtimePaths.js';
import { McpStateFileSchema, type McpStateFile } from '../../plugins/mcp/McpStateSchema.js';
import { MCP_STATE_FILE } from '../../plugins/mcp/mcpPlugin.js';
import { resolvePodTarget, type PodTargetFlags } from '../podTarget.js';

/** Largest mcp.json read (a server lists at most 1000 of each kind). */
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * The MCP state the addressed pod wrote (`<runtime dir>/<pod>/mcp.json`), or undefined when it
 * has no MCP plugin. The file is opened without following links and must be a regular file of
 * this user; the pod must be running (a stale file says nothing).
 */
export async function readMcpState(flags: PodTargetFlags): Promise<{ name: string; state?: McpStateFile }> {
  const target = await resolvePodTarget(flags);
  let name = target.name;
  if (flags.socket) {
    // A socket given by path: the pod is the one whose status names that socket.
    const socket = path.resolve(flags.socket);
    name = (await listPods()).find((p) => p.socket === socket)?.name ?? path.basename(path.dirname(socket));
  }
  if (!(await isSocketLive(target.socket))) {
    throw new YoiError('YOI_ERR_POD_NOT_FOUND', `pod ${name} is not running (no pod listens on ${target.socket})`);
  }
  const file = path.join(runtimeBase(), name, MCP_STATE_FILE);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { name };
    throw new YoiError('YOI_ERR_CONNECTION', `cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    const st = fs.fstatSync(fd);
    const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
    if (!st.isFile() || st.uid !== uid)
      throw new YoiError('YOI_ERR_CONNECTION', `refusing ${file}: not a regular file owned by this user`);
    if (st.size > MAX_BYTES)
      throw new YoiError('YOI_ERR_CONNECTION', `refusing ${file}: larger than ${MAX_BYTES} bytes`);
    const text = fs.readFileSync(fd, 'utf8');
    const parsed = McpStateFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new YoiError(
        'YOI_ERR_CONNECTION',
        `${file} is not a valid MCP state file: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      );
    return { name, state: parsed.data };
  } catch (e) {
    if (e instanceof SyntaxError) throw new YoiError('YOI_ERR_CONNECTION', `${file} is not valid JSON: ${e.message}`);
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}
