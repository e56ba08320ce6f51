// The run-wide note of an audit with TLS certificate verification off, which every report shows loudly.

/** Put first in RunResult.notes when verification was off (config `tls.insecure` or `--insecure`). */
export const INSECURE_NOTE =
  'TLS certificate verification was OFF (--insecure or tls.insecure in the config): the audit accepted any certificate, so nothing here proves which server answered';

/**
 * Said on stderr before the first request: the run is still ahead, so in the present and future
 * tense (the reports keep INSECURE_NOTE, written when the run is over).
 */
export const INSECURE_START_NOTE =
  'TLS certificate verification is OFF (--insecure or tls.insecure in the config): the audit accepts any certificate, so nothing it reports will prove which server answered';

/** True when the run had certificate verification off (its notes carry INSECURE_NOTE, also after a merge). */
export function ranInsecure(run: { notes?: string[] }): boolean {
  return run.notes?.includes(INSECURE_NOTE) ?? false;
}
