#!/usr/bin/env node
/**
 * esign-sandbox: parse flags (and ESIGN_SANDBOX_* variables), start a sandbox, say where it listens.
 */
import { HELP, parseCli } from './cli-args.js';
import { elapsedSince, monotonicNow } from './clock.js';
import { ConfigError, DEFAULT_PORT } from './config.js';
import { type Sandbox, createSandbox } from './sandbox.js';
import { VERSION } from './version.js';

async function main(): Promise<void> {
  const started = monotonicNow();
  const parsed = parseCli(process.argv.slice(2), process.env);
  if (parsed.help) return void console.log(HELP);
  if (parsed.version) return void console.log(VERSION);

  // Handlers go in before anything starts, so a stop at any moment exits cleanly and flushes the data file.
  let sandbox: Sandbox | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping${parsed.options.data ? ' and writing the data file' : ''}…`);
    (sandbox ? sandbox.close() : Promise.resolve()).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`esign-sandbox: could not stop cleanly: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  sandbox = await createSandbox(parsed.options, { port: DEFAULT_PORT });
  const url = await sandbox.listen();
  const { config, defaults, services } = sandbox;
  const clock = services.clock.state();
  const lines = [
    `esign-sandbox ${VERSION}: Contract Signing Service sandbox`,
    `  API          ${url}/api`,
    `  Control API  ${url}/__sandbox`,
    ...(defaults.apiKey ? [`  API key      ${defaults.apiKey}`, `  Secret       ${defaults.secret}`] : ['  No platform in the fixtures: create one with POST /__sandbox/platforms']),
    ...(defaults.clientKey ? [`  Client key   ${defaults.clientKey} (${defaults.clientName})`] : []),
    `  Key header   ${headerLabel(config.apiKeyHeader)}`,
    `  Clock        ${clock.mode === 'frozen' ? `frozen at ${clock.now}` : `real, now ${clock.now}`}`,
    `  Data         ${config.data ? `${config.data} (${sandbox.loadedFromFile ? 'loaded' : 'new, seeded from fixtures'})` : 'in memory'}`,
    `Ready in ${Math.round(elapsedSince(started))} ms. Try: curl -s ${url}/__sandbox/health`,
  ];
  console.log(lines.join('\n'));

}

function headerLabel(header: string): string {
  return header
    .split('-')
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1) : part))
    .join('-');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`esign-sandbox: ${error.message}`);
    process.exit(2);
  }
  console.error(`esign-sandbox: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
