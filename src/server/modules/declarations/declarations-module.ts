import type { Database } from '../../db/database.js';
import type { DailyStats } from '../stats/daily-stats.js';
import { DeclarationLog, type LogTree } from './declaration-log.js';
import { DeclarationsRepository } from './declarations-repository.js';

/** The hash-chained log of every declared value (read publicly through the public site). */
export function declarationsModule(database: Database, stats: DailyStats, tree?: LogTree) {
  return { log: new DeclarationLog(database, new DeclarationsRepository(database), stats, tree) };
}
