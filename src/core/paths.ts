// Locations inside the installed package, valid from both dist/ and the test build.
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

/** The package root (where package.json and config/ live). Compiled files sit at <build>/src/core/. */
export const packageRoot: string = fileURLToPath(new URL('../../../', import.meta.url));

/** Absolute path of a file inside the package. */
export function packagePath(...parts: string[]): string {
  return [packageRoot.replace(/\/$/, ''), ...parts].join('/');
}

let cachedManifest: { name: string; version: string } | undefined;
function manifest(): { name: string; version: string } {
  cachedManifest ??= JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return cachedManifest;
}

/** The tool's version from package.json. */
export function toolVersion(): string {
  return manifest().version;
}

/** The package's name on the registry (what users install; the command is `conformance`). */
export function packageName(): string {
  return manifest().name;
}
