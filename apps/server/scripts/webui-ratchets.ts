// Writes the two ratchet lists of test/webui from mds's served schema as it is now: remaining-coordinates.txt (DataHub
// coordinates mds lacks or types differently) and remaining-operations.txt (the web UI's operations that do not
// validate). The tests never write them; run this when the reference itself changes (a new DataHub commit, new
// fixtures), and read the diff: a line that appears is a regression unless the reference changed under it.
//
//   pnpm --filter @mds/server exec tsx scripts/webui-ratchets.ts
import { coordinateRatchet, operationRatchet, writeList } from '../test/webui/ratchet';
import { servedSchema } from '../test/webui/served-schema';

const schema = await servedSchema();
for (const { ratchet } of [coordinateRatchet(schema), operationRatchet(schema)]) {
  writeList(ratchet);
  console.log(`${ratchet.current.length} entries written to ${ratchet.file.pathname}`);
}
