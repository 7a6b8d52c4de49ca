import { TILE_WIDTH, tileIndexPath } from '../modules/transparency/log-tiles.js';
import { getBytes } from './site-reads.js';

/**
 * The leaves a site's entry bundles hold (`/api/log/tile/entries/N`), read in seq order with the
 * next bundle asked for while one is used. The bundles come from the tables the checkpoint signs;
 * `npm run verify` holds each entry of /api/declarations against them, so a cached page of the log
 * cannot show one history while the tree holds another.
 */
export class EntryBundles {
  private index = -1;
  private leaves: Buffer[] = [];
  private next: Promise<Buffer[]> | null = null;

  /** `size`: the signed tree's size, which bounds the bundles the site serves. */
  constructor(
    private readonly site: string,
    private readonly size: number,
  ) {}

  /** The leaf bytes of entry `seq` (1 … size), asked in increasing order. */
  async leafOf(seq: number): Promise<Buffer | undefined> {
    const wanted = Math.floor((seq - 1) / TILE_WIDTH);
    if (wanted !== this.index) {
      this.leaves = await (wanted === this.index + 1 && this.next ? this.next : this.read(wanted));
      this.index = wanted;
      this.next = (wanted + 1) * TILE_WIDTH < this.size ? this.read(wanted + 1) : null;
      // A bundle asked for ahead and never used must not end the process as an unhandled failure.
      this.next?.catch(() => {});
    }
    return this.leaves[(seq - 1) % TILE_WIDTH];
  }

  private async read(index: number): Promise<Buffer[]> {
    const width = Math.min(TILE_WIDTH, this.size - index * TILE_WIDTH);
    const partial = width < TILE_WIDTH ? `.p/${width}` : '';
    const bytes = await getBytes(`${this.site}/api/log/tile/entries/${tileIndexPath(index)}${partial}`);
    const leaves: Buffer[] = [];
    for (let at = 0; at + 2 <= bytes.length; ) {
      const length = bytes.readUInt16BE(at);
      leaves.push(bytes.subarray(at + 2, at + 2 + length));
      at += 2 + length;
    }
    return leaves;
  }
}
