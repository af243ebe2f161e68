import { afterAll, beforeAll, expect, it } from 'vitest';
import { version } from '../src/version';
import { startMds, type Mds } from './support/mds';

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
});
afterAll(async () => {
  await mds?.close();
});

it.each(['/config', '/gms/config', '/api/gms/config'])(
  'GET %s answers what the DataHub Python SDK checks, without credentials (entities-api 12.35)',
  async (path) => {
    const res = await fetch(`${mds.url}${path}`, { headers: { 'X-RestLi-Protocol-Version': '2.0.0' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    // The SDK refuses a server without noCode "true"; it stays on Rest.li below v1.0.1.
    expect(body).toMatchObject({
      noCode: 'true',
      statefulIngestionCapable: true,
      patchCapable: true,
      versions: { 'acryldata/datahub': { version: 'v1.0.0', commit: expect.any(String) } },
      datahub: { serverType: 'prod' },
      mds: { version },
    });
  },
);

it('refuses other methods on /config with 405', async () => {
  const res = await fetch(`${mds.url}/config`, { method: 'POST' });
  expect(res.status).toBe(405);
});
