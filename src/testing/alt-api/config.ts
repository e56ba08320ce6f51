// The hand-written config a user of the alternative API would write, as YAML, loaded like a real config file.
import type { AuditConfig } from '../../core/types.js';
import { parseConfigText } from '../../config/load.js';
import type { AltServer } from './server.js';

/** The environment the config's ${VAR}s come from. */
export function altEnv(server: AltServer): NodeJS.ProcessEnv {
  return { ALT_API_TOKEN: server.tokens.full, ALT_API_READONLY_TOKEN: server.tokens.limited };
}

/** The YAML text of the config for this server (its switches decide a few lines). */
export function altConfigText(server: AltServer): string {
  const o = server.options;
  // Only where unknown fields are refused is an unknown field an invalid payload.
  const unknownInvalid = (body: string): string => (o.unknownFields === 'reject' ? `\n      - ${body}` : '');
  return `# Audits the alternative API (src/testing/alt-api): written by hand, as its users would.
baseUrl: ${server.baseUrl}
auth:
  token: \${ALT_API_TOKEN}
  limitedToken: \${ALT_API_READONLY_TOKEN}
idempotency:
  header: ${o.idempotencyHeader}
rateLimit:
  maxRequests: ${o.rateLimitPerSecond * 10}
  expected: true
resources:
  - name: addresses
    path: /addresses
    sample: { street: '12 Rue Oberkampf', city: Paris, zip: '75011', primary: false, lines: ['Bat. A'] }
    replace: { street: '14 Rue Oberkampf', city: Paris, zip: '75011', primary: true, lines: ['Bat. B', '2e etage'] }
    update: { city: Lyon, zip: '69001' }
    invalid:
      - { street: '12 Rue Oberkampf', city: Paris, zip: '7501' }
      - { city: Paris, zip: '75011' }
      - { street: '', city: Paris, zip: '75011' }
      - { street: '12 Rue Oberkampf', city: Paris, zip: 75011 }${unknownInvalid("{ street: '12 Rue Oberkampf', city: Paris, zip: '75011', colour: red }")}
    forbidden: [create, replace, update, delete]
    idempotencyKey: true
    schema:
      type: object
      required: [id, street, city, zip, created_at, updated_at, version, etag]
      additionalProperties: false
      properties:
        id: { type: string, pattern: '^adr_[0-9a-z]{5}$' }
        object: { const: address }
        street: { type: string, minLength: 1 }
        city: { type: string }
        zip: { type: string, pattern: '^[0-9]{5}$' }
        primary: { type: boolean }
        lines: { type: array, items: { type: string } }
        created_at: { type: string }
        updated_at: { type: string }
        version: { type: integer, minimum: 1 }
        etag: { type: string }
        _links: { type: object }
  - name: updates
    path: /updates
    operations: [list, read, create, replace, update, delete]
    sample: { title: '2.6.0', channel: stable, success: false, notes: ['rolled back'], build: { number: 412, commit: a1b2c3d } }
    replace: { title: '2.6.1', channel: beta, success: true }
    update: { success: true, build: { number: 413 } }
    invalid:
      - { title: '2.6.0', channel: alpha, success: true }
      - { title: '2.6.0', channel: stable }
      - { title: '2.6.0', channel: stable, success: 'yes' }
      - { channel: stable, success: true }
    forbidden: [create, replace, update, delete]
    idempotencyKey: true
    schema:
      type: object
      required: [id, title, channel, success, version]
      properties:
        id: { type: string, pattern: '^[0-9a-f]{24}$' }
        title: { type: string }
        channel: { enum: [stable, beta, nightly] }
        success: { type: boolean }
        notes: { type: array, items: { type: string } }
        build: { type: object }
        version: { type: integer }
  - name: settings
    path: /settings
    idField: uid
    sample: { name: ui.density, value: compact, scope: user, priority: 2 }
    replace: { name: ui.density, value: comfortable, scope: org }
    update: { value: cozy }
    invalid:
      - { name: 'Bad Name', value: x, scope: user }
      - { name: ui.x, value: x, scope: team }
      - { name: ui.x, value: x, scope: user, priority: -1 }
      - { name: ui.x, scope: user }${unknownInvalid('{ name: ui.x, value: x, scope: user, owner: me }')}
    forbidden: [create, replace, update, delete]
`;
}

/** The config, parsed and validated exactly like a user's file. */
export function altConfig(server: AltServer): AuditConfig {
  return parseConfigText(altConfigText(server), { source: 'alt-api.yaml', env: altEnv(server) });
}
