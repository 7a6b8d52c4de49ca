/** Fastify's hooks that run before a route's handler, in the order they run. */
export const REQUEST_HOOKS = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;
export type RequestHook = (typeof REQUEST_HOOKS)[number];

export interface HookParity {
  /** `mirrors`: the fast path does the same itself; `skips`: its answers have no need of it. */
  fastPath: 'mirrors' | 'skips';
  why: string;
}

/**
 * Every request hook Fastify has on a route the fast path answers (by hook, then function name), and
 * what the fast path does about it. The fast path answers before Fastify, so none of these hooks runs
 * for its answers: a hook added to those routes later (maintenance mode, an address block, another
 * access rule) must be mirrored in fast-path.ts or shown to be needless, and listed here; the
 * hook-parity test (tests/integration/fast-path-hooks.test.ts) fails until it is.
 */
export const FAST_PATH_HOOKS: Record<RequestHook, Record<string, HookParity>> = {
  onRequest: {
    checkAccess: {
      fastPath: 'mirrors',
      why:
        'the hook lets `public` routes through untouched and looks at `optional` ones only when a ' +
        'token is sent; the fast path leaves every request with an Authorization header on an ' +
        '`optional` read to Fastify',
    },
    onRequest: {
      fastPath: 'skips',
      why:
        "@fastify/compress's, on reads answered live: a built answer is kept compressed in every " +
        'encoding, and the fast path sends the one Accept-Encoding asks for',
    },
  },
  preParsing: {
    preParsing: {
      fastPath: 'skips',
      why:
        "@fastify/compress's request-body decompression, on reads answered live: the fast path takes " +
        'GET and HEAD requests, and only a bodiless POST /api/visitor/track',
    },
  },
  preValidation: {},
  preHandler: {},
};
