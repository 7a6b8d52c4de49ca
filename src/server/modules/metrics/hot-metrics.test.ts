import { describe, expect, it } from 'vitest';
import { RequestHistogram } from './hot-metrics.js';

const BOUNDS = [0.001, 0.01];

function valuesOf(snapshot: Awaited<ReturnType<RequestHistogram['get']>>) {
  return snapshot.values.map(({ labels, value, metricName }) => ({ metricName, le: labels.le, value }));
}

describe('RequestHistogram', () => {
  it('counts a kept series’ observations as its own (the fast path keeps one per answer)', async () => {
    const histogram = new RequestHistogram('requests', 'help', BOUNDS);
    const kept = histogram.series('GET', '/api/ghadis', 200);
    kept.observe(0.0002);
    kept.observe(0.005);
    histogram.observe('GET', '/api/ghadis', 200, 0.5);
    expect(histogram.series('GET', '/api/ghadis', 200)).toBe(kept);
    const values = valuesOf(await histogram.get());
    expect(values.filter((value) => value.metricName !== 'requests_sum')).toEqual([
      { metricName: 'requests_bucket', le: 0.001, value: 1 },
      { metricName: 'requests_bucket', le: 0.01, value: 2 },
      { metricName: 'requests_bucket', le: '+Inf', value: 3 },
      { metricName: 'requests_count', le: undefined, value: 3 },
    ]);
    expect(values.find((value) => value.metricName === 'requests_sum')?.value).toBeCloseTo(0.5052, 10);
  });

  it('counts an answer not timed by itself as the latest timed one (the fast path times one in a few)', async () => {
    const histogram = new RequestHistogram('requests', 'help', BOUNDS);
    const kept = histogram.series('GET', '/api/ghadis', 200);
    kept.observeAgain();
    kept.observe(0.005);
    kept.observeAgain();
    kept.observeAgain();
    kept.observe(0.0002);
    kept.observeAgain();
    const values = valuesOf(await histogram.get());
    expect(values.filter((value) => value.metricName !== 'requests_sum')).toEqual([
      { metricName: 'requests_bucket', le: 0.001, value: 3 },
      { metricName: 'requests_bucket', le: 0.01, value: 6 },
      { metricName: 'requests_bucket', le: '+Inf', value: 6 },
      { metricName: 'requests_count', le: undefined, value: 6 },
    ]);
    expect(values.find((value) => value.metricName === 'requests_sum')?.value).toBeCloseTo(0.0154, 10);
  });

  it('zeroes its series in place on reset, so that a kept one still counts', async () => {
    const histogram = new RequestHistogram('requests', 'help', BOUNDS);
    const kept = histogram.series('POST', '/api/visitor/track', 200);
    kept.observe(0.0001);
    histogram.reset();
    kept.observe(0.02);
    const count = (await histogram.get()).values.find((value) => value.metricName === 'requests_count');
    expect(count?.value).toBe(1);
  });
});
