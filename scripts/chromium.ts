// Debian's chromium as the browser tests and the bench drive it (playwright-core, no bundled
// browser): CHROMIUM_PATH or /usr/bin/chromium, without the background work a profile would start.
import { chromium, type Browser } from 'playwright-core';

/** `extraArgs` for a caller's own needs (e.g. a fake camera). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
