import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { Change, LoggedChange } from '../../modules/changes/change.js';
import type { ChangeLog } from '../../modules/changes/change-log.js';
import type { AnswerCache } from '../model/answer-cache.js';
import { keysDroppedBy } from '../model/answer-keys.js';
import { ReadModel } from '../model/read-model.js';
import { type Rollover, SiteClock } from '../model/site-clock.js';
import type { SiteSources } from '../model/site-sources.js';
import type { LiveEvents } from './live-event-streams.js';
import type { PurgeSender } from './purge-sender.js';

export interface ChangePublisherOptions {
  sources: SiteSources;
  changes: ChangeLog;
  timeZone: string;
  log: FastifyBaseLogger;
  /** The open pages' event streams. */
  events: LiveEvents;
  /** The kept answers. */
  answers: AnswerCache;
  /** Where this process's changes are purged from a shared cache in front of the site (PURGE_URL), or null. */
  purges: PurgeSender | null;
}

/** What a change looks like to an open page: the change with the data it changed, as the API shows it now. */
async function liveEventFor(change: Change, model: ReadModel, sources: SiteSources): Promise<LiveEvent> {
  switch (change.kind) {
    case 'result': {
      const [ghadis, result, declaration] = await Promise.all([
        model.ghadis(),
        change.shown?.result ?? sources.result(change.gid, change.date),
        change.shown?.declaration ?? sources.declaration(change.gid, change.date),
      ]);
      const ghadi = ghadis.find((row) => row.GID === change.gid) ?? null;
      return { kind: 'result', gid: change.gid, date: change.date, ghadi, result, declaration };
    }
    case 'ghadi': {
      const ghadi = (await model.ghadis()).find((row) => row.GID === change.gid) ?? null;
      return { kind: 'ghadi', gid: change.gid, ghadi };
    }
    case 'content':
      return { kind: 'content', slug: change.slug, block: await model.content(change.slug) };
    case 'holiday':
    case 'results-imported':
      // One event for the whole import, not one per result: every open page reloads once.
      return { kind: 'resync' };
    case 'day': {
      const recordMonth = change.utcDate.slice(0, 7);
      // A new UTC month starts a new record chart; otherwise the page keeps the one it has.
      const newMonth = change.utcDate.endsWith('-01');
      const [ghadis, record] = await Promise.all([
        model.ghadis(),
        newMonth ? model.results(recordMonth) : null,
      ]);
      return {
        kind: 'day',
        today: change.today,
        recordMonth,
        ghadis,
        record: record?.filter((result) => result.Name) ?? null,
      };
    }
  }
}

/**
 * The public site's moving parts: the read model (its caches), the live event streams, and the site's
 * clock. Every change in the log drops the answers that show what it changed and goes out to open
 * pages with its data; a change this process made is also purged from the shared cache in front.
 */
export class ChangePublisher {
  readonly model: ReadModel;
  readonly events: LiveEvents;
  private readonly clock: SiteClock;
  /** Events are built and sent one after another, in log order. */
  private publishing: Promise<void> = Promise.resolve();
  private readonly unsubscribe: Array<() => void> = [];
  /** The latest rollover this process applied when its clock saw it (its logged copy is not applied twice). */
  private rolled: string | undefined;

  constructor(private readonly options: ChangePublisherOptions) {
    this.clock = new SiteClock(options.timeZone, (rollover) => this.dayRolledOver(rollover));
    this.model = new ReadModel(
      options.sources,
      () => this.clock.today(),
      () => this.clock.rollOverIfDue(),
      options.timeZone,
      options.answers,
    );
    this.events = options.events;
  }

  /** Starts after the change log's latest entry (ChangeLog.start first). */
  start(): void {
    const { changes, purges, answers } = this.options;
    const latest = changes.lastAppliedId;
    this.model.version = latest;
    this.events.start(latest);
    this.unsubscribe.push(
      changes.subscribe((logged) => this.changed(logged)),
      // A write answers once this process serves what it wrote.
      changes.settleWith(() => answers.rebuilt()),
    );
    if (purges) {
      this.unsubscribe.push(
        changes.onWritten(({ id, change }) =>
          purges.send(id, keysDroppedBy(change, this.model.today(), this.model.loadedPeriods())),
        ),
      );
    }
  }

  /** Ends the streams (before the server closes: an open stream would hold it) and the clock. */
  close(): void {
    this.clock.stop();
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.events.closeAll();
    this.options.answers.close();
    this.options.purges?.close();
  }

  /** Resolves once every event so far has been sent (tests, and shutdown). */
  settled(): Promise<void> {
    return this.publishing;
  }

  /**
   * Reads the log up to now and sends what it finds: for a page that has seen a later event than
   * this process (it was connected to another one), before its stream opens.
   */
  async catchUp(): Promise<void> {
    await this.options.changes.catchUp();
    await this.publishing;
  }

  /** After changes may have been missed (the bus lost its connection): nothing cached is trusted. */
  resync(): void {
    this.model.dropAll();
  }

  private changed({ id, change }: LoggedChange): void {
    const alreadyRolled = change.kind === 'day' && this.rolled === rolloverId(change);
    if (!alreadyRolled)
      this.model.drop(keysDroppedBy(change, this.model.today(), this.model.loadedPeriods()));
    // What is built from now on includes this change: it is the version pages and answers carry.
    this.model.version = id;
    this.options.answers.generation += 1;
    this.events.announce(id);
    this.publishing = this.publishing.then(async () => {
      let event: LiveEvent;
      try {
        event = await liveEventFor(change, this.model, this.options.sources);
      } catch (error) {
        // Pages still hear that something changed, and reload their data.
        this.options.log.error({ err: error, change }, 'building a live event failed');
        event = { kind: 'resync' };
      }
      this.events.publish(id, event);
    });
  }

  private dayRolledOver({ today, utcDate, previous }: Rollover): void {
    const change: Change = { kind: 'day', today, utcDate, previous };
    this.rolled = rolloverId(change);
    this.model.drop(keysDroppedBy(change, today, this.model.loadedPeriods()));
    // Recorded once for every process on the database; each hears of it through the log.
    this.options.changes
      .recordOnce(change)
      .catch((error: unknown) => this.options.log.error({ err: error }, 'recording the new day failed'));
  }
}

function rolloverId(change: Change): string | undefined {
  return change.kind === 'day' ? `${change.today}|${change.utcDate}` : undefined;
}
