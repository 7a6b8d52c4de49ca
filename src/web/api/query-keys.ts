/** Query keys in one place, so a mutation can refresh every screen that shows what it changed. */
export const queryKeys = {
  counts: ['counts'] as const,
  users: ['users'] as const,
  ghadis: ['ghadis'] as const,
  /** Every page and search of the admin's results list starts with this. */
  results: ['results'] as const,
  resultsPage: (view: { q: string; page: number; limit: number }) => ['results', 'page', view] as const,
  /** One result's declarations; under ['results'], so a new declaration refreshes it. */
  resultHistory: (gid: number, date: string) => ['results', 'history', gid, date] as const,
  assignments: ['assignments'] as const,
  contentBlocks: ['content-blocks'] as const,
  /** What the site would serve for a block's Content, and what it would remove (the editor's preview). */
  contentPreview: (content: string) => ['content-preview', content] as const,
  /** Every page of the image library starts with this. */
  media: ['media'] as const,
  mediaPage: (page: number, limit: number) => ['media', page, limit] as const,
  /** Every holiday, past and future (public GET /api/holidays). */
  holidays: ['holidays'] as const,
  /** Results held for a second confirmation (GET /api/pending), polled by the admin's console. */
  pending: ['pending'] as const,
  /** The admin's board of today's ghadis. */
  today: ['today'] as const,
  /** The dashboard's plots; a declaration changes them. */
  stats: ['stats'] as const,
  dailyStats: (from: string, to: string) => ['stats', 'daily', from, to] as const,
  ghadiStats: (from: string, to: string) => ['stats', 'ghadis', from, to] as const,
  /** One filtered page of the activity trail. */
  activityPage: (view: object) => ['activity', view] as const,
  myGhadis: ['agent', 'my-ghadi'] as const,
  /** The agent's own entries held for a second confirmation (GET /api/pending, as an agent). */
  myPending: ['agent', 'pending'] as const,
  /** One page of an agent's history; everything under ['agent'] is refreshed after a submission. */
  myResults: (ghadiId: number | undefined, view: { q: string; page: number }) =>
    ['agent', 'my-results', ghadiId ?? 'all', view] as const,
};
