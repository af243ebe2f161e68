import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { nextSortId } from '../../src/graphql/versioning';
import { actor, ds, errorOf, versionedOnly } from './edit-support';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
// Datasets of DataHub's bootstrap sample (test/fixtures/datahub/bootstrap_mce.json).
const KAFKA = ds('kafka', 'SampleKafkaDataset');
const HDFS = ds('hdfs', 'SampleHdfsDataset');
const HIVE = ds('hive', 'SampleHiveDataset');
const SET = 'urn:li:versionSet:(orders,dataset)';

const as = actor;
const editor = () => as('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY);
const reader = () => as('urn:li:corpuser:rita');

// The UI's versioning.graphql: versionsSearchResults and versionProperties, the display-name fragments narrowed to urns.
const VERSION_FIELDS = `versionSet { urn type } isLatest version { versionTag } aliases { versionTag } comment
  created { time actor { urn } } createdInSource { time actor { urn } }`;
const RESULTS = `count total searchResults { entity { urn type ... on SupportsVersions { versionProperties { ${VERSION_FIELDS} } } } }`;
const LINK = `mutation linkAssetVersion($input: LinkVersionInput!) {
  linkAssetVersion(input: $input) { versionsSearch(input: { query: "*", count: 5, searchFlags: { skipCache: true } }) { ${RESULTS} } } }`;
const UNLINK = `mutation unlinkAssetVersion($input: UnlinkVersionInput!) {
  unlinkAssetVersion(input: $input) { versionsSearch(input: { query: "*", count: 5, searchFlags: { skipCache: true } }) { ${RESULTS} } } }`;
const SEARCH = `query searchAcrossVersions($versionSetUrn: String!, $input: SearchAcrossEntitiesInput!) {
  versionSet(urn: $versionSetUrn) { versionsSearch(input: $input) { ${RESULTS} } } }`;
/** The UI's searchAcrossVersions variables (VersionsDrawer). */
const drawer = {
  versionSetUrn: SET,
  input: { query: '*', count: 10, start: 0, orFilters: [{ and: [{ field: 'version', condition: 'CONTAIN', values: [''] }] }] },
};

async function setup() {
  let clock = NOW;
  const api = await goldenGraphql(databases, ['bootstrap_mce.json'], { now: () => clock, keep: versionedOnly });
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  const link = (linkedEntity: string, version: string, extra: Record<string, unknown> = {}, context = editor()) => {
    clock += 1000;
    return api.run(LINK, { input: { versionSet: SET, linkedEntity, version, ...extra } }, context);
  };
  /** The versions a search lists, newest first: urn, label and whether it is the latest. */
  const listed = (result: { data?: Record<string, any> | null }, field: string) =>
    (
      result.data![field].versionsSearch.searchResults as {
        entity: { urn: string; versionProperties: { version: { versionTag: string }; isLatest: boolean } };
      }[]
    ).map((r) => [r.entity.urn, r.entity.versionProperties.version.versionTag, r.entity.versionProperties.isLatest]);
  return { ...api, stored, errorOf, link, listed, clock: () => clock };
}

describe("Versioning, as DataHub's LinkAssetVersionResolver, UnlinkAssetVersionResolver and EntityVersioningServiceImpl", () => {
  it('linkAssetVersion makes the set, writes versionProperties, and each new version becomes the latest', async () => {
    const { link, stored, listed, run, clock } = await setup();
    const first = await link(KAFKA, 'v1');
    expect(first.errors).toBeUndefined();
    expect(listed(first, 'linkAssetVersion')).toEqual([[KAFKA, 'v1', true]]);
    const firstAt = clock();
    expect(await stored(KAFKA, 'versionProperties')).toEqual({
      versionSet: SET,
      version: { versionTag: 'v1', metadataAttribution: { time: firstAt, actor: 'urn:li:corpuser:eddie' } },
      aliases: [],
      sortId: 'AAAAAAAA',
      versioningScheme: 'ALPHANUMERIC_GENERATED_BY_DATAHUB',
      metadataCreatedTimestamp: { time: firstAt, actor: 'urn:li:corpuser:eddie' },
      isLatest: true,
    });
    expect(await stored(SET, 'versionSetProperties')).toEqual({ latest: KAFKA, versioningScheme: 'ALPHANUMERIC_GENERATED_BY_DATAHUB' });

    // The UI's own variables (LinkAssetVersionModal), with a source stamp.
    const second = await link(HDFS, 'v2', { comment: 'new schema', sourceTimestamp: 1_600_000_000_000, sourceCreator: 'jdoe' });
    expect(second.errors).toBeUndefined();
    expect(listed(second, 'linkAssetVersion')).toEqual([
      [HDFS, 'v2', true],
      [KAFKA, 'v1', false],
    ]);
    expect(await stored(HDFS, 'versionProperties')).toMatchObject({
      sortId: 'AAAAAAAB',
      comment: 'new schema',
      sourceCreatedTimestamp: { time: 1_600_000_000_000, actor: 'urn:li:corpuser:jdoe' },
      isLatest: true,
    });
    expect(await stored(KAFKA, 'versionProperties')).toMatchObject({ isLatest: false, sortId: 'AAAAAAAA' });
    expect((await stored(SET, 'versionSetProperties'))!.latest).toBe(HDFS);

    const read = await run(
      `{ versionSet(urn: "${SET}") { urn type latestVersion { urn } }
         dataset(urn: "${HDFS}") { versionProperties { ${VERSION_FIELDS} } } }`,
      undefined,
      reader(),
    );
    expect(read.errors).toBeUndefined();
    expect(read.data).toEqual({
      versionSet: { urn: SET, type: 'VERSION_SET', latestVersion: { urn: HDFS } },
      dataset: {
        versionProperties: {
          versionSet: { urn: SET, type: 'VERSION_SET' },
          isLatest: true,
          version: { versionTag: 'v2' },
          aliases: [],
          comment: 'new schema',
          created: { time: clock(), actor: { urn: 'urn:li:corpuser:eddie' } },
          createdInSource: { time: 1_600_000_000_000, actor: { urn: 'urn:li:corpuser:jdoe' } },
        },
      },
    });
    // The UI's searchAcrossVersions (VersionsDrawer): every version, newest first.
    const drawn = await run(SEARCH, drawer, reader());
    expect(drawn.errors).toBeUndefined();
    expect(listed(drawn, 'versionSet')).toEqual([
      [HDFS, 'v2', true],
      [KAFKA, 'v1', false],
    ]);
    expect(drawn.data!.versionSet.versionsSearch.total).toBe(2);
  });

  it('refuses what DataHub refuses, with its texts; linking again to the same set changes nothing', async () => {
    const { link, errorOf, stored, run } = await setup();
    await link(KAFKA, 'v1');
    expect((await link(KAFKA, 'v9')).data).toEqual({ linkAssetVersion: null });
    expect(errorOf(await link(HIVE, 'v1'))).toEqual([
      { message: 'Sort Id and Version label must be unique: sort ID: AAAAAAAB version label: v1', code: 400 },
    ]);
    expect(errorOf(await link(HIVE, 'v2', {}, reader()))).toEqual([
      { message: `urn:li:corpuser:rita is unauthorized to UPDATE entities ${SET} and ${HIVE}`, code: 403 },
    ]);
    const model = 'urn:li:mlModel:(urn:li:dataPlatform:science,scienceModel,PROD)';
    expect(errorOf(await link(model, 'v2'))).toEqual([
      { message: "Entity type must match Version Set's specified type: dataset invalid type: mlModel", code: 400 },
    ]);
    expect(
      errorOf(
        await run(
          LINK,
          { input: { versionSet: 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)', linkedEntity: HIVE, version: 'v1' } },
          editor(),
        ),
      ),
    ).toEqual([{ message: 'Version Set urn urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD) must be of type Version Set.', code: 400 }]);
    expect(errorOf(await link(ds('hive', 'absent'), 'v2'))).toEqual([{ message: `${ds('hive', 'absent')} does not exist`, code: 400 }]);
    expect(await stored(HIVE, 'versionProperties')).toBeUndefined();
  });

  it('unlinkAssetVersion: the version before the latest becomes the latest again; the set goes with its last version', async () => {
    const { link, run, stored, listed, errorOf } = await setup();
    await link(KAFKA, 'v1');
    await link(HDFS, 'v2');
    // The UI's own variables (UnlinkAssetVersionModal).
    const unlinked = await run(UNLINK, { input: { unlinkedEntity: HDFS, versionSet: SET } }, editor());
    expect(unlinked.errors).toBeUndefined();
    expect(listed(unlinked, 'unlinkAssetVersion')).toEqual([[KAFKA, 'v1', true]]);
    expect(await stored(HDFS, 'versionProperties')).toBeUndefined();
    expect(await stored(SET, 'versionSetProperties')).toEqual({ latest: KAFKA, versioningScheme: 'ALPHANUMERIC_GENERATED_BY_DATAHUB' });
    expect(await stored(KAFKA, 'versionProperties')).toMatchObject({ isLatest: true });

    expect((await run(UNLINK, { input: { unlinkedEntity: HIVE, versionSet: SET } }, editor())).data).toEqual({ unlinkAssetVersion: null });
    expect(errorOf(await run(UNLINK, { input: { unlinkedEntity: KAFKA, versionSet: SET } }, reader()))).toEqual([
      { message: `urn:li:corpuser:rita is unauthorized to UPDATE entities ${SET} and ${KAFKA}`, code: 403 },
    ]);
    const otherSet = 'urn:li:versionSet:(other,dataset)';
    expect(errorOf(await run(UNLINK, { input: { unlinkedEntity: KAFKA, versionSet: otherSet } }, editor()))).toEqual([
      { message: `Version is not linked to specified version set: ${otherSet} but is linked to: ${SET}`, code: 400 },
    ]);

    expect((await run(UNLINK, { input: { unlinkedEntity: KAFKA, versionSet: SET } }, editor())).errors).toBeUndefined();
    expect((await run(`{ versionSet(urn: "${SET}") { urn } }`, undefined, reader())).data).toEqual({ versionSet: null });
    expect(await stored(KAFKA, 'versionProperties')).toBeUndefined();
  });

  it('numbers versions as AlphanumericSortIdGenerator does', () => {
    expect(nextSortId('AAAAAAAA')).toBe('AAAAAAAB');
    expect(nextSortId('AAAAAAAZ')).toBe('AAAAAABA');
    expect(nextSortId('ZZZZZZZZ')).toBe('AAAAAAAA');
    expect(() => nextSortId('abc')).toThrow('Version sort id "abc" is not eight capital letters');
  });
});
