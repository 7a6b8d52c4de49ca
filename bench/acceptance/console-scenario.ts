/**
 * What the console group does on its site before it reads anything back (console-checks.ts): ghadis
 * due from 2 hours ago to 3 hours ahead in the site's zone, four agents (one deleted, one who never
 * signs in), assignments made and undone, failed and good sign-ins, declarations and corrections by
 * agents, the admin and a CSV import, content blocks, visitor sessions and a logout. Every action of
 * the activity trail's list, each at least once.
 */
import { SEED_ADMIN } from '../lib/seed.js';
import type { BoardState, SiteClock } from './console-clock.js';
import { ConsoleSite, type GhadiModel, type Person } from './console-site.js';

const MINUTE_MS = 60_000;
/** The site's OVERDUE_AFTER_MINUTES: not the default 15, so that the board is seen to read it. */
export const OVERDUE_AFTER_MINUTES = 20;
export const NEW_SESSIONS = 6;

export interface Scenario {
  site: ConsoleSite;
  admin: Person;
  agents: { asha: Person; bharat: Person; chitra: Person; dev: Person };
  /** What each of the group's ghadis was made to show on the board. */
  intended: Map<number, BoardState>;
  deletedGhadi: GhadiModel;
  /** Today's entry of GET /api/stats/daily before anything was declared or tracked. */
  statsBefore: { visitors: number; declarations: number; corrections: number };
  importAnswer: { created: number; corrected: number; unchanged: number };
  dryRunAnswer: { created: number; corrected: number; unchanged: number };
  /** Ghadis the server had made on the empty database. */
  starters: number;
}

const person = (userName: string, password: string): Person => ({
  userId: 0,
  userName,
  displayName: '',
  role: 'agent',
  password,
  deleted: false,
  firstSeen: null,
});

export async function runScenario(url: string, clock: SiteClock): Promise<Scenario> {
  const site = new ConsoleSite(url, clock);
  const { today, yesterday } = clock;
  const twoDaysAgo = new Date(Date.parse(`${yesterday}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const admin: Person = { ...person(SEED_ADMIN.username, SEED_ADMIN.password), role: 'admin' };
  const starters = await site.loadGhadis();
  await site.signIn(admin);
  const before = await site.call('GET', `/api/stats/daily?from=${today}&to=${today}`, 200, {
    token: admin.token,
  });
  const statsBefore = JSON.parse(before.answer.body.toString()).data[0];

  const now = Date.now();
  const at = (minutes: number, twentyFour = false) => clock.rTimeAt(now + minutes * MINUTE_MS, twentyFour);
  const intended = new Map<number, BoardState>();
  let order = 10;
  const ghadi = async (name: string, rTime: string, state: BoardState) => {
    const made = await site.createGhadi(admin, {
      NameEn: `Console ${name}`,
      NameHn: `कंसोल ${order}`,
      RTime: rTime,
      OrderId: order++,
    });
    intended.set(made.GID, state);
    return made.GID;
  };
  const declared = await ghadi('Declared', at(-120), 'declared');
  const overdue = await ghadi('Overdue', at(-120, true), 'overdue');
  const due = await ghadi('Due', at(-5), 'due');
  const dueLate = await ghadi('Due Late', at(-16, true), 'due');
  const waiting = await ghadi('Waiting', at(180), 'waiting');
  const early = await ghadi('Early', at(180), 'declared');
  const corrected = await ghadi('Corrected', at(-60), 'corrected');
  const selfCorrected = await ghadi('Self Corrected', at(-60, true), 'corrected');
  const imported = await ghadi('Imported', at(-30), 'declared');
  await ghadi('Unreadable', 'after the evening news', 'waiting');
  const gone = await ghadi('Deleted', at(0), 'waiting');
  intended.delete(gone);
  await site.deleteGhadi(admin, gone);
  // The waiting ghadi moves to the top of the board, with another Hindi name.
  await site.updateGhadi(admin, waiting, { OrderId: 0, NameHn: 'कंसोल प्रतीक्षा' });

  const asha = await site.createAgent(admin, 'console.asha', 'Asha Verma', 'asha-Secret-4417');
  const bharat = await site.createAgent(admin, 'console.bharat', 'Bharat Singh', 'bharat-Secret-8820');
  const chitra = await site.createAgent(admin, 'console.chitra', 'Chitra Rao', 'chitra-Secret-3391');
  const dev = await site.createAgent(admin, 'console.dev', 'Dev Malhotra', 'dev-Secret-5106');
  const ashaMaps = await site.assign(admin, asha, [declared, overdue, corrected, selfCorrected, waiting]);
  await site.assign(admin, bharat, [due, dueLate, waiting]);
  await site.assign(admin, chitra, [overdue, waiting]);
  await site.assign(admin, dev, [dueLate]);
  const ashaWaiting = ashaMaps.get(waiting);
  if (ashaWaiting === undefined) throw new Error(`no assignment of ${asha.userName} to ${waiting} was made`);
  await site.unassign(admin, ashaWaiting);
  await site.deleteAgent(admin, dev);
  const bharatOld = bharat.password;
  await site.updateAgent(admin, bharat, 'Bharat S.', 'bharat-Renewed-6243');

  await site.failSignIn(asha.userName, 'asha-Wrong-0001', asha);
  await site.failSignIn(bharat.userName, bharatOld, bharat);
  await site.failSignIn('console.nobody', 'nobody-Guess-7777', null);
  await site.signIn(asha);
  await site.signIn(bharat);
  await site.touch(asha, '/api/agent/my-ghadi');
  await site.touch(bharat, '/api/agent/my-ghadi');

  await site.declare(asha, declared, today, '42');
  await site.declare(asha, declared, today, '42'); // the same value: nothing changes
  await site.declare(asha, corrected, today, '17');
  await site.declare(admin, corrected, today, '71');
  await site.declare(asha, selfCorrected, today, '05');
  await site.declare(asha, selfCorrected, today, '50');
  await site.declare(asha, overdue, yesterday, '33'); // yesterday's: the board's today stays open
  await site.declare(admin, early, today, '88');
  const dryRunAnswer = await site.importCsv(admin, [[today, due, '99']], true);
  const importAnswer = await site.importCsv(admin, [
    [today, imported, '09'],
    [yesterday, overdue, '34'],
    [twoDaysAgo, due, '12'],
    [twoDaysAgo, waiting, '61'],
  ]);

  const block = await site.contentBlock(admin, 'Console notice', 'console-notice', '<p>Results at 2 PM</p>');
  await site.contentBlock(
    admin,
    'Console notice, revised',
    'console-notice',
    '<p>Results at 3 PM</p>',
    block,
  );
  await site.deleteContentBlock(admin, block, 'Console notice, revised');

  const stamp = Date.now();
  for (let index = 0; index < NEW_SESSIONS; index++) await site.track(`${stamp}-console-${index}`, true);
  await site.track(`${stamp}-console-0`, false);
  await site.track(`${stamp}-console-1`, false);

  await site.logout(asha);
  return {
    site,
    admin,
    agents: { asha, bharat, chitra, dev },
    intended,
    deletedGhadi: site.ghadi(gone),
    statsBefore,
    importAnswer,
    dryRunAnswer,
    starters,
  };
}
