// The bundled example API: an in-memory service that follows CONVENTIONS.md, with variants and breaks for tests.
export { createExampleApi, type ExampleApi } from './server.js';
export type { ExampleApiOptions, Variant, RateLimitOptions, Middleware } from './options.js';
export { DEFAULT_RATE_LIMIT, strictRateLimit } from './options.js';
export {
  BREAK_ALSO_FAILS,
  BREAK_DESCRIPTIONS,
  BREAK_NAMES,
  BREAK_RULES,
  breakFlagName,
  breakNamed,
  type Breaks,
} from './breaks.js';
export {
  defaultResources,
  ordersDefinition,
  widgetsDefinition,
  thingsResources,
  singularOf,
  SERVER_FIELDS,
  type FieldSpec,
  type FieldType,
  type ResourceDefinition,
  type ResourceOperation,
} from './resources.js';
export { signBody, eventMatches } from './webhooks.js';
