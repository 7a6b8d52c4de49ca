/** A record's id as the API spells it twice: `_id` (the one used in paths) and `id`, both strings. */
export function recordIds(key: number): { _id: string; id: string } {
  const id = String(key);
  return { _id: id, id };
}
