/*
 * A user agent as a person reads it, wherever the app shows one: the activity trail, and the
 * sessions on the Account page.
 */

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\bFxiOS\/(\d+)/, 'Firefox'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\bHeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/\bChrome\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[\d.]*(?: Mobile\/\S+)? Safari\//, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A user agent in a few words: "Chrome 131 on Android", "Safari 18 on iPhone", or for a tool its
 * first product ("curl 8.5.0"); "Unknown" for none. The full text goes in a title beside it.
 */
export function shortUserAgent(userAgent: string): string {
  const text = userAgent.trim();
  if (!text) return 'Unknown';
  const system = SYSTEMS.find(([pattern]) => pattern.test(text))?.[1];
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(text);
    if (match) return `${name} ${match[1]}${system ? ` on ${system}` : ''}`;
  }
  const product = /^([^\s/;()]+)(?:\/(\S+))?/.exec(text);
  if (product && !/^Mozilla$/i.test(product[1] ?? '')) {
    return product[2] ? `${product[1]} ${product[2]}` : (product[1] ?? text);
  }
  return system ?? text.slice(0, 40);
}
