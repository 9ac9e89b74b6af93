/**
 * What application services receive, whoever calls them (the API or the worker's activities): one
 * shape, transport-neutral, set once in a composition root (src/main.ts, src/worker.ts).
 */
import type pg from 'pg';
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { PaymentProcessor } from '../processor/index.js';
import type { TemporalGateway } from '../temporal/gateway.js';
import type { FollowUp, TestClockDrive } from '../temporal/messages.js';
import type { TaxAdapter } from './billing/tax.js';
import type { DocumentSettings } from './documents/settings.js';
import type { WebhookSettings } from './webhooks/settings.js';

export interface ServiceSettings {
  /** The invoice grace period (INVOICE_GRACE_PERIOD_SECONDS): test clocks drive closed periods through it. */
  invoiceGraceMs: number;
  /** How far after the customer's "now" a usage event's timestamp may be (default 5 minutes). */
  eventMaxFutureSkewMs?: number;
  /** How many days after its timestamp a usage event is still taken (LATE_USAGE_MAX_DAYS, default 35). */
  lateUsageMaxDays?: number;
  /** Raw usage events are deleted this many days (customer time) after their timestamp once their periods are final (USAGE_EVENT_RETENTION_DAYS; absent or null: kept). */
  usageEventRetentionDays?: number | null;
  /** Webhook delivery policy and URL rules (WEBHOOK_* variables): resends start workflows with it. */
  webhooks: WebhookSettings;
  /** Days after a failed payment when dunning retries it (DUNNING_SCHEDULE_DAYS; SPEC default 3, 7, 14, 21). */
  dunningScheduleDays?: readonly number[];
  /** How long a plain entitlement check's answer is kept (ENTITLEMENT_CHECK_CACHE_MS; 0 or absent: never). */
  entitlementCheckCacheMs?: number;
  /** Who drives a test clock's workflows through an advance (TEST_CLOCK_DRIVE; absent: `activity`). */
  testClockDrive?: TestClockDrive;
  /** How long a usage summary is kept (USAGE_SUMMARY_CACHE_MS; 0 or absent: never). */
  usageSummaryCacheMs?: number;
  /** Seller block, logo and locale of invoice documents (SELLER_*, DOCUMENT_LOCALE); defaults without. */
  documents?: DocumentSettings;
}

export interface ServiceDeps {
  db: Db;
  pool: pg.Pool;
  /** Temporal, through its gateway (src/temporal/gateway.ts): the workflows' modules take it. */
  temporal: TemporalGateway;
  logger: Logger;
  settings: ServiceSettings;
  tax: TaxAdapter;
  /** The payment processor (src/processor). */
  processor: PaymentProcessor;
  clock: () => Date;
  /** What other domains do when this one records a fact (wired in src/reactions.ts). */
  reactions: DomainReactions;
  /**
   * Set by a workflow's activity: the follow-ups (starts and signals of other workflows) its services
   * asked for are collected here and handed back to that workflow, which runs them (follow-ups.ts).
   * Absent (the API): they run at once through the gateway.
   */
  followUps?: FollowUp[];
}

/**
 * Cross-domain reactions: a domain announces a fact through these and never imports the domain
 * that acts on it, so the service folders keep one import direction (docs/architecture.md, "Service domains").
 * The composition roots wire them (src/reactions.ts).
 */
export interface DomainReactions {
  /** Usage of these customers was stored (metering), after its commit: their spend alerts are evaluated again (alerts), their subscriptions with a progressive threshold check for a crossing (subscriptions). */
  usageRecorded(deps: ServiceDeps, customerIds: Iterable<string>): void;
  /** Stored usage events named entitlement reservations (`properties.reservation_id`): they are committed (entitlements). */
  reservationsUsed(deps: ServiceDeps, uses: { customerId: string; reservationId: string }[]): Promise<void>;
}
