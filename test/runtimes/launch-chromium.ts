// Starts Debian's Chromium through playwright-core (never a downloaded browser build): the browser
// suite and the playground test share these flags. CHROMIUM_PATH overrides the binary.
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches Chromium; when the binary is missing, says how to install it and exits 1 (no playwright stack trace). */
export function launchChromium(): Promise<Browser> {
  const executablePath = globalThis.process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  try {
    accessSync(executablePath, constants.X_OK);
  } catch {
    console.error(
      `Chromium is not installed at ${executablePath}. Install Debian's package:\n` +
        '  sudo apt-get install -y chromium\n' +
        'or point CHROMIUM_PATH at a Chromium or Chrome binary. (glimpse never downloads a browser build.)',
    );
    globalThis.process.exit(1);
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
}
