/**
 * The time now, in epoch milliseconds. Limits and throttles read it through this type so that tests
 * hand them a clock they move forward instead of waiting on the real one.
 */
export type Now = () => number;

export const systemNow: Now = () => Date.now();
