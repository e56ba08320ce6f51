// Test fixtures for TLS and proxies: a throwaway PKI (openssl CLI), a TLS front for a loopback server, a CONNECT proxy.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';

/** PEM files of a throwaway PKI (paths), and their text. */
export interface Pki {
  dir: string;
  /** The test CA's certificate. */
  ca: string;
  /** A server certificate for 127.0.0.1 signed by the CA, and its key. */
  serverCert: string;
  serverKey: string;
  /** A self-signed certificate for 127.0.0.1 (no CA), and its key. */
  selfSignedCert: string;
  selfSignedKey: string;
  /** A certificate signed by the CA for another host name only (other.test), and its key. */
  otherHostCert: string;
  otherHostKey: string;
  /** A client certificate signed by the CA, and its key. */
  clientCert: string;
  clientKey: string;
  read(file: string): string;
  remove(): void;
}

/**
 * Makes a CA and certificates signed by it with the `openssl` command (node:crypto cannot issue
 * X.509 certificates; openssl is on every CI image). Keys are EC P-256: fast to generate.
 */
export function makePki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-pki-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const key = (name: string): string => {
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file(name));
    return file(name);
  };
  const selfSigned = (keyFile: string, out: string, subject: string, ext: string[]): void =>
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      keyFile,
      '-out',
      file(out),
      '-days',
      '2',
      '-subj',
      subject,
      ...ext,
    );
  /** A certificate for `keyFile` signed by the CA, with the given extensions. */
  const signed = (keyFile: string, out: string, subject: string, extensions: string): string => {
    openssl('req', '-new', '-key', keyFile, '-out', file(`${out}.csr`), '-subj', subject);
    writeFileSync(file(`${out}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${out}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file(out),
      '-days',
      '2',
      '-extfile',
      file(`${out}.ext`),
    );
    return file(out);
  };
  const caKey = key('ca.key');
  selfSigned(caKey, 'ca.pem', '/CN=conformance test CA', [
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const serverKey = key('server.key');
  const serverCert = signed(
    serverKey,
    'server.pem',
    '/CN=127.0.0.1',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  const otherHostKey = key('other.key');
  const otherHostCert = signed(
    otherHostKey,
    'other.pem',
    '/CN=other.test',
    'subjectAltName=DNS:other.test\nextendedKeyUsage=serverAuth\n',
  );
  const clientKey = key('client.key');
  const clientCert = signed(
    clientKey,
    'client.pem',
    '/CN=conformance client',
    'extendedKeyUsage=clientAuth\n',
  );
  const selfSignedKey = key('self.key');
  selfSigned(selfSignedKey, 'self.pem', '/CN=127.0.0.1', ['-addext', 'subjectAltName=IP:127.0.0.1']);
  return {
    dir,
    ca: file('ca.pem'),
    serverCert,
    serverKey,
    selfSignedCert: file('self.pem'),
    selfSignedKey,
    otherHostCert,
    otherHostKey,
    clientCert,
    clientKey,
    read: (name) => readFileSync(name, 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A loopback listener; `close` ends every connection it holds. */
export interface LoopbackServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A TLS front on 127.0.0.1 for a plain loopback server (the example API): terminates TLS with
 * `cert`/`key` and pipes the bytes to `targetPort`. `clientCa`: a client certificate signed by it
 * is required.
 */
export async function startTlsFront(
  targetPort: number,
  tls: { cert: string; key: string; clientCa?: string },
): Promise<LoopbackServer & { handshakes: () => number }> {
  const sockets = new Set<Socket>();
  let handshakes = 0;
  const server = createTlsServer(
    {
      cert: readFileSync(tls.cert),
      key: readFileSync(tls.key),
      ...(tls.clientCa
        ? { ca: readFileSync(tls.clientCa), requestCert: true, rejectUnauthorized: true }
        : {}),
    },
    (socket: TLSSocket) => {
      handshakes++;
      const upstream = netConnect(targetPort, '127.0.0.1');
      for (const s of [socket, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined).on('close', () => sockets.delete(s));
      }
      socket.pipe(upstream).pipe(socket);
    },
  );
  server.on('tlsClientError', () => undefined);
  return listenLoopback(server, sockets, { handshakes: () => handshakes });
}

/** A CONNECT proxy on 127.0.0.1 that records each tunnel's target ("127.0.0.1:8443"). */
export async function startConnectProxy(): Promise<LoopbackServer & { url: string; tunnels: string[] }> {
  const sockets = new Set<Socket>();
  const tunnels: string[] = [];
  const server = createHttpServer((_req, res) => {
    // Only tunnels: a plain proxied request would be a sign the client did not CONNECT.
    res.writeHead(405).end();
  });
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const target = req.url ?? '';
    tunnels.push(target);
    const [host, port] = [
      target.slice(0, target.lastIndexOf(':')),
      Number(target.slice(target.lastIndexOf(':') + 1)),
    ];
    const upstream = netConnect(port, host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('error', () => socket.destroy()).on('close', () => sockets.delete(s));
    }
  });
  const listening = await listenLoopback(server, sockets, { tunnels });
  return { ...listening, url: `http://127.0.0.1:${listening.port}` };
}

async function listenLoopback<T extends object>(
  server: ReturnType<typeof createHttpServer> | ReturnType<typeof createTlsServer>,
  sockets: Set<Socket>,
  extra: T,
): Promise<LoopbackServer & T> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    ...extra,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
