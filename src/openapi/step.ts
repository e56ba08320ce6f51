// The OpenAPI step that config loading is handed: the parser and the import load only when a document is named.
import type { DocumentStep } from '../config/load.js';
import type { OpenApiStepOptions } from './config.js';

/** The step to pass as `loadConfig({ documentStep })` so a run can read `--openapi` or the config's `openapi`. */
export function openApiStep(options: OpenApiStepOptions = {}): DocumentStep {
  // A dynamic import: the parser is the heaviest module of the CLI, and most runs do not need it.
  return async (input) => (await import('./config.js')).applyOpenApi(input, options);
}
