/**
 * The acceptance checks drive a real, separately started server from outside, over HTTP, the way
 * an operator or a visitor would. Each group of checks is a function of this shape; the runner
 * (bench/acceptance/run.ts) seeds the data, starts the server and prints every result.
 */
export interface AcceptanceContext {
  /** e.g. http://127.0.0.1:3300 */
  baseUrl: string;
  admin: { username: string; password: string };
  /** The server's LOGIN_MAX_FAILURES. */
  loginMaxFailures: number;
  /** The server's SITE_TIMEZONE. */
  siteTimezone: string;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  /** Figures and facts behind the verdict, for the report. */
  detail: string;
}

export type AcceptanceChecks = (context: AcceptanceContext) => Promise<CheckResult[]>;
