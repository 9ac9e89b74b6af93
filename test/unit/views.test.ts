/**
 * The repositories' records that services answer as they are must be the API's views field for
 * field: assignability alone lets a record carry a field the OpenAPI document does not describe.
 * These are type assertions: a drift fails the typecheck (`npm test` runs tsc over the tests).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { PlanRecord, PlanVersionRecord, ProductRecord, SkuRecord } from '../../src/db/catalog.js';
import type { AuditEntrySummary, CustomerRecord, InvoiceSummary, SubscriptionSummary } from '../../src/db/customers.js';
import type { CustomerOverview, CustomerView } from '../../src/schemas/accounts.js';
import type { PlanMigrationView, PlanView, PlanVersionView, ProductView, SkuView } from '../../src/schemas/catalog.js';
import type { PlanMigrationView as PlanMigrationResult } from '../../src/services/subscriptions/plan-migrations.js';

describe('views passed through from the repositories', () => {
  it('customers', () => {
    expectTypeOf<CustomerRecord>().toEqualTypeOf<CustomerView>();
    expectTypeOf<SubscriptionSummary>().toEqualTypeOf<CustomerOverview['subscriptions'][number]>();
    expectTypeOf<InvoiceSummary>().toEqualTypeOf<CustomerOverview['invoices'][number]>();
    expectTypeOf<AuditEntrySummary>().toEqualTypeOf<CustomerOverview['recent_audit'][number]>();
  });

  it('the catalog', () => {
    expectTypeOf<ProductRecord>().toEqualTypeOf<ProductView>();
    expectTypeOf<SkuRecord>().toEqualTypeOf<SkuView>();
    expectTypeOf<PlanRecord>().toEqualTypeOf<PlanView>();
    expectTypeOf<PlanVersionRecord>().toEqualTypeOf<PlanVersionView>();
    expectTypeOf<PlanMigrationResult>().toEqualTypeOf<PlanMigrationView>();
  });
});
