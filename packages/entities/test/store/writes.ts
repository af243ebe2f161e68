import { findEntityOfUrn, keyAspectValue, parseUrn } from '@mds/core';
import type { AspectWrite } from '../../src/store/port';

/** A store write as the service hands it: with the entity's key aspect built from the urn. */
export type TestWrite = Omit<AspectWrite, 'key'>;

export const keyed = (write: TestWrite): AspectWrite => {
  const entity = findEntityOfUrn(write.urn)!;
  return { key: { aspect: entity.keyAspect, value: keyAspectValue(entity, parseUrn(write.urn)) }, ...write };
};

/** The store validates nothing: these tests hand it a check that passes everything, as if every value were valid. */
export const anything = () => {};
