import { EventEmitter } from 'node:events';

/** What changed, so that caches and live streams can refresh. */
export type Change =
  | { kind: 'result'; gid: number; date: string }
  | { kind: 'ghadi'; gid: number }
  | { kind: 'content'; slug: string };

export class ChangeFeed {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(change: Change): void {
    this.emitter.emit('change', change);
  }

  subscribe(listener: (change: Change) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
}
