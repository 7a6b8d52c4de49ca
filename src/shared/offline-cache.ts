/**
 * Names the service worker (vite.config.ts) and the web app share (decision 0011).
 */

/** The worker's cache of the agent's API reads, answered network first. */
export const AGENT_READS_CACHE = 'agent-reads';

/** The header, and its value, the worker adds to an answer it takes from that cache. */
export const SERVED_FROM_HEADER = 'x-served-from';
export const SERVED_FROM_CACHE = 'sw-cache';
