// TLS alerts a service sends after the handshake (TLS 1.3: "certificate required"), which undici reports only as "other side closed".
import { channel } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

const KEEP = 64;
const CONNECTED = channel('undici:client:connected');
/**
 * The recent alerts by connection ("localPort:remotePort"), oldest first (a few suffice: one per
 * failing connection). Kept on the channel, which is process-wide, so that every copy of this module
 * (test runners load one per test file) shares one subscription and one record.
 */
const KEY = Symbol.for('conformance.tls-alerts');
type Holder = { [KEY]?: Map<string, string> };

/**
 * Starts recording the OpenSSL error (ERR_SSL_*) each undici connection raises, so that a request
 * cut by it can be told apart from a plain reset. Once per process; the listener only records.
 */
export function watchTlsAlerts(): void {
  const holder = CONNECTED as unknown as Holder;
  if (holder[KEY]) return;
  const recent = new Map<string, string>();
  holder[KEY] = recent;
  CONNECTED.subscribe((message) => {
    const socket = (message as { socket?: Socket & { encrypted?: boolean } }).socket;
    if (!socket?.encrypted) return;
    const key = `${socket.localPort}:${socket.remotePort}`;
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (typeof err.code !== 'string' || !err.code.startsWith('ERR_SSL_')) return;
      recent.delete(key);
      recent.set(key, err.code);
      if (recent.size > KEEP) recent.delete(recent.keys().next().value!);
    });
  });
}

/** The TLS alert recorded on the connection undici's socket info names ({ localPort, remotePort }), if any. */
export function tlsAlertOn(socket: unknown): string | undefined {
  const info = socket as { localPort?: unknown; remotePort?: unknown } | undefined;
  if (info?.localPort === undefined) return undefined;
  return (CONNECTED as unknown as Holder)[KEY]?.get(`${String(info.localPort)}:${String(info.remotePort)}`);
}
