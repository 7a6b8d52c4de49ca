/** Query keys in one place, so a mutation can refresh every screen that shows what it changed. */
export const queryKeys = {
  counts: ['counts'] as const,
  users: ['users'] as const,
  ghadis: ['ghadis'] as const,
  results: ['results'] as const,
  usermaps: ['usermaps'] as const,
  contentBlocks: ['content-blocks'] as const,
  myGhadis: ['agent', 'my-ghadi'] as const,
  myResults: (ghadiId?: number) => ['agent', 'my-results', ghadiId ?? 'all'] as const,
};
