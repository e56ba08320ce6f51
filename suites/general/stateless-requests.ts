// GEN-STATELESS: authentication rides on every request, never on the connection or a cookie the server set.
import { defineCheck, type CheckContext, type Exchange } from '../../src/core/check.js';
import { answered, is2xx, requestLine } from '../../src/core/verdicts.js';

/**
 * Scripts replay the state by its own means: the unauthenticated GET sent right after the
 * authenticated one by the same curl (its connection), or a curl cookie jar the authenticated GET
 * fills (the audit's cookie values are stale secrets). `ok` must be 2xx where `refused` is not.
 */
const REMEMBERED = {
  connection: { kind: 'remembered', via: 'connection', ok: 1, refused: 2 },
  cookieNeeded: { kind: 'remembered', via: 'cookies', ok: 1, refused: 0 },
  cookieAuthenticates: { kind: 'remembered', via: 'cookies', ok: 1, refused: 2 },
} as const;

export default defineCheck({
  kind: 'active',
  id: 'stateless-requests',
  rules: ['GEN-STATELESS'],
  suite: 'general',
  title: 'The server remembers neither the connection nor a cookie in place of credentials',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'api-read',
  // It creates one item only when no resource can be listed (so no check compares that collection);
  // under --read-only that fallback is left out.
  writes: 'when-allowed',
  messages: {
    cookieNeeded: 'authentication works with the cookies the server set and fails without them',
    connectionRemembered:
      'a request without credentials is accepted on the connection of an authenticated one',
    cookieAuthenticates: 'a request without credentials is accepted with the cookies the server set',
  },
  description: {
    sends:
      'GET of a collection with the full token, then the same GET without credentials on the same keep-alive connection; the GET without credentials on a new connection (the control); the GET without credentials but with every cookie the server has set; and, when the authenticated GET fails without cookies, the same GET with them.',
    passes:
      'Without credentials the GET is refused on the reused connection and with the cookies just as on a new connection; an authenticated request works without cookies. Cookies that play no part in authentication (load-balancer affinity...) pass.',
    why: 'A server that lets a connection or a session cookie stand in for the token serves whoever shares the connection (proxies pool them) or steals the cookie, and clients that do not keep cookies break.',
  },
  async run(ctx) {
    const path = await pickPath(ctx);
    const jar = new Map<string, string>();
    const collect = (x: Exchange): Exchange => {
      collectCookies(ctx, x, jar);
      return x;
    };

    const pinned = ctx.pinConnection();
    let authed: Exchange;
    let follow: Exchange | undefined;
    let sameSocket = false;
    try {
      authed = collect(await pinned.send({ method: 'GET', path }));
      if (is2xx(authed)) {
        follow = collect(await pinned.send({ method: 'GET', path, auth: 'none' }));
        sameSocket = pinned.connectionsOpened === 1;
      }
    } finally {
      await pinned.close();
    }

    if (!is2xx(authed)) {
      // Does the authenticated request only work with the cookies the server just set?
      if (jar.size > 0) {
        const withCookies = await ctx.send({ method: 'GET', path, headers: { cookie: cookieHeader(jar) } });
        if (is2xx(withCookies)) {
          ctx.fail({
            messageId: 'cookieNeeded',
            reproduce: REMEMBERED.cookieNeeded,
            message: `${answered(authed)} with the full token and no cookies, but ${answered(withCookies)} with the cookies it set (${[...jar.keys()].join(', ')}): authentication must not need a cookie`,
            evidence: [authed, withCookies],
          });
          return;
        }
      }
      return ctx.skip(`${answered(authed)} with the full token, so there is nothing to compare with`);
    }

    const control = collect(await ctx.send({ method: 'GET', path, auth: 'none', connection: 'fresh' }));
    if (is2xx(control)) {
      return ctx.skip(
        `${answered(control)} without credentials even on a new connection with no cookies: missing-credentials-401 reports that, memory cannot be told from it`,
      );
    }
    if (follow && is2xx(follow) && sameSocket) {
      ctx.fail({
        messageId: 'connectionRemembered',
        reproduce: REMEMBERED.connection,
        message: `after an authenticated request, ${requestLine(follow)} without credentials on the same keep-alive connection answered ${follow.status} (on a new connection: ${control.status ?? 'no answer'}): the server remembers the connection`,
        evidence: [authed, follow, control],
      });
    }

    if (jar.size === 0) return;
    const withCookies = await ctx.send({
      method: 'GET',
      path,
      auth: 'none',
      connection: 'fresh',
      headers: { cookie: cookieHeader(jar) },
    });
    if (is2xx(withCookies)) {
      ctx.fail({
        messageId: 'cookieAuthenticates',
        reproduce: REMEMBERED.cookieAuthenticates,
        message: `${requestLine(withCookies)} without credentials but with the cookies the server set (${[...jar.keys()].join(', ')}) answered ${withCookies.status} (without them: ${control.status ?? 'no answer'}): a cookie stands in for the token`,
        evidence: [authed, withCookies, control],
      });
    }
  },
});

/** A cheap authenticated GET: the first listable collection, else an item the audit creates. */
async function pickPath(ctx: CheckContext): Promise<string> {
  const listable = ctx.config.resources.find((r) => r.operations.includes('list'));
  if (listable) return ctx.collectionPath(listable);
  const readable = ctx.config.resources.find(
    (r) => r.operations.includes('read') && r.operations.includes('create'),
  );
  if (readable) return (await ctx.create({ resource: readable })).path;
  return ctx.skip('no resource declares list, or read and create: there is no GET to compare');
}

/**
 * Adds the cookies an answer sets to the jar (name -> value). Long values are registered as
 * secrets: a cookie that stands in for the token is a credential, and reports must not show it.
 */
function collectCookies(ctx: CheckContext, x: Exchange, jar: Map<string, string>): void {
  const header = x.headers['set-cookie'];
  if (!header) return;
  for (const line of header.split('\n')) {
    const pair = line.split(';')[0];
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const value = pair.slice(eq + 1).trim();
    jar.set(pair.slice(0, eq).trim(), value);
    if (value.length >= 8) ctx.addSecret({ value });
  }
}

function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}
