// VER-UNKNOWN: a version far from the real one is not served (no 2xx, not even after a redirect).
import { defineCheck } from '../../src/core/check.js';
import { answered, is2xx } from '../../src/core/verdicts.js';
import { collectionUrl, VERSION_SEGMENT, versionSegment } from '../support/versions.js';

/** A version no service has: v999, or N + 1000 for services already past v500. */
export function farVersion(n: number): number {
  return n < 500 ? 999 : n + 1000;
}

export default defineCheck({
  kind: 'active',
  id: 'unknown-version',
  rules: ['VER-UNKNOWN'],
  suite: 'versioning',
  title: 'An unknown API version is not served',
  severity: 'error',
  schedule: 'api-read',
  writes: 'none',
  messages: {
    unknownVersionServed: 'an API version that does not exist is served (2xx)',
    redirectedToServed: 'an API version that does not exist redirects to one that answers 2xx',
  },
  description: {
    sends:
      'GET of the first listable collection with its v<N> segment replaced by a far version (v999), with the full token. Same-origin redirects are followed.',
    passes:
      'Any answer but 2xx: 404, 400, 410, 406... A redirect that ends in a 2xx fails: HTTP clients follow redirects on their own, so a client asking for a version that does not exist would silently get another version.',
    why: 'A client pinned to a version that does not exist (a typo, a version not released yet) must find out at once, not receive another version whose shape it does not expect.',
  },
  async run(ctx) {
    const r = ctx.config.resources.find((res) => res.operations.includes('list'));
    if (!r) return ctx.skip('no resource declares list: there is no collection to GET under another version');
    const url = collectionUrl(ctx.config.baseUrl, r);
    const { index, segments } = versionSegment(url.pathname);
    if (index < 0) return ctx.skip(`${url.pathname} has no /v<N>/ segment to replace (see version-in-path)`);
    const real = Number(VERSION_SEGMENT.exec(segments[index])?.[1]);
    segments[index] = `v${farVersion(real)}`;
    const probe = new URL(url.href);
    probe.pathname = segments.join('/');
    const x = await ctx.send({ method: 'GET', path: probe.href });
    if (!is2xx(x)) return;
    const redirected = x.url !== probe.href;
    ctx.fail({
      messageId: redirected ? 'redirectedToServed' : 'unknownVersionServed',
      message: redirected
        ? `GET ${probe.pathname} was redirected to ${new URL(x.url).pathname}, which answered ${x.status}: an unknown version must not be served, and clients follow redirects without noticing`
        : `${answered(x)}: version ${segments[index]} does not exist (the API is ${url.pathname}), yet it is served`,
      evidence: [x],
    });
  },
});
