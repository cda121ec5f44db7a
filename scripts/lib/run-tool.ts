// Runs a CLI from node_modules/.bin with inherited or captured output, without a shell.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './repo.js';

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment for @asyncapi/cli: analytics off (offline machines print `fetch failed` otherwise). */
export function asyncapiEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CI: 'true', ASYNCAPI_METRICS: 'false', NODE_OPTIONS: '--unhandled-rejections=warn' };
}

export function bin(name: string): string {
  return path.join(repoRoot, 'node_modules', '.bin', name);
}

export function runTool(
  name: string,
  args: string[],
  options: { capture?: boolean; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(name), args, {
      cwd: options.cwd ?? repoRoot,
      env: options.env ?? process.env,
      stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
