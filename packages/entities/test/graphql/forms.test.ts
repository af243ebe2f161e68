import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const CHART = 'urn:li:chart:(looker,baz1)';
const FORM = 'urn:li:form:retention';
const VERIFIED = 'urn:li:form:verified';
const stamp = (time: number) => ({ time, actor: 'urn:li:corpuser:jdoe' });

const FORMS = `query($urn: String!) { entity(urn: $urn) { ... on Dataset { forms { ...forms } } ... on Chart { forms { ...forms } } } }
fragment forms on Forms {
  incompleteForms { associatedUrn form { urn } incompletePrompts { id lastModified { time actor { urn } } } completedPrompts { id } }
  completedForms { associatedUrn form { urn } completedPrompts { id fieldAssociations { completedFieldPrompts { fieldPath lastModified { time } } } } }
  verifications { form { urn } lastModified { time actor { urn } } }
}`;

describe("Entity.forms, as DataHub's FormsMapper gives an asset's forms aspect", () => {
  it('answers the incomplete and completed forms with their prompts, and the verifications', async () => {
    const { entities, query } = await goldenGraphql(databases, ['bootstrap_mce.json'], {
      keep: (urn, aspect) =>
        (urn === DATASET || urn === CHART) && !['datasetProfile', 'operation', 'datasetUsageStatistics'].includes(aspect),
    });
    const grant = await entities.service.authorizeEdit(SYSTEM_ACTOR, [DATASET], []);
    await entities.service.write(grant, [
      {
        urn: DATASET,
        aspect: 'forms',
        changeType: 'UPSERT',
        value: {
          incompleteForms: [{ urn: FORM, incompletePrompts: [{ id: 'retention', lastModified: stamp(1) }], completedPrompts: [] }],
          completedForms: [
            {
              urn: VERIFIED,
              incompletePrompts: [],
              completedPrompts: [
                {
                  id: 'owner',
                  lastModified: stamp(2),
                  fieldAssociations: { completedFieldPrompts: [{ fieldPath: 'field_foo', lastModified: stamp(3) }] },
                },
              ],
            },
          ],
          verifications: [{ form: VERIFIED, lastModified: stamp(4) }],
        },
      },
    ]);
    const { entity } = await query(FORMS, { urn: DATASET });
    expect(entity.forms).toEqual({
      incompleteForms: [
        {
          associatedUrn: DATASET,
          form: { urn: FORM },
          incompletePrompts: [{ id: 'retention', lastModified: { time: 1, actor: { urn: 'urn:li:corpuser:jdoe' } } }],
          completedPrompts: [],
        },
      ],
      completedForms: [
        {
          associatedUrn: DATASET,
          form: { urn: VERIFIED },
          completedPrompts: [
            { id: 'owner', fieldAssociations: { completedFieldPrompts: [{ fieldPath: 'field_foo', lastModified: { time: 3 } }] } },
          ],
        },
      ],
      verifications: [{ form: { urn: VERIFIED }, lastModified: { time: 4, actor: { urn: 'urn:li:corpuser:jdoe' } } }],
    });
    // An asset with no forms aspect answers null, as DataHub's mapper leaves it unset.
    expect((await query(FORMS, { urn: CHART })).entity).toEqual({ forms: null });
  });
});
