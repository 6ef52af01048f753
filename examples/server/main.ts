// The runnable example service: `npm start` at the repository root.
import { readConfig } from './config.js';
import { EVENTS_PATH } from './events/events-route.js';
import { startServer } from './server.js';

async function main(): Promise<void> {
  const config = readConfig();
  const running = await startServer(config);
  console.log(`Store: ${running.storeDescription}`);
  console.log(`scimkit example server listening at ${running.url}`);
  if (config.publicUrl) console.log(`Public URL (SCIMKIT_PUBLIC_URL): ${config.publicUrl}`);
  console.log(
    `Provisioning console: ${running.consoleUrl} (sign in with a tenant id and its API key)`,
  );
  console.log(`Event feed: ${new URL(running.url).origin}${EVENTS_PATH} (a tenant's API key)`);
  if (config.webhook)
    console.log(
      `Webhooks: every tenant's events are POSTed to ${new URL(config.webhook.url).origin}`,
    );
  const dev = running.devKey;
  if (dev) {
    console.log(
      `\nNo SCIM_API_KEYS set: API keys come from the key store (npm run keys -- keys list --tenant dev).`,
    );
    console.log(`Using ${dev.note}.`);
  }
  if (dev?.key) {
    console.log(`  ${dev.key}\n`);
    console.log('Try it:');
    console.log(
      `  curl -s -H 'Authorization: Bearer ${dev.key}' -H 'Content-Type: application/scim+json' \\\n` +
        `    -d '{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"ada@example.org","active":true,"name":{"givenName":"Ada","familyName":"Lovelace"}}' \\\n` +
        `    ${running.url}/Users\n`,
    );
  } else if (!dev) {
    console.log(
      `API keys configured for tenants: ${[...new Set(config.keys.map((k) => k.tenant))].join(', ')}`,
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    // A second Ctrl-C does not wait for the clean shutdown.
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`${signal} received: finishing the requests in flight, then shutting down`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
