// TLS alerts a service sends after the handshake (TLS 1.3: "certificate required"), which undici reports only as "other side closed".
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** Recent alerts by connection ("localPort:remotePort"), oldest first; a few suffice (one per failing connection). */
const recent = new Map<string, string>();
const KEEP = 64;
let watching = false;

/**
 * Starts recording the OpenSSL error (ERR_SSL_*) each undici connection raises, so that a request
 * cut by it can be told apart from a plain reset. Once per process; the listener only records.
 */
export function watchTlsAlerts(): void {
  if (watching) return;
  watching = true;
  subscribe('undici:client:connected', (message) => {
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
  return recent.get(`${String(info.localPort)}:${String(info.remotePort)}`);
}
