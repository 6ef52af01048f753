// `npm run keys -- ...`: the package's `scimkit keys` command, on the example server's data
// folder unless DATABASE_URL or SCIMKIT_DATA_DIR says otherwise.
import { runCli } from '../../src/cli/run-cli.js';
import { DEFAULT_DATA_DIR } from './config.js';

const env = { ...process.env };
if (!env.DATABASE_URL?.trim() && !env.SCIMKIT_DATA_DIR?.trim())
  env.SCIMKIT_DATA_DIR = DEFAULT_DATA_DIR;
void runCli(process.argv.slice(2), {
  env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
  process.exitCode = code;
});
