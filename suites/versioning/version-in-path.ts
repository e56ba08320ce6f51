// VER-PATH: the version is a /v<N>/ segment of the path (judged from the config: no request is sent).
import { defineCheck } from '../../src/core/check.js';
import type { Evidence } from '../../src/core/types.js';
import { collectionUrl, versionSegment } from '../support/versions.js';

export default defineCheck({
  kind: 'active',
  id: 'version-in-path',
  rules: ['VER-PATH'],
  suite: 'versioning',
  title: 'The version is a /v<N>/ path segment',
  severity: 'error',
  schedule: 'api-read',
  writes: 'none',
  messages: {
    noVersionSegment: 'neither the base URL nor the path carries a /v<N>/ segment',
  },
  description: {
    sends: 'Nothing: it reads the base URL and every declared collection path.',
    passes:
      'Every collection URL (base URL path + resource path) has a segment of the form v<N>, e.g. /v1/ or /v2/ (lower-case v, whole number).',
    why: 'A version in the path lets the service change a representation in /v2/ while /v1/ clients keep working, without a painful migration.',
  },
  async run(ctx) {
    const missing = ctx.config.resources
      .map((r) => ({ r, url: collectionUrl(ctx.config.baseUrl, r) }))
      .filter(({ url }) => versionSegment(url.pathname).index < 0);
    if (missing.length === 0) return;
    const evidence: Evidence[] = missing
      .slice(0, 10)
      .map(({ url }) =>
        ctx.notSent({ path: url.href }, 'the URL itself shows that there is no /v<N>/ segment'),
      );
    const shown = missing.map(({ r, url }) => `${r.name} (${url.pathname})`).join(', ');
    ctx.fail({
      messageId: 'noVersionSegment',
      message: `no /v<N>/ segment in the base URL or in the path of ${shown}`,
      evidence,
      reproduce: { kind: 'base-url' },
    });
  },
});
