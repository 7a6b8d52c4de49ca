import { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import type { AssignmentsRepository } from '../assignments/assignments-repository.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import type { GhadisService } from '../ghadis/ghadis-service.js';
import { IdempotencyKeys } from '../idempotency/idempotency-keys.js';
import { IdempotencyKeysRepository } from '../idempotency/idempotency-keys-repository.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import type { NotificationOutbox } from '../notifications/notification-outbox.js';
import { PendingRepository } from '../pending/pending-repository.js';
import { ResultSubmissions } from './result-submissions.js';
import { ResultsChartRepository } from './results-chart-repository.js';
import { ResultsCsvRepository } from './results-csv-repository.js';
import { ResultsCsvService } from './results-csv-service.js';
import { ResultsListRepository } from './results-list-repository.js';
import { resultsRoutes } from './results-routes.js';
import { ResultsService } from './results-service.js';
import { ResultsWriteRepository } from './results-write-repository.js';

export interface ResultsModuleNeeds {
  ghadis: GhadisService;
  assignments: AssignmentsRepository;
  declarations: DeclarationLog;
  /** Where declarations and corrections are enqueued to be notified, in their transaction. */
  notifications?: NotificationOutbox;
  /** Told of each accepted submission or import (the metrics). */
  onDeclared?: (source: 'admin' | 'agent' | 'import', count?: number) => void;
}

/** The results: declared (with idempotency keys), imported and exported as CSV, and their history. */
export function resultsModule(context: ModuleContext, needs: ResultsModuleNeeds) {
  const { database, config, changes, activity, now } = context;
  const writes = new ResultsWriteRepository(database);
  const lists = new ResultsListRepository(database);
  const pending = new PendingRepository(database);
  const service = new ResultsService({
    lists,
    charts: new ResultsChartRepository(database),
    assignments: needs.assignments,
    timeZone: config.siteTimezone,
  });
  const submissions = new ResultSubmissions({
    writes,
    lists,
    ghadis: needs.ghadis,
    assignments: needs.assignments,
    timeZone: config.siteTimezone,
    changes,
    declarations: needs.declarations,
    keys: new IdempotencyKeys(new IdempotencyKeysRepository(database), now),
    pending,
    perUser: new PerMinuteLimit(config.submissionsPerUserPerMinute, now),
    activity,
    notifications: needs.notifications,
    onDeclared: (source) => needs.onDeclared?.(source),
  });
  const csv = new ResultsCsvService({
    csv: new ResultsCsvRepository(database),
    writes,
    changes,
    declarations: needs.declarations,
    activity,
    timeZone: config.siteTimezone,
    onImported: (count) => needs.onDeclared?.('import', count),
  });
  const routes: ModuleRoutes = (app) =>
    app.register(resultsRoutes, { results: service, csv, declarations: needs.declarations });
  return { service, submissions, routes, writes, pending };
}
