import type { FastifyInstance } from 'fastify';
import type { GhadiKind } from '../../src/shared/matka.js';
import type { WeeklyChart } from '../../src/shared/schemas/charts.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { HolidayRecord } from '../../src/shared/schemas/holidays.js';
import { call, expectStatus, ghadiFields, type Item } from './factories.js';

/** A ghadi of a kind, with its days (0 = Sunday): an open/close market has its open time before RTime. */
export async function createMarket(
  app: FastifyInstance,
  token: string,
  fields: { Kind: GhadiKind; Days?: number[]; NameEn?: string; NameHn?: string; OrderId?: number },
): Promise<GhadiRecord> {
  const { Kind, Days, ...names } = fields;
  const body = {
    ...ghadiFields(names),
    RTime: '5:00 PM',
    Kind,
    ...(Kind === 'open-close' ? { OpenTime: '3:00 PM' } : {}),
    ...(Days ? { Days } : {}),
  };
  return expectStatus<Item<GhadiRecord>>(
    await call(app, { method: 'POST', url: '/api/ghadis', token, body }),
    201,
  ).data;
}

/** A holiday of one ghadi, or (gid null) of every ghadi. */
export async function addHoliday(
  app: FastifyInstance,
  token: string,
  date: string,
  gid: number | null,
): Promise<HolidayRecord> {
  const body = gid === null ? { Date: date } : { Date: date, GID: gid };
  return expectStatus<Item<HolidayRecord>>(
    await call(app, { method: 'POST', url: '/api/holidays', token, body }),
    201,
  ).data;
}

export async function removeHoliday(app: FastifyInstance, token: string, holiday: HolidayRecord) {
  const answer = await call(app, { method: 'DELETE', url: `/api/holidays/${holiday._id}`, token });
  expect200(answer.statusCode, answer.body);
}

function expect200(status: number, body: string) {
  if (status !== 200) throw new Error(`Expected 200, got ${status}: ${body}`);
}

/** A weekly chart's JSON (GET /api/charts/{name}/{year}/weeks). */
export interface WeeklyAnswer {
  success: true;
  data: WeeklyChart;
}
