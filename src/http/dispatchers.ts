// The audit's undici dispatchers: TLS settings (private CA, client certificate, --insecure) and the environment's proxies.
import { rootCertificates } from 'node:tls';
import { Agent, Client, EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import type { TlsSettings } from '../core/types.js';
import { watchTlsAlerts } from './tls-alerts.js';

/** How the audit's connections are made: TLS settings and the variables that name proxies. */
export interface NetworkOptions {
  tls?: TlsSettings;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** The proxies an environment names ('' for none): lower-case names first, as curl and undici read them. */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** Reads HTTP(S)_PROXY and NO_PROXY; HTTPS_PROXY falls back to HTTP_PROXY, as undici does. */
export function proxySettings(env: NodeJS.ProcessEnv = process.env): ProxySettings {
  const read = (name: string): string => (env[name.toLowerCase()] ?? env[name] ?? '').trim();
  const httpProxy = read('HTTP_PROXY');
  return { httpProxy, httpsProxy: read('HTTPS_PROXY') || httpProxy, noProxy: read('NO_PROXY') };
}

/**
 * The proxy a request to `url` goes through, for messages (credentials in it hidden), or undefined
 * when it goes direct. Decided as undici's EnvHttpProxyAgent decides (NO_PROXY: host names and
 * their subdomains, optional port, `*` for all).
 */
export function proxyFor(
  url: string,
  proxies: ProxySettings,
): { proxy: string; variable: string } | undefined {
  const target = new URL(url);
  const proxy = target.protocol === 'https:' ? proxies.httpsProxy : proxies.httpProxy;
  if (proxy === '' || bypassed(target, proxies.noProxy)) return undefined;
  const variable = target.protocol === 'https:' && proxy !== proxies.httpProxy ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  return { proxy: withoutCredentials(proxy), variable };
}

function bypassed(target: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  const host = target.hostname.toLowerCase();
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  return noProxy
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(entry.replace(/^\*?\./, ''));
      if (!m) return false;
      if (m[2] && Number(m[2]) !== port) return false;
      const name = m[1].toLowerCase();
      return host === name || host.endsWith(`.${name}`);
    });
}

function withoutCredentials(proxy: string): string {
  try {
    const url = new URL(proxy);
    if (url.username || url.password) {
      url.username = '';
      url.password = '';
    }
    return url.href.replace(/\/$/, '');
  } catch {
    return proxy.replace(/\/\/[^/@]*@/, '//[redacted]@');
  }
}

/** What every dispatcher is built with. */
export interface DispatcherOptions {
  /** Deadline of undici's own connect, headers and body timers (ms). */
  timeoutMs: number;
  /** Sockets per origin at most; 1 makes every request travel over one connection, in turn. */
  connections: number;
  network?: NetworkOptions;
  /** Called for each connection established (after the TLS handshake, and the tunnel when proxied). */
  onConnect?: () => void;
}

/** undici's TLS options for a connection to the service: verification stays on unless `insecure`. */
function tlsOptions(tls: TlsSettings | undefined): Record<string, unknown> {
  if (!tls) return {};
  return {
    // Added to the bundled roots (like NODE_EXTRA_CA_CERTS), not instead of them.
    ...(tls.ca ? { ca: [...rootCertificates, tls.ca] } : {}),
    ...(tls.cert && tls.key ? { cert: tls.cert, key: tls.key } : {}),
    ...(tls.insecure ? { rejectUnauthorized: false } : {}),
  };
}

/**
 * A dispatcher for the audit's requests: an undici Agent, or (when the environment names a proxy)
 * an EnvHttpProxyAgent, which tunnels through it with CONNECT except for NO_PROXY hosts. The TLS
 * settings apply to the service's connections, direct or tunnelled; only these dispatchers get
 * them (nothing process-wide).
 */
export function createDispatcher(opts: DispatcherOptions): Dispatcher {
  const { timeoutMs, connections, onConnect } = opts;
  watchTlsAlerts();
  const tls = tlsOptions(opts.network?.tls);
  // A Client when one connection is asked for (as undici's own factories do), a Pool otherwise;
  // either way the connection is counted once established.
  const factory = (origin: string | URL, options: object): Dispatcher => {
    const dispatcher = connections === 1 ? new Client(origin, options) : new Pool(origin, options);
    if (onConnect) dispatcher.on('connect', () => onConnect());
    return dispatcher;
  };
  const common = {
    connections,
    ...(connections === 1 ? { pipelining: 1 } : {}),
    keepAliveTimeout: 4000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    factory,
  };
  const proxies = proxySettings(opts.network?.env);
  if (proxies.httpProxy === '' && proxies.httpsProxy === '')
    return new Agent({ ...common, connect: { timeout: timeoutMs, ...tls } });
  // Passed explicitly ('' for none), so undici reads nothing else from process.env.
  return new EnvHttpProxyAgent({
    ...common,
    httpProxy: proxies.httpProxy,
    httpsProxy: proxies.httpsProxy,
    noProxy: proxies.noProxy,
    connect: { timeout: timeoutMs, ...tls },
    // Through a tunnel, the service's TLS is `requestTls`; the proxy's own (an https:// proxy) trusts the CA too.
    requestTls: { timeout: timeoutMs, ...tls },
    proxyTls: { timeout: timeoutMs, ...(opts.network?.tls?.ca ? { ca: tls.ca } : {}) },
  } as EnvHttpProxyAgent.Options);
}
