import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const ASK = 'ghadi:metrics-ask';
const ANSWER = 'ghadi:metrics-answer';
/** The primary collects from every worker; one that hangs must not hang the scrape. */
const ANSWER_TIMEOUT_MS = 5000;

interface Ask {
  type: typeof ASK;
  id: number;
}
interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/**
 * Under WORKERS > 1 one scrape reaches one worker, whose counts are a share of the site's. So a worker
 * answers /metrics with what the primary sums over every worker (prom-client's cluster aggregation,
 * each metric by its own rule: counts summed, event-loop lag averaged). Alone, a process answers with
 * its own registry.
 */
export class ClusterMetrics {
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: Answer) => void>();

  constructor(private readonly registry: Registry) {
    if (!cluster.isWorker) return;
    answerPrimaryMetrics();
    AggregatorRegistry.setRegistries([registry]);
    process.on('message', (message: unknown) => {
      if (isMessage<Answer>(message, ANSWER)) this.waiting.get(message.id)?.(message);
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return cluster.isWorker && process.send ? this.askPrimary() : this.registry.metrics();
  }

  private askPrimary(): Promise<string> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error('the primary process did not send the metrics in time'));
      }, ANSWER_TIMEOUT_MS);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(answer.error ?? 'no metrics'));
      });
      process.send?.({ type: ASK, id } satisfies Ask);
    });
  }
}

/**
 * In a worker: answers the primary's collection requests from now on (constructing an aggregator is
 * what installs prom-client's listener). Called first thing, so that a worker still starting answers
 * (with nothing yet) rather than making every scrape wait out the primary's timeout.
 */
export function answerPrimaryMetrics(): void {
  if (cluster.isWorker) new AggregatorRegistry();
}

/** In the primary of WORKERS > 1: answers the workers' asks with every worker's metrics combined. */
export function answerWorkersMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<Ask>(message, ASK)) return;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) =>
      worker.send({ type: ANSWER, id: message.id, ...answer } satisfies Answer);
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
