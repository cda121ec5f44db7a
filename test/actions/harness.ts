// Runs the steps of a composite GitHub Action (an action.yml of .github/actions/) here, as a runner would:
// `${{ }}` expressions evaluated over inputs (with the action's defaults), steps' outputs, env, github and
// runner; `if:` conditions with the status functions (success(), failure(), always(), cancelled());
// each `run:` step as a bash script (`bash --noprofile --norc -eo pipefail`, GitHub's `shell: bash`)
// with GITHUB_OUTPUT, GITHUB_PATH, GITHUB_ENV and GITHUB_STEP_SUMMARY files read back between steps.
// `uses:` steps are not run: their evaluated `with:` inputs are recorded, and a test may stand in for
// one (copying files for upload/download-artifact); a stand-in that throws fails its step, as the real
// action would. A `run:` step may be replaced by the test (the install of the published package by a
// shim of this repository's CLI), after checking what it was. Each `run:` step has a time-out (as a
// job's timeout-minutes bounds a real one): past it, its process group is killed and the step fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

export interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface ActionFile {
  name: string;
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export function readAction(file: string): ActionFile {
  return YAML.parse(readFileSync(file, 'utf8')) as ActionFile;
}

export interface StepRecord {
  label: string;
  id?: string;
  /** Not run: its `if:` was false. */
  skipped: boolean;
  uses?: string;
  /** A `uses:` step's inputs, evaluated. */
  with?: Record<string, string>;
  /** A `run:` step's exit code. */
  code?: number;
  output?: string;
}

export interface ActionRun {
  steps: StepRecord[];
  /** steps.<id>.outputs */
  outputs: Record<string, Record<string, string>>;
  /** The action's own outputs, evaluated. */
  actionOutputs: Record<string, string>;
  summary: string;
  /** The job's status after the action: failure when a step failed. */
  failed: boolean;
  /** What the action's steps added to the job's PATH (GITHUB_PATH), in order: the later steps of the job see it. */
  path: string[];
}

export interface RunOptions {
  inputs: Record<string, string>;
  /** The job's environment (secrets go here, as `env:` of the job). */
  env?: Record<string, string>;
  /** The workspace (working directory of every step). */
  workspace: string;
  github?: Record<string, string>;
  /** Replaces the script of a `run:` step by id; receives the original script (to check it). */
  replace?: Record<string, (original: string) => string>;
  /** Stands in for a `uses:` step (matched by prefix of `uses`), with its evaluated inputs; throwing fails the step. */
  uses?: Record<string, (inputs: Record<string, string>, runnerTemp: string) => void>;
  /** The time-out of each `run:` step (default 120 s): a hung step fails instead of hanging the test. */
  stepTimeoutMs?: number;
}

export async function runAction(file: string, options: RunOptions): Promise<ActionRun> {
  const action = readAction(file);
  const temp = mkdtempSync(path.join(os.tmpdir(), 'sfc-action-'));
  const files = { summary: path.join(temp, 'summary.md'), output: path.join(temp, 'output'), path: path.join(temp, 'path'), env: path.join(temp, 'env') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  const runnerTemp = mkdtempSync(path.join(temp, 'runner-'));
  const github: Record<string, string> = { run_number: '1', run_id: '1', base_ref: '', workspace: options.workspace, action_path: path.dirname(file), ...options.github };
  const extraPath: string[] = [];
  const jobEnv: Record<string, string> = { ...(options.env ?? {}) };
  const outputs: Record<string, Record<string, string>> = {};
  const records: StepRecord[] = [];
  let failed = false;

  const unknownInput = Object.keys(options.inputs).find((k) => !(k in (action.inputs ?? {})));
  if (unknownInput) throw new Error(`${file}: no input ${unknownInput}`);
  const contexts = (): Contexts => {
    const base = {
      steps: Object.fromEntries(Object.entries(outputs).map(([id, o]) => [id, { outputs: o }])),
      env: jobEnv,
      github,
      runner: { temp: runnerTemp, os: 'Linux' },
      status: { failed },
    };
    // An input's default may itself be an expression (over github, runner, ...), as GitHub allows.
    return { ...base, inputs: Object.fromEntries(Object.entries(action.inputs ?? {}).map(([k, v]) => [k, options.inputs[k] ?? evaluateText(String(v.default ?? ''), base)])) };
  };
  const missing = Object.entries(action.inputs ?? {}).find(([k, v]) => v.required && !options.inputs[k]);
  if (missing) throw new Error(`${file}: input ${missing[0]} is required`);

  for (const [i, step] of action.runs.steps.entries()) {
    const label = step.name ?? step.id ?? step.uses ?? `step ${i}`;
    const ctx = contexts();
    const condition = step.if === undefined ? 'success()' : step.if.replace(/^\s*\$\{\{([\s\S]*)\}\}\s*$/, '$1');
    if (!truthy(evaluate(condition, ctx))) {
      records.push({ label, id: step.id, skipped: true, uses: step.uses });
      continue;
    }
    if (step.uses) {
      const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluateText(String(v), ctx)]));
      const standIn = Object.entries(options.uses ?? {}).find(([prefix]) => step.uses!.startsWith(prefix));
      try {
        standIn?.[1](inputs, runnerTemp);
        records.push({ label, id: step.id, skipped: false, uses: step.uses, with: inputs });
      } catch (error) {
        records.push({ label, id: step.id, skipped: false, uses: step.uses, with: inputs, code: 1, output: `Error: ${(error as Error).message}` });
        failed = true;
      }
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`${file}: step ${label} needs shell: bash (a composite run step must name its shell)`);
    const original = step.run ?? '';
    const script = step.id && options.replace?.[step.id] ? options.replace[step.id](original) : evaluateText(original, ctx);
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluateText(String(v), ctx)]));
    writeFileSync(files.output, '');
    const scriptFile = path.join(temp, `step-${i}.sh`);
    writeFileSync(scriptFile, script);
    const env = {
      ...process.env,
      ...jobEnv,
      ...stepEnv,
      PATH: [...extraPath].reverse().concat(process.env.PATH ?? '').join(path.delimiter),
      GITHUB_ACTIONS: 'true',
      CI: 'true',
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_ACTION_PATH: github.action_path,
      GITHUB_RUN_NUMBER: github.run_number,
      GITHUB_RUN_ID: github.run_id,
      GITHUB_BASE_REF: github.base_ref,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.output,
      GITHUB_PATH: files.path,
      GITHUB_ENV: files.env,
      RUNNER_TEMP: runnerTemp,
      RUNNER_OS: 'Linux',
    };
    const { code, output } = await bash(scriptFile, env, options.workspace, options.stepTimeoutMs ?? 120_000);
    outputs[step.id ?? `__${i}`] = parseCommandFile(readFileSync(files.output, 'utf8'));
    for (const line of readFileSync(files.path, 'utf8').split('\n').filter(Boolean)) if (!extraPath.includes(line)) extraPath.push(line);
    writeFileSync(files.path, '');
    Object.assign(jobEnv, parseCommandFile(readFileSync(files.env, 'utf8')));
    records.push({ label, id: step.id, skipped: false, code, output });
    if (code !== 0) failed = true;
  }
  const ctx = contexts();
  const actionOutputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([k, v]) => [k, evaluateText(String(v.value), ctx)]));
  return { steps: records, outputs, actionOutputs, summary: readFileSync(files.summary, 'utf8'), failed, path: extraPath };
}

/**
 * A `run:` step's script under bash, in a process group of its own, killed whole past `timeoutMs` (exit 124,
 * as timeout(1)) and, pass or fail, when bash exits: a process the step left in the background is stopped
 * then (GitHub's runner stops such orphans at the end of the job; no action here keeps one across steps),
 * instead of outliving the test and holding the step's output pipes open.
 */
function bash(file: string, env: NodeJS.ProcessEnv, cwd: string, timeoutMs: number): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.once('exit', killGroup);
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => (clearTimeout(timer), reject(error)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(timedOut ? { code: 124, output: `${output}\nthe step did not finish within ${timeoutMs} ms: killed` } : { code: code ?? 1, output });
    });
  });
}

/** `name=value` lines and `name<<DELIMITER` ... `DELIMITER` blocks (GITHUB_OUTPUT, GITHUB_ENV). */
export function parseCommandFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = lines[i].indexOf('=');
    if (eq > 0) out[lines[i].slice(0, eq)] = lines[i].slice(eq + 1);
  }
  return out;
}

type Contexts = Record<string, unknown> & { status: { failed: boolean } };

/** A text with `${{ expression }}` parts replaced by their values. */
export function evaluateText(text: string, ctx: Contexts): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => String(evaluate(expr, ctx) ?? ''));
}

function truthy(v: unknown): boolean {
  return v !== '' && v !== false && v !== null && v !== undefined && v !== 0;
}

/**
 * The subset of GitHub's expression language the actions use: context paths (inputs.x, steps.id.outputs.y,
 * env.X, github.x, runner.temp, matrix.x), 'strings', numbers, true/false, ==, !=, !, &&, ||, parentheses,
 * and the status functions. Anything else throws, so an action using more fails its test here instead of
 * being judged wrongly.
 */
export function evaluate(expression: string, ctx: Contexts): unknown {
  const tokens = expression.match(/\s*(==|!=|&&|\|\||!|\(|\)|'(?:[^']|'')*'|[A-Za-z_][\w.-]*\(\)|[A-Za-z_][\w.-]*|\d+)\s*/g) ?? [];
  if (tokens.join('').replace(/\s/g, '') !== expression.replace(/\s/g, '')) throw new Error(`expression not understood: ${expression}`);
  const list = tokens.map((t) => t.trim());
  let at = 0;
  const peek = () => list[at];
  const next = () => list[at++];
  const or = (): unknown => {
    let v = and();
    while (peek() === '||') (next(), (v = truthy(v) ? v : and()));
    return v;
  };
  const and = (): unknown => {
    let v = equality();
    while (peek() === '&&') {
      next();
      const r = equality();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const equality = (): unknown => {
    let v = unary();
    while (peek() === '==' || peek() === '!=') {
      const op = next();
      const r = unary();
      const same = String(v ?? '').toLowerCase() === String(r ?? '').toLowerCase();
      v = op === '==' ? same : !same;
    }
    return v;
  };
  const unary = (): unknown => {
    if (peek() === '!') return (next(), !truthy(unary()));
    if (peek() === '(') {
      next();
      const v = or();
      if (next() !== ')') throw new Error(`expression not understood: ${expression}`);
      return v;
    }
    const t = next();
    if (t === undefined) throw new Error(`expression not understood: ${expression}`);
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d+$/.test(t)) return Number(t);
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'success()') return !ctx.status.failed;
    if (t === 'failure()') return ctx.status.failed;
    if (t === 'always()') return true;
    if (t === 'cancelled()') return false;
    if (t.endsWith('()')) throw new Error(`function ${t} is not supported by the test harness: ${expression}`);
    return t.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), ctx);
  };
  const v = or();
  if (at !== list.length) throw new Error(`expression not understood: ${expression}`);
  return v;
}
