#!/usr/bin/env node
// nostr-agents (alias agx): dispatches to one module per subcommand, loaded on demand.
const COMMANDS = {
  relay: { load: () => import('./relay-server/cli.js'), summary: 'run a local Nostr relay for development' },
};

function usage(out) {
  const lines = ['usage: nostr-agents <command> [options]', '', 'commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(10)} ${c.summary}`);
  lines.push('', 'Run `nostr-agents <command> --help` for the options of a command.');
  out.write(lines.join('\n') + '\n');
}

const [name, ...rest] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
  usage(name === undefined ? process.stderr : process.stdout);
  process.exit(name === undefined ? 1 : 0);
}
const command = COMMANDS[name];
if (!command) {
  process.stderr.write(`nostr-agents: unknown command "${name}"\n`);
  usage(process.stderr);
  process.exit(1);
}
try {
  const mod = await command.load();
  const code = await mod.run(rest);
  if (typeof code === 'number') process.exitCode = code;
} catch (err) {
  process.stderr.write(`nostr-agents ${name}: ${err && err.message ? err.message : err}\n`);
  process.exit(1);
}
