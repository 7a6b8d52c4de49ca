/**
 * The browser every test and acceptance check drives: Debian's Chromium (Playwright never downloads
 * one), started as root without the sandbox, and kept off the network this machine does not have
 * (without these flags Chromium opens many refused connections at each start).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
