import type { GhadiNames } from '../../shared/public-page-data.js';
import type { GhadiRecord } from '../../shared/schemas/ghadis.js';
import type { PublicResultRecord, ResultRecord } from '../../shared/schemas/results.js';

/** Records as the API sends them, for the web tests of every feature. */

/** The first admin, as the login answer names them. */
export const ADMIN_ONE = {
  _id: '1',
  id: '1',
  User_Id: 1,
  UserName: 'admin',
  DisplayName: 'Admin',
  Email: 'admin@example.com',
  UserType: 'admin',
  userType: 'admin',
  isActive: true,
} as const;

/** Ravi, an agent, as the login answer and GET /api/users/me name him. */
export const AGENT_RAVI = {
  _id: '3',
  id: '3',
  User_Id: 3,
  UserName: 'ravi',
  DisplayName: 'Ravi',
  Email: 'ravi@example.com',
  UserType: 'agent',
  userType: 'agent',
  isActive: true,
} as const;

/** A ghadi named "Ghadi {gid}", ordered by its GID, with no results yet. */
export function ghadiRecord(gid: number, overrides: Partial<GhadiRecord> = {}): GhadiRecord {
  return {
    _id: String(gid),
    id: String(gid),
    GID: gid,
    NameEn: `Ghadi ${gid}`,
    NameHn: `घड़ी ${gid}`,
    RTime: `${gid}:00 PM`,
    OrderId: gid,
    Kind: 'jodi',
    OpenTime: null,
    Days: [0, 1, 2, 3, 4, 5, 6],
    Confirmations: 1,
    Closed: null,
    TodayResult: '',
    YesterdayResult: '',
    Result: '',
    isActive: true,
    Corrected: false,
    Previous: null,
    DeclaredAt: null,
    ...overrides,
  };
}

/** A ghadi's result of a business date (YYYY-MM-DD), as the public and the agents read it. */
export function resultRecord(
  gid: number,
  date: string,
  value: string,
  overrides: Partial<PublicResultRecord> = {},
): PublicResultRecord {
  return {
    _id: `${gid}-${date}`,
    id: `${gid}-${date}`,
    GID: gid,
    Name: `Ghadi ${gid}`,
    Result: value,
    DateTime: `${date}T00:00:00.000Z`,
    Date: date,
    isActive: true,
    Corrected: false,
    Previous: null,
    DeclaredAt: `${date}T08:26:03.123Z`,
    ...overrides,
  };
}

/** The same with what only admins see: who entered it, and when. */
export function adminResultRecord(
  gid: number,
  date: string,
  value: string,
  overrides: Partial<ResultRecord> = {},
): ResultRecord {
  return {
    ...resultRecord(gid, date, value),
    CreatedById: 2,
    CreatedByName: 'Ravi',
    UpdatedAt: `${date}T12:00:00.000Z`,
    ...overrides,
  };
}

/** A paged list answer holding page `page` of `rows`, `limit` to a page, as the server pages it. */
export function pagedAnswer<T>(rows: T[], page: number, limit: number) {
  return {
    success: true as const,
    data: rows.slice((page - 1) * limit, page * limit),
    pagination: { page, limit, total: rows.length, totalPages: Math.ceil(rows.length / limit) },
  };
}

/** Every live ghadi as a page's keyword ticker names them (the spec's first two, and a later one). */
export const TICKER: GhadiNames[] = [
  { GID: 1, NameEn: 'NCR', NameHn: 'एनसीआर' },
  { GID: 5, NameEn: 'Gali', NameHn: 'गली' },
  { GID: 9, NameEn: 'Late Comer', NameHn: '' },
];
