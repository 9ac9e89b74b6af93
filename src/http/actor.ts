import type { Context } from 'hono';
import type { Actor } from '../services/audit.js';
import type { AppEnv } from './context.js';

/** The audit actor for the authenticated caller. */
export function actorOf(c: Context<AppEnv>): Actor {
  const principal = c.get('principal');
  if (!principal) return { type: 'system', id: 'anonymous' };
  if (principal.kind === 'api_key') return { type: 'api_key', id: principal.subject };
  return { type: principal.scope, id: principal.subject };
}

/** For customer tokens, the only customer id they may act on; undefined for admins. */
export function ownCustomerId(c: Context<AppEnv>): string | undefined {
  const principal = c.get('principal');
  return principal?.scope === 'customer' ? principal.subject : undefined;
}
