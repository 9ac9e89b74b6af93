/**
 * Local-mode secrets: generated once into the data folder so a newcomer can run the service with
 * no configuration, and reused on later starts (tokens printed once stay valid until they expire).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT } from 'jose';

export interface DevSecrets {
  jwt_secret: string;
  api_key: string;
  processor_webhook_secret: string;
  hosted_link_secret: string;
}

export function apiKeyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

export function generateSecrets(): DevSecrets {
  return {
    jwt_secret: randomBytes(32).toString('base64url'),
    api_key: `bsk_test_${randomBytes(24).toString('base64url').replace(/-/g, 'A')}`,
    processor_webhook_secret: `whsec_${randomBytes(24).toString('base64url')}`,
    hosted_link_secret: randomBytes(32).toString('base64url'),
  };
}

export async function loadOrCreateDevSecrets(dataDir: string): Promise<DevSecrets> {
  const file = path.join(dataDir, 'dev-secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(await readFile(file, 'utf8')) as Partial<DevSecrets>;
    // A data folder from before a secret existed gets that secret added, the others kept.
    const secrets = { ...generateSecrets(), ...stored };
    if (Object.keys(secrets).length !== Object.keys(stored).length) await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    return secrets;
  }
  const secrets = generateSecrets();
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}

/** Signs an HS256 access token with the claims the API requires (SPEC §5). */
export async function issueToken(
  jwtSecret: string,
  claims: { sub: string; scope: 'customer' | 'admin' },
  lifetimeSeconds: number,
  now: Date = new Date(),
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ scope: claims.scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetimeSeconds)
    .sign(new TextEncoder().encode(jwtSecret));
}
