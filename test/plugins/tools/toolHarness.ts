import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PodServices } from '../../../core/hooks/PodServices.js';
import { PluginHost } from '../../../core/plugin/PluginHost.js';
import { Scope, type ScopeConfigInput } from '../../../core/scope/Scope.js';
import { createTestServices } from '../../../testing/createTestServices.js';
import type { ToolOutput } from '../../../core/tools/Tool.js';
import { editTool } from '../../../plugins/tools/editTool.js';
import { globTool } from '../../../plugins/tools/globTool.js';
import { grepTool } from '../../../plugins/tools/grepTool.js';
import { readTool } from '../../../plugins/tools/readTool.js';
import { writeTool } from '../../../plugins/tools/writeTool.js';

/** A real temp dir (canonical), with a `project/` inside and room for things outside it. */
export function sandbox(files: Record<string, string | Buffer> = {}) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-tools-')));
  const project = path.join(root, 'project');
  fs.mkdirSync(project);
  const write = (rel: string, content: string | Buffer) => {
    const file = path.join(project, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  return {
    root,
    project,
    write,
    at: (rel: string) => path.join(project, rel),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The five file tools of one pod, created through their plugins' `tools` taps, over a real
 * scope; `call` validates the input with the tool's schema as the pod does.
 */
export function fileTools(project: string, scopeConfig?: ScopeConfigInput, cwd = project) {
  const host = new PluginHost();
  host.applyPlugins([readTool(), writeTool(), editTool(), globTool(), grepTool()]);
  host.start();
  const services: PodServices = createTestServices({ projectDir: project, scope: new Scope(scopeConfig, project) });
  const files = services.files;
  const info = { podName: 'test', cwd, projectDir: project, services, launch: {} };
  const call = async (
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<ToolOutput> => {
    const tool = host.hooks.tools.get(name)!.call(info)!;
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        summary: `Invalid argument: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`,
        is_error: true,
      };
    }
    return tool.execute(parsed.data, { ...info, signal, callId: 'c1' });
  };
  return { call, files, services };
}
