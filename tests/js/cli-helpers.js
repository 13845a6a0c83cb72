// Runs the real CLI (node js/cli.js) as child processes, with a private AGX_HOME per test file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));

/** A temp AGX_HOME and an env for the CLI pointing at `relayUrl`; cleanup() removes the folder. */
export function cliEnv(relayUrl) {
  const home = mkdtempSync(join(tmpdir(), 'nostr-agents-cli-'));
  const env = { ...process.env, AGX_HOME: join(home, 'agx'), AGX_RELAY: relayUrl ?? '' };
  delete env.AGX_PROFILE;
  return { home, env, agxHome: env.AGX_HOME, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** A running CLI process: its output so far, waitFor(pattern), signal(), and `done` ({code, stdout, stderr}). */
export function startCli(args, { env, input, cwd } = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const proc = { child, stdout: '', stderr: '' };
  const waiters = [];
  const check = () => {
    for (const w of [...waiters]) {
      const hay = w.stream === 'stdout' ? proc.stdout : proc.stderr;
      if (w.pattern.test(hay)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(hay);
      }
    }
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d) => ((proc.stdout += d), check()));
  child.stderr.on('data', (d) => ((proc.stderr += d), check()));
  proc.done = new Promise((resolve) => {
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0))
        w.reject(new Error(`process ended (code ${code}) before ${w.stream} matched ${w.pattern}\nstdout: ${proc.stdout}\nstderr: ${proc.stderr}`));
      resolve({ code, signal, stdout: proc.stdout, stderr: proc.stderr });
    });
  });
  if (input !== undefined) child.stdin.end(input);
  else child.stdin.end();
  /** Resolves once `stream` matches `pattern` (rejects if the process ends first). */
  proc.waitFor = (pattern, stream = 'stderr') =>
    new Promise((resolve, reject) => {
      waiters.push({ pattern, stream, resolve, reject });
      check();
    });
  proc.signal = (sig = 'SIGINT') => child.kill(sig);
  /** SIGINT, then the result. */
  proc.stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    return proc.done;
  };
  return proc;
}

/** Runs the CLI to completion: { code, stdout, stderr }. */
export function cli(args, opts) {
  return startCli(args, opts).done;
}

/** Every non-empty line of `text` parsed as JSON. */
export function jsonLines(text) {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}
