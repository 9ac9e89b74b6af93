/**
 * Mints an access token for the API (SPEC §5: HS256, claims sub, exp, scope).
 *
 *   npm run token -- customer <customer_id>     # a customer token, valid 1 h (its own resources only)
 *   npm run token -- admin [subject]            # an admin token, valid 8 h
 *
 * The signing secret is JWT_SECRET when set, else the local dev secret `npm start` generated.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from '../src/dev/paths.js';
import { issueToken, loadOrCreateDevSecrets } from '../src/dev/secrets.js';
import { MAX_TOKEN_LIFETIME_SECONDS } from '../src/http/middleware/auth.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fail(message: string): never {
  process.stderr.write(`${message}\nusage: npm run token -- customer <customer_id> | admin [subject]\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const [scope, subject] = process.argv.slice(2);
  if (scope !== 'customer' && scope !== 'admin') fail('name the scope: customer or admin');
  if (scope === 'customer' && !(subject && UUID.test(subject))) fail('a customer token needs the customer id (a UUID)');
  let secret = process.env.JWT_SECRET;
  if (!secret) {
    if (!existsSync(path.join(DATA_DIR, 'dev-secrets.json'))) fail('JWT_SECRET is not set and there are no local dev secrets yet: run `npm start` once, or set JWT_SECRET');
    secret = (await loadOrCreateDevSecrets(DATA_DIR)).jwt_secret;
  }
  const sub = subject ?? 'local-admin';
  process.stdout.write(`${await issueToken(secret, { sub, scope }, MAX_TOKEN_LIFETIME_SECONDS[scope])}\n`);
}

void main();
