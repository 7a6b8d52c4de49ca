import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { startChangeBus } from './change-bus.js';
import { ChangeLog } from './change-log.js';
import { ChangeLogRepository } from './change-log-repository.js';

/**
 * The change log, started after its latest entry, and the bus that wakes it when another process on
 * the database writes (started last, once what listens to the log is subscribed).
 */
export async function changesModule(database: Database, log: FastifyBaseLogger) {
  const repository = new ChangeLogRepository(database);
  const changes = new ChangeLog(database, repository, log);
  await changes.start();
  return {
    changes,
    /** `onResync`: changes may have been missed (the bus lost its connection). */
    startBus: (onResync: () => void) => startChangeBus({ database, changes, repository, log, onResync }),
  };
}
