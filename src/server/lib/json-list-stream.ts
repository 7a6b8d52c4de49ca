import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * `{"success":true,"data":[...]}` sent a chunk of items at a time, as they are read. Each chunk gives
 * the event loop a turn, so other requests are served while a long list goes out, and the stream's
 * backpressure keeps a slow reader from making the server hold the whole list.
 */
export function jsonListStream(chunks: AsyncIterable<readonly unknown[]>): Readable {
  async function* parts(): AsyncGenerator<string> {
    yield '{"success":true,"data":[';
    let first = true;
    for await (const items of chunks) {
      let text = '';
      for (const item of items) {
        text += (first ? '' : ',') + JSON.stringify(item);
        first = false;
      }
      yield text;
      await nextTurn();
    }
    yield ']}';
  }
  return Readable.from(parts(), { objectMode: false });
}
