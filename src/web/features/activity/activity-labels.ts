import type { ActivityAction } from '../../../shared/schemas/activity.js';

/** Each action as the trail's reader says it; the record type makes a new action need its words. */
export const ACTION_LABELS: Record<ActivityAction, string> = {
  login: 'Signed in',
  login_failed: 'Sign-in failed',
  logout: 'Signed out',
  session_end: 'Sessions ended',
  password_change: 'Own password changed',
  two_factor_enable: 'Two-factor sign-in turned on',
  two_factor_disable: 'Two-factor sign-in turned off',
  user_create: 'User created',
  user_update: 'User updated',
  user_delete: 'User deleted',
  ghadi_create: 'Ghadi created',
  ghadi_update: 'Ghadi updated',
  ghadi_delete: 'Ghadi deleted',
  holiday_create: 'Holiday added',
  holiday_delete: 'Holiday removed',
  assignment_create: 'Ghadi assigned',
  assignment_delete: 'Assignment deleted',
  content_create: 'Content block created',
  content_update: 'Content block updated',
  content_delete: 'Content block deleted',
  result_declare: 'Result declared',
  result_correct: 'Result corrected',
  result_hold: 'Result held for a second person',
  result_mismatch: 'Result differs from another entry',
  pending_discard: 'Pending results discarded',
  results_import: 'Results imported',
};

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
