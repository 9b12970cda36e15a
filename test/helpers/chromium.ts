// Debian's Chromium for the browser tests, driven by playwright-core. A test without it says why and is skipped;
// in CI (CI set) a missing browser is a failure, never a silent pass.

import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser is installed; prints why a test file is skipped, and throws in CI. */
export function chromiumPresent(testName: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  const why = `browser tests need ${CHROMIUM} (apt-get install -y chromium)`;
  if (process.env.CI) throw new Error(`${why}: it is missing in CI`);
  console.log(`${testName} skipped: ${why}`);
  return false;
}

/** Headless, without sandbox or GPU (software WebGL through SwiftShader, which MapLibre needs). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
}
