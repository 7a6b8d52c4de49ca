import { businessDateToIso } from '../../../shared/dates.js';
import type { PublicResultRecord, ResultRecord } from '../../../shared/schemas/results.js';
import { recordIds } from '../../lib/record-ids.js';
import type { ResultRow } from './results-list-repository.js';

/* A result row as the API shows it: to everyone, or to an admin (with who declared it). */

export function toPublicRecord(row: ResultRow): PublicResultRecord {
  return {
    ...recordIds(row.result_id),
    GID: row.gid,
    Name: row.name_en,
    Result: row.value,
    DateTime: businessDateToIso(row.result_date),
    Date: row.result_date,
    isActive: row.is_active === 1,
    Corrected: row.previous_value !== null,
    Previous: row.previous_value,
    DeclaredAt: row.declared_at,
  };
}

export function toAdminRecord(row: ResultRow): ResultRecord {
  return {
    ...toPublicRecord(row),
    CreatedById: row.created_by,
    CreatedByName: row.author_display_name ?? row.author_username ?? '',
    UpdatedAt: row.updated_at,
  };
}
