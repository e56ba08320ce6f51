// Public surface of config loading (see load.ts for the pipeline).
export { loadConfig, parseConfigText, DEFAULT_CONFIG_FILES } from './load.js';
export type {
  DocumentStep,
  DocumentStepInput,
  DocumentStepOutput,
  LoadOptions,
  ParseOptions,
  LoadedConfig,
} from './load.js';
export { validateWaivers, waiverExpiresAt } from './waivers.js';
export { compileItemSchema } from './item-schema.js';
export { closest, didYouMean } from './suggest.js';
