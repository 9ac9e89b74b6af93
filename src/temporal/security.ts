/**
 * How the client and the workers reach a Temporal cluster that is not a local dev server: TLS
 * (with the system's CAs or a given CA bundle), an mTLS client certificate (self-hosted clusters
 * with mTLS, Temporal Cloud's certificate auth) or a Temporal Cloud API key. The same options serve
 * the client's `Connection` and the workers' `NativeConnection`.
 */
import { readFileSync } from 'node:fs';
import type { WorkerConfig } from '../config.js';
import { ConfigError } from '../config.js';

export interface TemporalSecurity {
  tls: false | { clientCertPair?: { crt: Buffer; key: Buffer }; serverRootCACertificate?: Buffer; serverNameOverride?: string };
  apiKey?: string;
}

/** No TLS, no key: a local dev server. */
export const PLAINTEXT: TemporalSecurity = { tls: false };

type SecurityConfig = Pick<
  WorkerConfig,
  'TEMPORAL_TLS' | 'TEMPORAL_TLS_CERT_PATH' | 'TEMPORAL_TLS_KEY_PATH' | 'TEMPORAL_TLS_CA_PATH' | 'TEMPORAL_TLS_SERVER_NAME' | 'TEMPORAL_API_KEY'
>;

function pem(variable: string, file: string, read: (file: string) => Buffer): Buffer {
  try {
    return read(file);
  } catch (err) {
    throw new ConfigError(`invalid configuration: ${variable} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The connection security the configuration asks for; files are read once, here. */
export function temporalSecurityOf(config: SecurityConfig, read: (file: string) => Buffer = (file) => readFileSync(file)): TemporalSecurity {
  const certPair =
    config.TEMPORAL_TLS_CERT_PATH !== undefined && config.TEMPORAL_TLS_KEY_PATH !== undefined
      ? { crt: pem('TEMPORAL_TLS_CERT_PATH', config.TEMPORAL_TLS_CERT_PATH, read), key: pem('TEMPORAL_TLS_KEY_PATH', config.TEMPORAL_TLS_KEY_PATH, read) }
      : undefined;
  const useTls = config.TEMPORAL_TLS || certPair !== undefined || config.TEMPORAL_API_KEY !== undefined || config.TEMPORAL_TLS_CA_PATH !== undefined;
  if (!useTls) return PLAINTEXT;
  return {
    tls: {
      ...(certPair ? { clientCertPair: certPair } : {}),
      ...(config.TEMPORAL_TLS_CA_PATH !== undefined ? { serverRootCACertificate: pem('TEMPORAL_TLS_CA_PATH', config.TEMPORAL_TLS_CA_PATH, read) } : {}),
      ...(config.TEMPORAL_TLS_SERVER_NAME !== undefined ? { serverNameOverride: config.TEMPORAL_TLS_SERVER_NAME } : {}),
    },
    ...(config.TEMPORAL_API_KEY !== undefined ? { apiKey: config.TEMPORAL_API_KEY } : {}),
  };
}

/** The options of `Connection.connect` / `NativeConnection.connect` besides the address. */
export function connectionOptions(security: TemporalSecurity): { tls?: TemporalSecurity['tls'] | true; apiKey?: string } {
  if (security.tls === false) return {};
  const tls = Object.keys(security.tls).length === 0 ? true : security.tls;
  return { tls, ...(security.apiKey !== undefined ? { apiKey: security.apiKey } : {}) };
}
