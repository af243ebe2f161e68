import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { actor, errorOf } from './edit-support';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
// The notebook urn of DataHub's csv-enricher golden (test/fixtures/datahub/csv-enricher_csv_enricher_golden.json).
const NOTEBOOK = 'urn:li:notebook:(querybook,1234)';
const stamps = (time: number) => ({ created: { time, actor: 'urn:li:corpuser:nb' }, lastModified: { time, actor: 'urn:li:corpuser:nb' } });

const as = actor;
const reader = () => as('urn:li:corpuser:rita');

const FIELDS = `urn type tool notebookId platform { urn name } exists
  info { title description externalUrl customProperties { key value } changeAuditStamps { created { time actor } lastModified { time } deleted { time } } }
  content { cells { type textCell { cellId cellTitle text } queryChell { cellId cellTitle rawQuery lastExecuted { time actor } } chartCell { cellId cellTitle changeAuditStamps { created { time } } } } }
  editableProperties { description } ownership { owners { owner { ... on CorpUser { urn } } type } } tags { tags { tag { urn } } }
  subTypes { typeNames } browsePathV2 { path { name } }`;
const UPDATE = `mutation updateNotebook($urn: String!, $input: NotebookUpdateInput!) { updateNotebook(urn: $urn, input: $input) { urn editableProperties { description } tags { tags { tag { urn } } } } }`;

async function setup() {
  const api = await goldenGraphql(databases, [], { now: () => NOW });
  const aspect = (aspectName: string, value: unknown) => ({
    proposal: { entityType: 'notebook', entityUrn: NOTEBOOK, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value) } },
    place: { action: 'test', path: aspectName },
  });
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      aspect('notebookInfo', {
        title: 'Weekly revenue',
        description: 'Revenue by week',
        externalUrl: 'https://querybook.example.com/1234',
        customProperties: { team: 'finance' },
        changeAuditStamps: stamps(1000),
      }),
      aspect('notebookContent', {
        cells: [
          { type: 'TEXT_CELL', textCell: { cellId: 't1', cellTitle: 'Intro', text: 'Revenue per week', changeAuditStamps: stamps(1) } },
          {
            type: 'QUERY_CELL',
            queryCell: {
              cellId: 'q1',
              rawQuery: 'SELECT week, sum(amount) FROM orders GROUP BY week',
              lastExecuted: { time: 2000, actor: 'urn:li:corpuser:nb' },
              changeAuditStamps: stamps(2),
            },
          },
          { type: 'CHART_CELL', chartCell: { cellId: 'c1', cellTitle: 'Chart', changeAuditStamps: stamps(3) } },
        ],
      }),
      aspect('subTypes', { typeNames: ['Query notebook'] }),
    ],
    { batch: false },
  );
  const stored = async (urn: string, name: string) => (await api.store.latest([urn], [name])).get(urn)?.get(name)?.value;
  return { ...api, stored, errorOf };
}

describe("Notebooks, as DataHub's NotebookMapper and NotebookUpdateInputMapper answer and write them", () => {
  it('notebook(urn:) answers its key, info and cells (each by its type; the query cell as DataHub spells it)', async () => {
    const { run } = await setup();
    const read = await run(`{ notebook(urn: "${NOTEBOOK}") { ${FIELDS} } }`, undefined, reader());
    expect(read.errors).toBeUndefined();
    expect(read.data!.notebook).toEqual({
      urn: NOTEBOOK,
      type: 'NOTEBOOK',
      tool: 'querybook',
      notebookId: '1234',
      platform: { urn: 'urn:li:dataPlatform:querybook', name: 'querybook' },
      exists: true,
      info: {
        title: 'Weekly revenue',
        description: 'Revenue by week',
        externalUrl: 'https://querybook.example.com/1234',
        customProperties: [{ key: 'team', value: 'finance' }],
        changeAuditStamps: { created: { time: 1000, actor: 'urn:li:corpuser:nb' }, lastModified: { time: 1000 }, deleted: null },
      },
      content: {
        cells: [
          {
            type: 'TEXT_CELL',
            textCell: { cellId: 't1', cellTitle: 'Intro', text: 'Revenue per week' },
            queryChell: null,
            chartCell: null,
          },
          {
            type: 'QUERY_CELL',
            textCell: null,
            // An absent title is the empty text of DataHub's non-null field.
            queryChell: {
              cellId: 'q1',
              cellTitle: '',
              rawQuery: 'SELECT week, sum(amount) FROM orders GROUP BY week',
              lastExecuted: { time: 2000, actor: 'urn:li:corpuser:nb' },
            },
            chartCell: null,
          },
          {
            type: 'CHART_CELL',
            textCell: null,
            queryChell: null,
            chartCell: { cellId: 'c1', cellTitle: 'Chart', changeAuditStamps: { created: { time: 3 } } },
          },
        ],
      },
      editableProperties: null,
      ownership: null,
      tags: null,
      subTypes: { typeNames: ['Query notebook'] },
      browsePathV2: null,
    });
    const entity = await run(`{ entity(urn: "${NOTEBOOK}") { urn ... on Notebook { info { title } } } }`, undefined, reader());
    expect(entity.data).toEqual({ entity: { urn: NOTEBOOK, info: { title: 'Weekly revenue' } } });
    expect((await run(`{ notebook(urn: "urn:li:notebook:(querybook,absent)") { urn } }`, undefined, reader())).data).toEqual({
      notebook: null,
    });
  });

  it('updateNotebook replaces the editable description (stamped) and tags; each part asks its privilege or EDIT_ENTITY', async () => {
    const { run, stored, errorOf } = await setup();
    const input = {
      editableProperties: { description: 'Curated weekly revenue' },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:finance', name: 'finance' } }] },
    };
    expect(errorOf(await run(UPDATE, { urn: NOTEBOOK, input }, as('urn:li:corpuser:doc', Privilege.EDIT_ENTITY_DOCS)))).toEqual([
      { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 },
    ]);
    const updated = await run(
      UPDATE,
      { urn: NOTEBOOK, input },
      as('urn:li:corpuser:ed', Privilege.EDIT_ENTITY_DOCS, Privilege.EDIT_ENTITY_TAGS),
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data!.updateNotebook).toEqual({
      urn: NOTEBOOK,
      editableProperties: { description: 'Curated weekly revenue' },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:finance' } }] },
    });
    const stamp = { time: NOW, actor: 'urn:li:corpuser:ed' };
    expect(await stored(NOTEBOOK, 'editableNotebookProperties')).toEqual({
      description: 'Curated weekly revenue',
      created: stamp,
      lastModified: stamp,
    });
    expect(await stored(NOTEBOOK, 'globalTags')).toEqual({ tags: [{ tag: 'urn:li:tag:finance' }] });
    const absent = 'urn:li:notebook:(querybook,absent)';
    expect(errorOf(await run(UPDATE, { urn: absent, input }, as('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY)))).toEqual([
      { message: `Failed to update ${absent}. ${absent} does not exist.`, code: 400 },
    ]);
  });
});
