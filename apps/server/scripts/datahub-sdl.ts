// Prints DataHub's definition of the named GraphQL types (and, with --closure, of every type their fields and arguments
// lead to), rebuilt from the committed coordinates (test/webui/datahub-coordinates.txt): the facts to
// declare — names, types, nullability, arguments, defaults — without DataHub's descriptions, which mds writes itself.
//   pnpm --filter @mds/server exec tsx scripts/datahub-sdl.ts AppConfig PoliciesConfig
//   pnpm --filter @mds/server exec tsx scripts/datahub-sdl.ts --closure AppConfig
import { readFileSync } from 'node:fs';
import {
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  printType,
  type GraphQLNamedType,
  type GraphQLType,
} from 'graphql';
import { readCoordinateLines, schemaFromCoordinates } from '../test/webui/coordinates.ts';

const args = process.argv.slice(2);
const closure = args.includes('--closure');
// With --closure, an entity type (one implementing Entity) reached from a field is named but not entered: its own mapping declares it.
const entityStop = args.includes('--stop-at-entities');
const stopped = new Set<string>();
const names = args.filter((a) => !a.startsWith('--'));
if (names.length === 0) {
  console.error('usage: datahub-sdl.ts [--closure] TypeName …');
  process.exit(2);
}
const lines = readCoordinateLines(readFileSync(new URL('../test/webui/datahub-coordinates.txt', import.meta.url), 'utf8'));
const schema = schemaFromCoordinates(lines);

const wanted = new Set<string>();
const named = (type: GraphQLType): GraphQLNamedType => getNamedType(type);
const visit = (type: GraphQLNamedType) => {
  if (wanted.has(type.name) || type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) return;
  if (entityStop && wanted.size > 0 && isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Entity')) {
    stopped.add(type.name);
    return;
  }
  wanted.add(type.name);
  if (!closure) return;
  if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
    for (const field of Object.values(type.getFields())) {
      visit(named(field.type));
      for (const arg of 'args' in field ? field.args : []) visit(named(arg.type));
    }
  }
  if (isUnionType(type)) for (const member of type.getTypes()) visit(member);
};
for (const name of names) {
  const type = schema.getType(name);
  if (!type) {
    console.error(`DataHub's schema has no type ${name}`);
    process.exit(1);
  }
  visit(type);
}
if (stopped.size > 0) console.log(`# entity types reached, not printed: ${[...stopped].sort().join(' ')}\n`);
console.log([...wanted].map((name) => printType(schema.getType(name)!)).join('\n\n'));
