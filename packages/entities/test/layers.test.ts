import { ESLint, Linter } from 'eslint';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The TypeScript sources of every package and app (not tests, not generated code). */
function sources(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'generated') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts')) found.push(relative(ROOT, path));
    }
  };
  for (const group of ['packages', 'apps']) {
    for (const pkg of readdirSync(join(ROOT, group), { withFileTypes: true })) {
      // A folder left by a removed package (its node_modules, no src) is no package.
      if (pkg.isDirectory() && existsSync(join(ROOT, group, pkg.name, 'src'))) walk(join(ROOT, group, pkg.name, 'src'));
    }
  }
  return found;
}

/** The lint findings of the repository's own no-restricted-imports for `code`, as if it were the file `path`. */
async function restrictedImports(path: string, code: string): Promise<string[]> {
  const config = await new ESLint({ cwd: ROOT }).calculateConfigForFile(path);
  const rule = (config as { rules?: Record<string, Linter.RuleEntry> }).rules?.['no-restricted-imports'];
  if (!rule) return [];
  const linter = new Linter({ configType: 'flat', cwd: ROOT });
  const messages = linter.verify(code, [{ files: ['**/*.ts'], rules: { 'no-restricted-imports': rule } }], { filename: join(ROOT, path) });
  return messages.map((m) => m.message);
}

describe('the layers of @mds/entities', () => {
  it('no source calls the aspect store’s write outside the entity service', () => {
    // @mds/timeseries has a store of its own (TimeseriesStore, its time-series points): not the aspect store.
    const writers = sources().filter(
      (path) => !path.startsWith('packages/timeseries/') && /\bstore\.write\(/.test(readFileSync(join(ROOT, path), 'utf8')),
    );
    // …and the bare store the benchmark measures ingestion against (no checks by design; only bench/ may import it).
    expect(writers.sort()).toEqual(
      [
        'packages/entities/src/service/ingest.ts',
        'packages/entities/src/service/entity-service.ts',
        'packages/entities/src/store/raw-ingest.ts',
      ].sort(),
    );
  });

  it('the lint fails a face, another package or the host that imports the store (a planted violation)', { timeout: 60_000 }, async () => {
    const planted = "import { createSqlAspectStore } from '../store/sql-store';\nexport const store = createSqlAspectStore;\n";
    for (const face of ['restli/endpoints.ts', 'openapi/reads.ts', 'graphql/dataset.ts', 'routes/recent-entities.ts', 'model/patch.ts']) {
      expect(await restrictedImports(`packages/entities/src/${face}`, planted), face).toEqual([
        expect.stringContaining('Only the entity service (src/service/) may use the aspect store.'),
      ]);
    }
    const reachedInto =
      "import { createSqlAspectStore } from '@mds/entities/src/store/sql-store';\nexport const store = createSqlAspectStore;\n";
    for (const other of ['packages/tags/src/service.ts', 'apps/server/src/compose.ts']) {
      expect(await restrictedImports(other, reachedInto), other).toEqual([expect.stringContaining('never its store')]);
    }
    // The bare store, which writes without any check, is the benchmark's alone.
    const bare = "import { openBareStore } from '@mds/entities/raw-store';\nexport const store = openBareStore;\n";
    for (const other of ['packages/tags/src/service.ts', 'apps/server/src/compose.ts']) {
      expect(await restrictedImports(other, bare), other).toEqual([expect.stringContaining('pnpm bench alone uses it')]);
    }
    expect(await restrictedImports('bench/src/bare-store/server.ts', bare)).toEqual([]);
    expect(await restrictedImports('bench/src/bare-store/server.ts', reachedInto)).toEqual([expect.stringContaining('never its store')]);
    // The service and the package's composition may.
    expect(await restrictedImports('packages/entities/src/service/entity-service.ts', planted)).toEqual([]);
    expect(await restrictedImports('packages/entities/src/module.ts', planted)).toEqual([]);
  });
});
