// The config's `tls` section: its PEM files read through the one capped reader and checked before any connection.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import type { TlsSettings } from '../core/types.js';
import type { Problem } from './problems.js';
import { readCappedFile, ReadProblem } from './read-file.js';

/** A PEM file of certificates or a key is a few KiB; a bundle of every public CA is about 250 KiB. */
const MAX_PEM_BYTES = 1024 * 1024;

const FILES = {
  ca: 'CA certificate file',
  cert: 'client certificate file',
  key: 'client key file',
} as const;

type FileKey = keyof typeof FILES;

const CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * Reads and checks the files `tls` names (relative to `baseDir`): each one a PEM file of the
 * right kind, `cert` and `key` given together and belonging together. Every problem names its
 * path (`tls.ca`...). Returns the settings (undefined when `tls` asks for nothing) and the problems;
 * a `tls` that is not a mapping is left to the schema.
 */
export async function readTls(
  data: Record<string, unknown>,
  baseDir: string,
): Promise<{ tls?: TlsSettings; problems: Problem[] }> {
  const section = data.tls;
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return { problems: [] };
  const raw = section as Record<string, unknown>;
  const problems: Problem[] = [];
  const problem = (key: FileKey, message: string): void => {
    problems.push({ path: ['tls', key], message });
  };
  const tls: TlsSettings = {};
  const files: NonNullable<TlsSettings['files']> = {};
  for (const key of Object.keys(FILES) as FileKey[]) {
    const value = raw[key];
    if (typeof value !== 'string' || value === '') continue;
    const file = isAbsolute(value) ? value : resolve(baseDir, value);
    try {
      tls[key] = await readCappedFile(file, value, FILES[key], MAX_PEM_BYTES);
      files[key] = file;
    } catch (error) {
      if (!(error instanceof ReadProblem)) throw error;
      problem(key, error.message);
    }
  }
  const certificates = (key: 'ca' | 'cert'): X509Certificate[] | undefined => {
    const text = tls[key];
    if (text === undefined) return undefined;
    const found = text.match(CERTIFICATE) ?? [];
    try {
      if (found.length > 0) return found.map((pem) => new X509Certificate(pem));
    } catch (error) {
      problem(key, `${raw[key] as string}: not a valid PEM certificate (${(error as Error).message})`);
      return undefined;
    }
    problem(
      key,
      `${raw[key] as string}: holds no PEM certificate ("-----BEGIN CERTIFICATE-----"); a DER file converts with: openssl x509 -inform der -in <file> -out <file>.pem`,
    );
    return undefined;
  };
  certificates('ca');
  const chain = certificates('cert');
  let key: KeyObject | undefined;
  if (tls.key !== undefined) {
    try {
      key = createPrivateKey(tls.key);
    } catch (error) {
      const encrypted = (error as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE';
      problem(
        'key',
        encrypted
          ? `${raw.key as string}: the key is encrypted; give an unencrypted copy (openssl pkey -in <file> -out <new file>)`
          : `${raw.key as string}: holds no PEM private key ("-----BEGIN PRIVATE KEY-----")`,
      );
    }
  }
  if (typeof raw.cert === 'string' && raw.key === undefined)
    problem('key', 'required with tls.cert: the private key of the client certificate');
  if (typeof raw.key === 'string' && raw.cert === undefined)
    problem('cert', 'required with tls.key: the client certificate of that key');
  if (chain && key && !chain[0].checkPrivateKey(key))
    problem(
      'key',
      `${raw.key as string}: not the private key of the certificate in tls.cert (${raw.cert as string})`,
    );
  if (raw.insecure === true) tls.insecure = true;
  if (Object.keys(files).length > 0) tls.files = files;
  return { ...(Object.keys(tls).length > 0 ? { tls } : {}), problems };
}
