import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/** Where a Chromium executable is looked for: `$CHROMIUM_PATH`, then Debian's and Ubuntu's. */
export const CHROMIUM_CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
].filter((path): path is string => path !== undefined && path !== '');

/** The first Chromium executable found, or undefined when there is none. */
export function findChromium(): string | undefined {
  return CHROMIUM_CANDIDATES.find((path) => existsSync(path));
}

/** How the browser test and the screenshot script launch it: headless, no sandbox (CI runs as root). */
export function launchOptions(executablePath: string): LaunchOptions {
  return { executablePath, args: ['--no-sandbox'], headless: true };
}
