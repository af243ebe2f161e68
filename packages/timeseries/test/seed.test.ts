import { afterEach, describe, expect, it } from 'vitest';
import { createTimeseries, REGISTRY, seedTimeseries, type Timeseries } from '../src/index.ts';
import { indexName } from '../src/registry.ts';
import { admin, callAction, tempDir } from './helpers.ts';

describe('seedTimeseries', () => {
  let timeseries: Timeseries | undefined;
  let remove = () => {};
  afterEach(async () => {
    await timeseries?.module.close?.();
    remove();
  });
  async function open(now = Date.UTC(2025, 0, 31, 12)) {
    const dir = tempDir();
    remove = dir.remove;
    timeseries = await createTimeseries({ dataDir: dir.dir, config: { backend: 'embedded', indexPrefix: '' }, now: () => now });
    return timeseries;
  }

  it('fills every registry aspect over the days asked, so the size report lists them all', async () => {
    const ts = await open();
    expect(await ts.service.seed({ days: 3, docsPerDay: 20 })).toEqual({ documents: 3 * 20 * 10, indices: 10 });
    const { indexSizes } = (await callAction(ts.module.actions!, 'getIndexSizes', {}, admin)) as {
      indexSizes: { indexName: string; sizeMb: number }[];
    };
    const expected = Object.entries(REGISTRY).flatMap(([entityType, aspects]) =>
      aspects.map((aspectName) => indexName('', { entityType, aspectName })),
    );
    expect(indexSizes.map((s) => s.indexName).sort()).toEqual(expected.sort());
    expect(indexSizes.every((s) => s.sizeMb > 0)).toBe(true);
    for (const index of expected) {
      expect(await ts.store.countForTruncation(index, Number.MAX_SAFE_INTEGER)).toEqual({ matching: 60, total: 60 });
    }
  });

  it('spreads documents over the days ending today, so truncating the oldest day removes a day', async () => {
    const now = Date.UTC(2025, 0, 31, 12);
    const ts = await open(now);
    await ts.service.seed({ days: 4, docsPerDay: 10 });
    const startOfToday = Date.UTC(2025, 0, 31);
    const index = 'dataset_operationaspect_v1';
    expect(await ts.store.countForTruncation(index, startOfToday - 3 * 86_400_000 + 86_399_999)).toEqual({ matching: 10, total: 40 });
    expect(await ts.store.countForTruncation(index, now + 86_400_000)).toEqual({ matching: 40, total: 40 });
    expect(await ts.store.countForTruncation(index, startOfToday - 3 * 86_400_000 - 1)).toEqual({ matching: 0, total: 40 });
  });

  it('overwrites rather than doubles when run twice with the same clock', async () => {
    const ts = await open();
    await seedTimeseries(ts.store, { days: 2, docsPerDay: 5, now: Date.UTC(2025, 0, 1) });
    await seedTimeseries(ts.store, { days: 2, docsPerDay: 5, now: Date.UTC(2025, 0, 1) });
    expect(await ts.store.countForTruncation('chart_chartusagestatisticsaspect_v1', Number.MAX_SAFE_INTEGER)).toEqual({
      matching: 10,
      total: 10,
    });
  });

  it('refuses nonsense options', async () => {
    const ts = await open();
    await expect(seedTimeseries(ts.store, { days: 0, docsPerDay: 5 })).rejects.toThrow('days must be a positive integer (got 0)');
    await expect(seedTimeseries(ts.store, { days: 1, docsPerDay: 1.5 })).rejects.toThrow('docsPerDay must be a positive integer (got 1.5)');
  });
});
