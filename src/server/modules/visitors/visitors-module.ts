import type { IncomingMessage } from 'node:http';
import { clientAddressOf, clientGroup, type TrustProxy } from '../../lib/client-address.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import type { DailyStats } from '../stats/daily-stats.js';
import { VISITOR_LIMITS, VisitorCounter } from './visitor-counter.js';
import { VisitorsRepository } from './visitors-repository.js';
import { visitorsRoutes } from './visitors-routes.js';

/** The visitor counter: counted in memory, written in batches; started here, stopped with the app. */
export async function visitorsModule(
  { database, config, log, now }: ModuleContext,
  needs: {
    stats: DailyStats;
    onFlush: (written: boolean) => void;
    /** Which proxies' X-Forwarded-For is believed: the one Fastify is given too. */
    trust: TrustProxy | false;
  },
) {
  const counter = new VisitorCounter(
    new VisitorsRepository(database, needs.stats),
    config.visitorFlushMs,
    log,
    { ...VISITOR_LIMITS, newSessionsPerAddressPerMinute: config.visitorNewSessionsPerMinute },
    needs.onFlush,
    now,
    database.health,
  );
  await counter.start();
  const routes: ModuleRoutes = (app) => app.register(visitorsRoutes, { visitors: counter });
  return {
    /** Counts a visit the public site's fast path answered, as POST /api/visitor/track does. */
    track: (sessionId: string, request: IncomingMessage) =>
      counter.track(sessionId, clientGroup(clientAddressOf(request, needs.trust))),
    /** Writes what is counted: the app's last step on close. */
    stop: () => counter.stop(),
    routes,
  };
}
