import { decryptDatahubSecret, encryptDatahubSecret, Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { print } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readUiDocuments } from '../../../../apps/server/test/webui/ui-documents';
import { fillPlaceholders, readUiVariables } from '../../../../apps/server/test/webui/ui-queries';
import { actor, errorOf, upsert } from './edit-support';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const KEY = 'the secret key of this test server';
const HIVE = 'urn:li:dataPlatform:hive';
const DENIED = 'Unauthorized to upsert Connection. Please contact your DataHub administrator for more information.';

// The UI's connection.graphql (DataHub c731e725, apps/server/test/fixtures/datahub-web-react) with its fragments, and
// the variables of variables.json.
const UI = new Map(readUiDocuments().operations.map((op) => [op.name, print(op.document)]));
const VARIABLES = readUiVariables();
const uiVariables = (kind: 'queries' | 'mutations', name: string, values: Record<string, unknown>) =>
  fillPlaceholders(VARIABLES[kind][name]![0]!.variables, values) as Record<string, unknown>;

const manager = () => actor('urn:li:corpuser:mona', Privilege.MANAGE_CONNECTIONS);
const reader = () => actor('urn:li:corpuser:rita');

/** A server with `datahubSecret` as its key (null: none). */
async function setup(datahubSecret: string | null = KEY) {
  const api = await goldenGraphql(databases, [], { secretKey: datahubSecret ?? undefined });
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  const upsertConnection = (input: Record<string, unknown>, as = manager()) =>
    api.run(UI.get('upsertConnection')!, { input }, { ...as, operationName: 'upsertConnection' });
  const connection = (urn: string, as = manager()) =>
    api.run(UI.get('connection')!, uiVariables('queries', 'connection', { $CONNECTION_URN: urn }), { ...as, operationName: 'connection' });
  return { ...api, stored, upsertConnection, connection };
}

describe("Connections, as DataHub's UpsertConnectionResolver, ConnectionService and ConnectionMapper answer them", () => {
  it("upsertConnection with the UI's variables stores the blob encrypted under the key, and answers it decrypted", async () => {
    const { upsertConnection, connection, stored } = await setup();
    const result = await upsertConnection(uiVariables('mutations', 'upsertConnection', { $DATA_PLATFORM_URN: HIVE }).input as never);
    expect(errorOf(result)).toBeUndefined();
    const answer = result.data!.upsertConnection;
    // No id given: a new random one (ConnectionService's UUID).
    expect(answer.urn).toMatch(/^urn:li:dataHubConnection:[0-9a-f-]{36}$/);
    expect(answer.details).toEqual({ type: 'JSON', json: { blob: '{}' } });
    expect(answer.platform).toMatchObject({ urn: HIVE, type: 'DATA_PLATFORM', name: 'hive' });

    // What DataHub would have written: dataHubConnectionDetails with the blob encrypted, and dataPlatformInstance.
    const details = (await stored(answer.urn, 'dataHubConnectionDetails')) as { json: { encryptedBlob: string } };
    expect(details).toEqual({ type: 'JSON', name: 'warehouse', json: { encryptedBlob: expect.stringMatching(/^v2:/) } });
    expect(details.json.encryptedBlob).not.toContain('{}');
    expect(decryptDatahubSecret(details.json.encryptedBlob, KEY)).toBe('{}');
    expect(decryptDatahubSecret(details.json.encryptedBlob, 'another key')).toBeUndefined();
    expect(await stored(answer.urn, 'dataPlatformInstance')).toEqual({ platform: HIVE });

    // The UI's `connection` query: the blob decrypted for who manages connections, hidden from anyone else.
    const read = await connection(answer.urn);
    expect(errorOf(read)).toBeUndefined();
    expect(read.data!.connection).toEqual(answer);
    const hidden = await connection(answer.urn, reader());
    expect(errorOf(hidden)).toBeUndefined();
    expect(hidden.data!.connection).toEqual({ ...answer, details: { type: 'JSON', json: null } });
  });

  it('an id names the urn and, without a name, the connection; a second upsert overwrites', async () => {
    const { upsertConnection, run, stored } = await setup();
    const urn = 'urn:li:dataHubConnection:snowflake-prod';
    const first = await upsertConnection({ id: 'snowflake-prod', type: 'JSON', platformUrn: HIVE, json: { blob: '{"user":"a"}' } });
    expect(first.data!.upsertConnection.urn).toBe(urn);
    expect(await stored(urn, 'dataHubConnectionDetails')).toMatchObject({ name: 'snowflake-prod' });
    const snowflake = 'urn:li:dataPlatform:snowflake';
    const second = await upsertConnection({
      id: 'snowflake-prod',
      type: 'JSON',
      platformUrn: snowflake,
      json: { blob: '{"user":"b"}' },
      name: 'Prod',
    });
    expect(second.data!.upsertConnection).toMatchObject({ urn, details: { json: { blob: '{"user":"b"}' } }, platform: { urn: snowflake } });
    const read = await run(
      `query { connection(urn: "${urn}") { details { name type json { blob } } platform { urn } } }`,
      undefined,
      manager(),
    );
    expect(read.data!.connection).toEqual({
      details: { name: 'Prod', type: 'JSON', json: { blob: '{"user":"b"}' } },
      platform: { urn: snowflake },
    });
  });

  it('a connection another client wrote (its blob in SecretService’s v2 format) reads back decrypted', async () => {
    const { service, run } = await setup();
    const urn = 'urn:li:dataHubConnection:from-datahub';
    await service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(urn, 'dataHubConnectionDetails', {
          type: 'JSON',
          name: 'looker',
          json: { encryptedBlob: encryptDatahubSecret('{"k":1}', KEY) },
        }),
        upsert(urn, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:looker' }),
      ],
      { batch: false },
    );
    const read = await run(`query { connection(urn: "${urn}") { urn type details { name json { blob } } } }`, undefined, manager());
    expect(read.data!.connection).toEqual({ urn, type: 'DATAHUB_CONNECTION', details: { name: 'looker', json: { blob: '{"k":1}' } } });
  });

  it('who lacks MANAGE_CONNECTIONS is refused with DataHub’s text, and nothing is written', async () => {
    const { upsertConnection, stored } = await setup();
    const refused = await upsertConnection(
      { id: 'x', type: 'JSON', platformUrn: HIVE, json: { blob: '{}' } },
      actor('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY),
    );
    expect(errorOf(refused)).toEqual([{ message: DENIED, code: 403 }]);
    expect(await stored('urn:li:dataHubConnection:x', 'dataHubConnectionDetails')).toBeUndefined();
  });

  it('bad input is a 400 naming the problem, and nothing is written', async () => {
    const { upsertConnection, stored } = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ id: 'a', type: 'JSON', platformUrn: HIVE }, "Connections with type JSON must provide the field 'json'."],
      [
        { id: 'a', type: 'JSON', platformUrn: 'urn:li:corpuser:x', json: { blob: '{}' } },
        'Failed to upsert a Connection: platformUrn urn:li:corpuser:x is no data platform urn.',
      ],
      [{ id: 'a', type: 'JSON', platformUrn: 'hive', json: { blob: '{}' } }, 'Invalid urn: hive'],
      [{ id: 'a,b)', type: 'JSON', platformUrn: HIVE, json: { blob: '{}' } }, 'Invalid urn: urn:li:dataHubConnection:a,b)'],
    ];
    for (const [input, message] of cases) expect(errorOf(await upsertConnection(input))).toEqual([{ message, code: 400 }]);
    expect(await stored('urn:li:dataHubConnection:a', 'dataHubConnectionDetails')).toBeUndefined();
  });

  it('without SECRET_SERVICE_ENCRYPTION_KEY a blob is neither stored nor read: a 400 saying so', async () => {
    const keyed = await setup();
    const urn = (await keyed.upsertConnection({ id: 'c', type: 'JSON', platformUrn: HIVE, json: { blob: '{}' } })).data!.upsertConnection
      .urn;
    const { upsertConnection, connection, stored, service } = await setup(null);
    const refused = await upsertConnection({ id: 'c', type: 'JSON', platformUrn: HIVE, json: { blob: '{}' } });
    expect(errorOf(refused)).toEqual([{ message: expect.stringContaining('SECRET_SERVICE_ENCRYPTION_KEY'), code: 400 }]);
    expect(await stored(urn, 'dataHubConnectionDetails')).toBeUndefined();
    // One stored (under a key this server was not given): its other fields answer, the blob is the field's error.
    await service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(urn, 'dataHubConnectionDetails', { type: 'JSON', name: 'c', json: { encryptedBlob: encryptDatahubSecret('{}', KEY) } }),
        upsert(urn, 'dataPlatformInstance', { platform: HIVE }),
      ],
      { batch: false },
    );
    const read = await connection(urn);
    expect(errorOf(read)).toEqual([{ message: expect.stringContaining('SECRET_SERVICE_ENCRYPTION_KEY'), code: 400 }]);
    expect(read.data!.connection).toMatchObject({ urn, details: { type: 'JSON', json: null }, platform: { urn: HIVE } });
    // Who may not see the blob is not bothered by the missing key.
    expect(errorOf(await connection(urn, reader()))).toBeUndefined();
  });

  it('a blob stored under another key is a clear error on that field alone', async () => {
    const { service, connection } = await setup();
    const urn = 'urn:li:dataHubConnection:old';
    await service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(urn, 'dataHubConnectionDetails', { type: 'JSON', json: { encryptedBlob: encryptDatahubSecret('{}', 'the old key') } }),
        upsert(urn, 'dataPlatformInstance', { platform: HIVE }),
      ],
      { batch: false },
    );
    const read = await connection(urn);
    expect(errorOf(read)).toEqual([{ message: expect.stringContaining(`The blob of ${urn} does not decrypt`), code: 400 }]);
    expect(read.data!.connection.details.json).toBeNull();
  });

  it('connection(urn:) answers null for an absent connection, one missing an aspect, and another type’s urn', async () => {
    const { service, run } = await setup();
    const half = 'urn:li:dataHubConnection:half';
    await service.ingest(SYSTEM_ACTOR, [upsert(half, 'dataHubConnectionDetails', { type: 'JSON' })], { batch: false });
    const read = await run(
      `query { absent: connection(urn: "urn:li:dataHubConnection:none") { urn } half: connection(urn: "${half}") { urn }
        other: connection(urn: "${HIVE}") { urn } }`,
      undefined,
      manager(),
    );
    expect(errorOf(read)).toBeUndefined();
    expect(read.data).toEqual({ absent: null, half: null, other: null });
    expect(errorOf(await run('query { connection(urn: "nope") { urn } }', undefined, manager()))).toEqual([
      { message: 'Invalid urn: nope', code: 400 },
    ]);
  });
});
