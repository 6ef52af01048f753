#!/usr/bin/env node
// The `scimkit` command: `npx scimkit keys issue --tenant district-42`, see docs/keys.md.
import { runCli } from './run-cli.js';

void runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stdout: process.stdout,
}).then((code) => {
  process.exitCode = code;
});
