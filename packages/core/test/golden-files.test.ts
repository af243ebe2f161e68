import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entityAspect, findEntity, keyAspectValue, parseUrn, validateAspect } from '../src/index';
import { GOLDEN_DIR, goldenAspects, goldenFiles } from './support/golden-files';

// DataHub's own golden and example ingestion files (packages/entities/test/fixtures/datahub, sources in SOURCES.md):
// every aspect of every item names a known entity type and an aspect it allows, and DataHub's model accepts its value.
const files = goldenFiles();
const all = files.flatMap(goldenAspects);

describe("DataHub's golden files against the model", () => {
  it('are the 12 files of before, 17 more, 2 with fine-grained lineage PATCHes, 1 with siblings and 1 with foreign keys, each noted in SOURCES.md', () => {
    expect(files.length).toBe(33);
    const sources = readFileSync(new URL('SOURCES.md', GOLDEN_DIR), 'utf8');
    // A table row naming the file (Prettier pads the cells of the first table).
    const rows = new Set([...sources.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1]));
    for (const file of files) expect(rows, file).toContain(file);
  });

  it('cover containers, data processes and their runs, queries, assertions, ML models, notebooks, glossaries, data products, structured properties, incidents and forms', () => {
    const seen = new Set(all.map((a) => `${a.entityType}.${a.aspectName}`));
    for (const pair of [
      'container.containerProperties',
      'dataProcessInstance.dataProcessInstanceProperties',
      'dataProcessInstance.dataProcessInstanceRunEvent',
      'query.queryProperties',
      'query.querySubjects',
      'assertion.assertionInfo',
      'assertion.assertionRunEvent',
      'mlModel.mlModelProperties',
      'mlModelGroup.mlModelGroupProperties',
      'notebook.ownership',
      'glossaryTerm.glossaryTermInfo',
      'glossaryNode.glossaryNodeInfo',
      'dataProduct.dataProductProperties',
      'structuredProperty.propertyDefinition',
      'incident.incidentInfo',
      'form.formInfo',
    ]) {
      expect(seen, pair).toContain(pair);
    }
  });

  it.each(files)('%s: every aspect is of a known entity type that allows it', (file) => {
    for (const a of goldenAspects(file)) {
      const entity = findEntity(a.entityType);
      expect(entity, `${a.where}: entity type ${a.entityType}`).toBeDefined();
      expect(entityAspect(entity!, a.aspectName), `${a.where}: ${a.entityType}.${a.aspectName}`).toBeDefined();
      if (a.snapshotClass) expect(entity!.snapshotAspects, `${a.where}: ${a.snapshotClass}`).toContain(a.aspectName);
      if (a.urn !== undefined) {
        const urn = parseUrn(a.urn);
        expect(urn.entityType.toLowerCase(), a.where).toBe(entity!.name.toLowerCase());
        expect(validateAspect(entity!.keyAspect, keyAspectValue(entity!, urn)), `${a.where}: key of ${a.urn}`).toEqual([]);
      }
    }
  });

  it.each(files)('%s: every value (PATCH operations aside) is valid in DataHub’s model', (file) => {
    for (const a of goldenAspects(file)) {
      if (a.changeType === 'PATCH') continue;
      expect(validateAspect(a.aspectName, a.value), `${a.where}: ${a.entityType}.${a.aspectName}`).toEqual([]);
    }
  });

  it('hold hundreds of aspects of dozens of kinds', () => {
    expect(all.length).toBeGreaterThan(750);
    expect(new Set(all.map((a) => a.aspectName)).size).toBeGreaterThan(70);
    expect(new Set(all.map((a) => findEntity(a.entityType)?.name)).size).toBeGreaterThan(25);
  });
});
