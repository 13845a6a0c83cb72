// `relay`: the dev relay's own command line (js/relay-server/cli.js).
export async function run(argv) {
  const { run: runRelay } = await import('../relay-server/cli.js');
  return runRelay(argv);
}
