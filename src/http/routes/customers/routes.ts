/**
 * /admin/v1/customers: accounts, their status, the 360 view and the entity hierarchy (SPEC §2, §4).
 * The rules themselves live in src/services/accounts/customers.ts; the descriptions below publish them.
 */
import { createRoute } from '@hono/zod-openapi';
import { MAX_HIERARCHY_DEPTH, RECENT_AUDIT_ENTRIES, RECENT_DOCUMENTS } from '../../../services/accounts/customers.js';
import { CustomerOverviewSchema, CustomerSchema, HierarchyNodeSchema } from '../../../schemas/accounts.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdParamSchema } from '../../schemas.js';
import { CreateCustomerSchema, UpdateCustomerSchema, ChangeStatusSchema, ListCustomersQuerySchema } from './schemas.js';

const HIERARCHY_RULES = `Hierarchy rules (422 with the code in parentheses, unless noted):
- Organization and Individual are top-level accounts: parent_id must be null (\`parent_not_allowed\`).
- A Subsidiary needs a parent (\`subsidiary_requires_parent\`) that exists (404 \`parent_not_found\`), is an Organization or a
  Subsidiary (\`individual_cannot_have_children\`) and is not Closed (\`parent_closed\`).
- A tree is at most ${MAX_HIERARCHY_DEPTH} levels deep, root included (\`hierarchy_too_deep\`); no cycles (\`hierarchy_cycle\`);
  a customer is never its own parent or bill_to (\`self_reference\`).
- ConsolidateToParent needs a parent (\`consolidation_requires_parent\`) with the same billing currency
  (\`consolidation_currency_mismatch\`).
- bill_to_id must exist (404 \`bill_to_not_found\`) and not be Closed (\`bill_to_closed\`).
- test_clock_id must exist (404 \`test_clock_not_found\`).
- external_id is unique across customers (409 \`external_id_taken\`).`;

const tags = ['Customers'];
const IdParams = { params: IdParamSchema };

export const createCustomerRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers',
  operationId: 'createCustomer',
  tags,
  summary: 'Create a customer',
  description: `Defaults: consolidation Standalone, payment_terms_days 30, status Active. account_type and currency cannot change later.\n\n${HIERARCHY_RULES}`,
  request: mutationRequest(CreateCustomerSchema),
  responses: { 201: jsonResponse('The created customer', CustomerSchema) },
});

export const listCustomersRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers',
  operationId: 'listCustomers',
  tags,
  summary: 'List customers',
  description: 'Customers, newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); filter by parent_id, status, currency, created_gte / created_lt and external_id.',
  request: { query: ListCustomersQuerySchema },
  responses: { 200: pageResponse('One page of customers', CustomerSchema, 'CustomerList') },
});

export const getCustomerRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}',
  operationId: 'getCustomer',
  tags,
  summary: 'Customer 360 view',
  description: `The customer with its ${RECENT_DOCUMENTS} newest subscriptions, its ${RECENT_DOCUMENTS} newest invoices (those addressed to it),
its ledger balances, its ${RECENT_AUDIT_ENTRIES} newest audit entries, each list newest first, and its attached payment methods. The ledger is not released yet:
until it is, every balance is "0".`,
  request: IdParams,
  responses: { 200: jsonResponse('The 360 view', CustomerOverviewSchema) },
});

export const updateCustomerRoute = createRoute({
  method: 'patch',
  path: '/admin/v1/customers/{id}',
  operationId: 'updateCustomer',
  tags,
  summary: 'Update a customer',
  description: `Changes only the fields sent; null clears a nullable field. account_type, currency and status are not updatable here
(status has its own operation). A Closed customer cannot be updated (409 \`invalid_state_transition\`). Moving a customer
(parent_id) re-checks the whole ancestor chain for cycles and the depth of the moved subtree.\n\n${HIERARCHY_RULES}`,
  request: { ...IdParams, ...mutationRequest(UpdateCustomerSchema) },
  responses: { 200: jsonResponse('The updated customer', CustomerSchema) },
});

export const changeStatusRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/status',
  operationId: 'changeCustomerStatus',
  tags,
  summary: 'Change the status of a customer',
  description: `Moves: Active → Suspended, Suspended → Active, Active or Suspended → Closed. Closed is final; any other move is 409
\`invalid_state_transition\`. Closing is refused with 409 while the customer has Trialing, Active, PastDue or Paused subscriptions
(\`customer_has_open_subscriptions\`), Draft or Open invoices (\`customer_has_open_invoices\`), children that are not Closed
(\`customer_has_open_children\`) or non-Closed customers billed to it (\`customer_is_bill_to\`).`,
  request: { ...IdParams, ...mutationRequest(ChangeStatusSchema) },
  responses: { 200: jsonResponse('The customer in its new status', CustomerSchema) },
});

export const hierarchyRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/hierarchy',
  operationId: 'getCustomerHierarchy',
  tags,
  summary: 'Entity hierarchy rooted at a customer',
  description: `The customer and all its descendants (at most ${MAX_HIERARCHY_DEPTH} levels), children in creation order.`,
  request: IdParams,
  responses: { 200: jsonResponse('The tree', HierarchyNodeSchema) },
});
