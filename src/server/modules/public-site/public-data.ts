import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { NotFoundError } from '../../errors.js';
import type { ContentBlocksService } from '../content-blocks/content-blocks-service.js';
import type { GhadisService } from '../ghadis/ghadis-service.js';
import type { ResultsService } from '../results/results-service.js';

/**
 * What the public site reads, from the same services the live API uses (so cached answers equal
 * live ones), with "not found" as null instead of an error.
 */
export class PublicData {
  constructor(
    private readonly ghadis: GhadisService,
    private readonly results: ResultsService,
    private readonly blocks: ContentBlocksService,
  ) {}

  /** Every live ghadi by OrderId with today's and yesterday's results. */
  ghadiList(): Promise<GhadiRecord[]> {
    return this.ghadis.list();
  }

  /** Public results (live ghadis only), newest first; of one month (YYYY-MM) or of all time. */
  async resultList(month: string | undefined): Promise<PublicResultRecord[]> {
    return (await this.results.list({ month }, false)).data;
  }

  /** One ghadi's results as GET /api/results/{name} gives them, or null for its 404. */
  async ghadiResults(name: string, month?: number, year?: number): Promise<PublicResultRecord[] | null> {
    try {
      return await this.results.listForGhadiName(name, month, year);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  /** An active content block, or null. */
  async content(slug: string): Promise<ContentBlockRecord | null> {
    try {
      return await this.blocks.findActiveBySlug(slug);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }
}
