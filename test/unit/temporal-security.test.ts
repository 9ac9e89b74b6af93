import { describe, expect, it } from 'vitest';
import { ConfigError, loadWorkerConfig } from '../../src/config.js';
import { connectionOptions, temporalSecurityOf } from '../../src/temporal/security.js';

const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/billing', TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233' };
const files: Record<string, string> = { '/certs/client.pem': 'CERT', '/certs/client.key': 'KEY', '/certs/ca.pem': 'CA' };
const read = (file: string) => {
  if (!(file in files)) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
  return Buffer.from(files[file]!);
};
const optionsOf = (env: Record<string, string>) => connectionOptions(temporalSecurityOf(loadWorkerConfig({ ...base, ...env }), read));

describe('Temporal connection security', () => {
  it('connects in plaintext by default (the local dev server)', () => {
    expect(optionsOf({})).toEqual({});
  });

  it('uses TLS with the system CAs when asked', () => {
    expect(optionsOf({ TEMPORAL_TLS: 'true' })).toEqual({ tls: true });
  });

  it('presents an mTLS client certificate, with a CA bundle and server name when given', () => {
    const options = optionsOf({
      TEMPORAL_TLS_CERT_PATH: '/certs/client.pem',
      TEMPORAL_TLS_KEY_PATH: '/certs/client.key',
      TEMPORAL_TLS_CA_PATH: '/certs/ca.pem',
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    expect(options.tls).toEqual({
      clientCertPair: { crt: Buffer.from('CERT'), key: Buffer.from('KEY') },
      serverRootCACertificate: Buffer.from('CA'),
      serverNameOverride: 'temporal.internal',
    });
    expect(options.apiKey).toBeUndefined();
  });

  it('sends a Temporal Cloud API key over TLS', () => {
    expect(optionsOf({ TEMPORAL_API_KEY: 'key-123' })).toEqual({ tls: true, apiKey: 'key-123' });
  });

  it('refuses half a certificate pair and names the missing variable', () => {
    expect(() => loadWorkerConfig({ ...base, TEMPORAL_TLS_CERT_PATH: '/certs/client.pem' })).toThrow(/TEMPORAL_TLS_KEY_PATH is not set/);
    expect(() => loadWorkerConfig({ ...base, TEMPORAL_TLS_KEY_PATH: '/certs/client.key' })).toThrow(/TEMPORAL_TLS_CERT_PATH is not set/);
  });

  it('names a certificate file that cannot be read', () => {
    const config = loadWorkerConfig({ ...base, TEMPORAL_TLS_CERT_PATH: '/certs/missing.pem', TEMPORAL_TLS_KEY_PATH: '/certs/client.key' });
    expect(() => temporalSecurityOf(config, read)).toThrow(ConfigError);
    expect(() => temporalSecurityOf(config, read)).toThrow(/TEMPORAL_TLS_CERT_PATH cannot be read \(ENOENT\)/);
  });
});
