import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Every SDL file of the repository, where the modules keep them beside their resolvers (a package's in its
// src/graphql/, the host's in its src/): for the tools that need the whole API without composing a server (resolver
// types, the schema.graphql snapshot, the benchmark's ceiling, the fuzzer). The server assembles its schema from the
// modules it composes; apps/server/test/schema.test.ts checks that both give the same schema.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Where the modules keep their SDL files, relative to the repository root: `<group>/<package>/<folder>/*.graphql`. */
const MODULE_SDL_FOLDERS = [
  ['packages', 'src/graphql'],
  ['apps', 'src'],
] as const;

/** Globs of the modules' SDL files, relative to the repository root (the base SDL, sdl/base.graphql, apart). */
export const MODULE_SDL_GLOBS: readonly string[] = MODULE_SDL_FOLDERS.map(([group, folder]) => `${group}/*/${folder}/*.graphql`);

/** Every module's SDL text, in a stable order (the base SDL, which buildApiSchema always adds, left out). */
export function repositoryTypeDefs(): string[] {
  return MODULE_SDL_FOLDERS.flatMap(([group, folder]) =>
    readdirSync(join(ROOT, group))
      .sort()
      .map((name) => join(ROOT, group, name, folder))
      .filter((dir) => existsSync(dir))
      .flatMap((dir) =>
        readdirSync(dir)
          .filter((file) => file.endsWith('.graphql'))
          .sort()
          .map((file) => readFileSync(join(dir, file), 'utf8')),
      ),
  );
}
