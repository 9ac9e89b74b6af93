import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Logger } from '../logger.js';
import type { ServiceDeps, ServiceSettings } from '../services/deps.js';
import type { HostedLinkSettings } from '../services/documents/hosted-links.js';

/** Who is calling, as established by the auth middleware. */
export interface Principal {
  kind: 'jwt' | 'api_key';
  scope: 'customer' | 'admin';
  /** JWT `sub` (customer id for customer tokens) or the API key's fingerprint. */
  subject: string;
}

export interface HttpSettings extends ServiceSettings {
  jwtSecret: string;
  apiKeyHash: string;
  temporalNamespace: string;
  bodyLimitBytes: number;
  /** Per authenticated caller. */
  rateLimit: { ratePerSecond: number; burst: number };
  /** Per client address, for requests without valid credentials. */
  anonymousRateLimit: { ratePerSecond: number; burst: number };
  idempotencyTtlMs: number;
  /** Signing secret of the processor's notifications (PROCESSOR_WEBHOOK_SECRET). */
  processorWebhookSecret: string;
  /** Hosted invoice links (HOSTED_LINK_SECRET, HOSTED_LINK_TTL_DAYS, PUBLIC_URL); without them invoices carry no link. */
  hostedLinks?: HostedLinkSettings;
  /** Where operators reach the Temporal UI (TEMPORAL_UI_URL), for the operator views' workflow links; the dev server's UI without it. */
  temporalUiUrl?: string;
  /** How long a customer portal link works (PORTAL_SESSION_TTL_MINUTES, default 60); the portal needs hostedLinks (its address and form key). */
  portalSessionTtlMinutes?: number;
}

/** Everything a handler may use, set once per app: the services' dependencies plus the HTTP settings. */
export interface AppDeps extends ServiceDeps {
  settings: HttpSettings;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    deps: AppDeps;
    principal: Principal | undefined;
    /** The error envelope's code, when the answer is an error (for the access log). */
    errorCode: string | undefined;
  };
}

export type App = OpenAPIHono<AppEnv>;
