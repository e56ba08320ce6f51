#!/usr/bin/env node
// The GitHub Action's step (action.yml): runs `conformance run` with the action's inputs, writes the job summary and the outputs.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The inputs of action.yml, as the composite step hands them over (INPUT_<NAME>). */
export const INPUTS = ['config', 'base-url', 'reporters', 'fail-on', 'out', 'args', 'version'];

/** An input's value ('' when not given). */
function input(env, name) {
  return (env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] ?? '').trim();
}

/** Words of a command-line string, with '...' and "..." quoting and \ escapes (no expansion of any kind). */
export function splitArgs(text) {
  const words = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
      continue;
    }
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    word ??= '';
    if (c === '"' || c === "'") quote = c;
    else if (c === '\\' && i + 1 < text.length) word += text[++i];
    else word += c;
  }
  if (quote) throw new Error(`args: unbalanced quotes in ${JSON.stringify(text)}`);
  if (word !== null) words.push(word);
  return words;
}

/**
 * What the step runs: the command (the installed package, else npx of this action's version) and
 * the arguments of `conformance run`. Throws on an input that cannot be right.
 */
export function actionCommand(env, cwd = process.cwd()) {
  const failOn = input(env, 'fail-on') || 'error';
  if (!['error', 'warning'].includes(failOn))
    throw new Error(`fail-on must be "error" or "warning" (got "${failOn}")`);
  const reporters = (input(env, 'reporters') || 'console,json,junit,markdown')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  // The job summary comes from the markdown reporter (it appends to $GITHUB_STEP_SUMMARY).
  if (env.GITHUB_STEP_SUMMARY && !reporters.includes('markdown')) reporters.push('markdown');
  const out = input(env, 'out') || 'reports';
  const args = ['run', '--reporter', reporters.join(','), '--fail-on', failOn, '--out', out];
  const config = input(env, 'config');
  if (config) args.push('--config', config);
  const baseUrl = input(env, 'base-url');
  if (baseUrl) args.push('--base-url', baseUrl);
  args.push(...splitArgs(input(env, 'args')));

  const version = input(env, 'version');
  const installed = join(cwd, 'node_modules', manifest.name, 'bin', 'conformance');
  let command;
  if (env.CONFORMANCE_ACTION_BIN) command = [process.execPath, env.CONFORMANCE_ACTION_BIN];
  else if (!version && existsSync(installed)) command = [process.execPath, installed];
  else command = ['npx', '--yes', '-p', `${manifest.name}@${version || manifest.version}`, 'conformance'];
  return { command, args, out };
}

/** Appends `text` to a GitHub file command ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY) when it is set. */
function append(file, text) {
  if (file) appendFileSync(file, text);
}

async function main() {
  const env = process.env;
  let plan;
  try {
    plan = actionCommand(env);
  } catch (error) {
    process.stderr.write(`::error title=conformance::${error.message}\n`);
    append(env.GITHUB_STEP_SUMMARY, `### ❌ Conformance audit could not run\n\n${error.message}\n`);
    append(env.GITHUB_OUTPUT, 'exit-code=2\n');
    return 2;
  }
  const [program, ...first] = plan.command;
  process.stdout.write(`conformance action: ${[...plan.command.slice(1), ...plan.args].join(' ')}\n`);
  const child = spawn(program, [...first, ...plan.args], {
    stdio: ['ignore', 'inherit', 'pipe'],
    shell: process.platform === 'win32' && program === 'npx',
  });
  // stderr is passed through, and its last lines kept for the summary when the audit cannot run.
  let tail = '';
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  });
  const code = await new Promise((resolve) => {
    child.on('error', (error) => {
      tail += `${error.message}\n`;
      resolve(2);
    });
    child.on('close', (status, signal) => resolve(status ?? (signal ? 130 : 2)));
  });
  append(env.GITHUB_OUTPUT, `exit-code=${code}\nreport-dir=${plan.out}\n`);
  if (code === 2) {
    // No report was written: the summary says why, in the tool's own words.
    const lines = tail.trim().split('\n').slice(-15).join('\n');
    append(
      env.GITHUB_STEP_SUMMARY,
      `### ❌ Conformance audit could not run (exit 2)\n\n\`\`\`\n${lines.replace(/```/g, "'''")}\n\`\`\`\n`,
    );
  }
  return code;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await main();
