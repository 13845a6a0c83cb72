// The passphrase of an encrypted key file (NIP-49 ncryptsec): from the file that --passphrase-file
// (or AGX_PASSPHRASE_FILE) names, else typed at the terminal with echo off. Never from argv or an
// environment value: both are visible to other processes (`ps`, /proc) and kept in shell history.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import { CliError, EXIT } from './common.js';
import { requirePrivate } from './settings.js';

// Read by the shell with the terminal's echo off; the trap puts echo back however it ends
// (Ctrl-C included). The line comes back on a pipe, never through argv.
const READ_HIDDEN = `trap 'stty echo 2>/dev/null' EXIT INT TERM HUP
stty -echo 2>/dev/null
printf '%s' "$1" >&2
IFS= read -r line
status=$?
printf '\\n' >&2
printf '%s' "$line"
exit $status`;

/**
 * One line typed at the controlling terminal without echo; null when there is no terminal (or,
 * with onlyIfStdinIsTerminal, when stdin is not one: then the caller reads stdin).
 */
export function readHidden(prompt, { onlyIfStdinIsTerminal = false } = {}) {
  if (onlyIfStdinIsTerminal && !isatty(0)) return null;
  let tty;
  try {
    tty = openSync('/dev/tty', 'r+');
  } catch {
    return null;
  }
  try {
    const r = spawnSync('sh', ['-c', READ_HIDDEN, 'sh', prompt], { stdio: [tty, 'pipe', tty], encoding: 'utf8' });
    if (r.status !== 0 || r.error) throw new CliError(EXIT.INTERRUPTED, 'no passphrase was typed');
    return r.stdout;
  } finally {
    closeSync(tty);
  }
}

function fromFile(file) {
  if (!existsSync(file)) throw new CliError(EXIT.SETUP, `--passphrase-file ${file}: no such file`);
  requirePrivate(file);
  // The whole file but one final newline: a passphrase may have spaces at either end.
  return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
}

/**
 * The passphrase for `what` (a key file being unlocked, or `confirm: true` for one being made:
 * typed twice). EXIT.SETUP, saying how to give one, when there is neither a file nor a terminal.
 */
export function passphraseFor(settings, what, { confirm = false } = {}) {
  let pass;
  if (settings.passphraseFile) pass = fromFile(settings.passphraseFile);
  else {
    pass = readHidden(`Passphrase for ${what}: `);
    if (pass === null)
      throw new CliError(
        EXIT.SETUP,
        `${what} needs a passphrase: give --passphrase-file FILE (mode 0600; or AGX_PASSPHRASE_FILE), or run in a terminal to type it`,
      );
    if (confirm && readHidden('Again: ') !== pass) throw new CliError(EXIT.USAGE, 'the two passphrases differ');
  }
  if (confirm && pass.length === 0) throw new CliError(EXIT.USAGE, 'an empty passphrase protects nothing: choose one');
  return pass;
}
