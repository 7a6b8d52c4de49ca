import type { SeedSummary } from '../lib/seed.js';

/**
 * The acceptance checks drive a real, separately started server from outside, over HTTP, the way
 * an operator or a visitor would. Each group of checks is a function of one of these shapes; the
 * runner (bench/acceptance/run-acceptance.ts) seeds the data, starts the server and prints every result.
 */
export interface CheckSettings {
  admin: { username: string; password: string };
  /** The servers' LOGIN_MAX_FAILURES. */
  loginMaxFailures: number;
  /** The servers' SITE_TIMEZONE. */
  siteTimezone: string;
}

/** What the groups that run against the runner's seeded server get. */
export interface AcceptanceContext extends CheckSettings {
  /** e.g. http://127.0.0.1:3300 */
  baseUrl: string;
  /** What the database was seeded with (ghadis, agents and their passwords, dates). */
  seed: SeedSummary;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  /** Figures and facts behind the verdict, for the report. */
  detail: string;
}

export type AcceptanceChecks = (context: AcceptanceContext) => Promise<CheckResult[]>;

/** A group that starts servers of its own (e.g. two instances on one database). */
export type StandaloneChecks = (settings: CheckSettings) => Promise<CheckResult[]>;
