import { readdirSync, readFileSync } from 'node:fs';
import { aspectOfClass, entityOfSnapshotClass, isJsonObject, pegasusFromAvro } from '../../src/index';

/** DataHub's golden and example ingestion files (sources and commits in that folder's SOURCES.md). */
export const GOLDEN_DIR = new URL('../../../entities/test/fixtures/datahub/', import.meta.url);

export const goldenFiles = (): string[] =>
  readdirSync(GOLDEN_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort();

/** One aspect an item of a file carries: an MCP's, or one of an MCE snapshot's. */
export interface GoldenAspect {
  readonly where: string;
  readonly form: 'MCE' | 'MCP';
  readonly urn: string | undefined;
  /** The entity type as the item names it (the MCP's `entityType`, or the snapshot class's entity). */
  readonly entityType: string;
  readonly aspectName: string;
  readonly changeType: string;
  /** The aspect's value in Pegasus JSON (an MCE file's Avro JSON read as such); a PATCH's operations. */
  readonly value: unknown;
  /** The snapshot class, for an MCE aspect. */
  readonly snapshotClass?: string;
}

const AVRO = 'com.linkedin.pegasus2avro.';

/**
 * The aspects of a file's items, read the way DataHub's file source reads them: an MCE snapshot's aspects by class
 * (Avro's `pegasus2avro` names and JSON as Pegasus JSON), an MCP's `aspect.json` or its `aspect.value` text.
 */
export function goldenAspects(file: string): GoldenAspect[] {
  const items = JSON.parse(readFileSync(new URL(file, GOLDEN_DIR), 'utf8')) as unknown[];
  return items.flatMap((item, i): GoldenAspect[] => {
    const where = `${file}[${i}]`;
    if (!isJsonObject(item)) throw new Error(`${where} is no object`);
    if (isJsonObject(item.proposedSnapshot)) {
      const [snapshotClass, body] = Object.entries(item.proposedSnapshot)[0] as [string, { urn: string; aspects: object[] }];
      const entityType = entityOfSnapshotClass(snapshotClass)?.name ?? snapshotClass;
      return body.aspects.map((wrapped) => {
        const [aspectClass, value] = Object.entries(wrapped)[0] as [string, unknown];
        const aspectName = aspectOfClass(aspectClass)?.name ?? aspectClass;
        const pegasus = aspectClass.startsWith(AVRO) ? pegasusFromAvro(aspectName, value) : value;
        return { where, form: 'MCE', urn: body.urn, entityType, aspectName, changeType: 'UPSERT', value: pegasus, snapshotClass };
      });
    }
    const aspect = isJsonObject(item.aspect) ? item.aspect : {};
    const value = aspect.json !== undefined ? aspect.json : typeof aspect.value === 'string' ? JSON.parse(aspect.value) : aspect.value;
    return [
      {
        where,
        form: 'MCP',
        urn: typeof item.entityUrn === 'string' ? item.entityUrn : undefined,
        entityType: String(item.entityType),
        aspectName: String(item.aspectName),
        changeType: String(item.changeType ?? 'UPSERT'),
        value,
      },
    ];
  });
}
