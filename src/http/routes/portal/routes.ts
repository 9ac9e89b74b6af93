/**
 * The customer portal (issue 32): minting, renewing and revoking portal sessions (JSON, for the
 * seller's backend or the customer's own token), and the portal's browser pages under /portal/{token}.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { PortalSessionSchema, PortalSessionStateSchema } from '../../../schemas/portal.js';
import { jsonResponse } from '../../helpers.js';
import { IdParamSchema, IdempotencyHeaderSchema } from '../../schemas.js';
import { MintOwnPortalSessionSchema, MintPortalSessionSchema, PortalFormSchema, PortalPageQuerySchema, PortalTokenIdParamSchema, PortalTokenParamSchema, SetupCompleteQuerySchema } from './schemas.js';

const tags = ['Customer portal'];

const mintBody = { headers: IdempotencyHeaderSchema, body: { required: false, content: { 'application/json': { schema: MintPortalSessionSchema } } } } as const;
const mintOwnBody = { headers: IdempotencyHeaderSchema, body: { required: false, content: { 'application/json': { schema: MintOwnPortalSessionSchema } } } } as const;

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

const redirect = (description: string) => ({
  description,
  headers: { Location: { description: 'where the browser goes next', schema: { type: 'string' as const } } },
});

const form = { required: true, content: { 'application/x-www-form-urlencoded': { schema: PortalFormSchema } } } as const;

const FORM_RULES = `Accepted only from the portal page: its \`form_token\` (signed for this session, issued at most an hour before) and,
when the browser sends them, an \`Origin\` of this service or \`Sec-Fetch-Site: same-origin\`; anything else is 403 \`portal_form_refused\`.`;

const LINK_ERRORS = `404 \`portal_session_not_found\` for a link that was altered or never issued, 410 \`portal_session_expired\` or
\`portal_session_revoked\`; every error of /portal is an HTML page with that status, its code in X-Error-Code.`;

export const mintPortalSessionRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/portal-sessions',
  operationId: 'createPortalSession',
  tags,
  summary: 'Mint a customer portal link',
  description: `A link (\`url\`) to the customer's self-service billing portal, like a billing portal session of Stripe: usage of the current
period per meter with a chart per day, the upcoming invoice, invoices with their PDFs, credit balance and wallet, the card on file
(add or replace it on the processor's page) and cancellation at the end of the period. The link works for PORTAL_SESSION_TTL_MINUTES
(default 60) and only for this customer; the answer is the only place its secret appears. A Closed customer is 409
\`invalid_state_transition\`. Audited as \`portal_session.created\`.`,
  request: { params: IdParamSchema, ...mintBody },
  responses: { 201: jsonResponse('The new portal session, with its link', PortalSessionSchema) },
});

export const mintOwnPortalSessionRoute = createRoute({
  method: 'post',
  path: '/v1/portal-sessions',
  operationId: 'createOwnPortalSession',
  tags,
  summary: 'Mint a portal link for the calling customer',
  description: `A portal link as POST /admin/v1/customers/{id}/portal-sessions mints it: for a customer token, of its own customer
(\`customer_id\` may be left out; another customer's is 404 \`customer_not_found\`); with admin credentials, of the \`customer_id\` the body
names (400 \`validation_failed\` without one).`,
  request: mintOwnBody,
  responses: { 201: jsonResponse('The new portal session, with its link', PortalSessionSchema) },
});

export const renewPortalSessionRoute = createRoute({
  method: 'post',
  path: '/admin/v1/portal-sessions/{id}/renew',
  operationId: 'renewPortalSession',
  tags,
  summary: 'Renew a portal link',
  description: `A new secret and a new expiry (PORTAL_SESSION_TTL_MINUTES from now) for the session: the answer carries the new link, and the
previous link stops working at once. A revoked session is 409 \`invalid_state_transition\`. Audited as \`portal_session.renewed\`.`,
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The renewed session, with its new link', PortalSessionSchema) },
});

export const revokePortalSessionRoute = createRoute({
  method: 'post',
  path: '/admin/v1/portal-sessions/{id}/revoke',
  operationId: 'revokePortalSession',
  tags,
  summary: 'Revoke a portal link',
  description: 'The link stops working now (410 `portal_session_revoked`); revoking again changes nothing. Audited as `portal_session.revoked`.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The session, revoked', PortalSessionStateSchema) },
});

export const portalPageRoute = createRoute({
  method: 'get',
  path: '/portal/{token}',
  operationId: 'getPortalPage',
  tags,
  summary: 'The customer portal page (public, from a portal session url)',
  description: `No credentials: the link is the credential, for one customer only. ${LINK_ERRORS}`,
  security: [],
  request: { params: PortalTokenParamSchema, query: PortalPageQuerySchema },
  responses: { 200: html('The portal as an HTML page') },
});

export const portalInvoicePdfRoute = createRoute({
  method: 'get',
  path: '/portal/{token}/invoices/{id}/pdf',
  operationId: 'getPortalInvoicePdf',
  tags,
  summary: "An invoice's PDF from the portal",
  description: `The same bytes as GET /v1/invoices/{id}/pdf, for an invoice of the session's customer (another customer's is 404
\`invoice_not_found\`). ${LINK_ERRORS}`,
  security: [],
  request: { params: PortalTokenIdParamSchema },
  responses: { 200: { description: 'The PDF', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } } },
});

export const portalPaymentMethodRoute = createRoute({
  method: 'post',
  path: '/portal/{token}/payment-method',
  operationId: 'startPortalPaymentMethodSetup',
  tags,
  summary: "Add or replace the card on file (the portal's form)",
  description: `Opens a checkout session in setup mode at the processor (a SetupIntent for the customer's processor customer) and answers
303 to its page, where the customer enters the card; the processor sends the customer back to
GET /portal/{token}/payment-method/complete. 422 \`checkout_rejected\` when the processor refuses, 503 \`payment_processor_unavailable\`.
${FORM_RULES} Audited as \`portal.payment_method_setup_started\`. ${LINK_ERRORS}`,
  security: [],
  request: { params: PortalTokenParamSchema, body: form },
  responses: { 303: redirect("To the processor's page") },
});

export const portalSetupCompleteRoute = createRoute({
  method: 'get',
  path: '/portal/{token}/payment-method/complete',
  operationId: 'completePortalPaymentMethodSetup',
  tags,
  summary: "Back from the processor's card page",
  description: `Only for the checkout session this portal session opened (anything else is 404 \`checkout_session_not_found\`): once its
SetupIntent succeeded, its payment method is attached as the customer's default (as POST /admin/v1/customers/{id}/payment-methods
with set_default, audited as \`payment_method.attached\` by the customer; 422 \`payment_method_rejected\` when the processor refuses it),
and the answer is 303 to the portal, which says whether the card was saved. ${LINK_ERRORS}`,
  security: [],
  request: { params: PortalTokenParamSchema, query: SetupCompleteQuerySchema },
  responses: { 303: redirect('To the portal page') },
});

export const portalCancelRoute = createRoute({
  method: 'post',
  path: '/portal/{token}/subscriptions/{id}/cancel',
  operationId: 'cancelSubscriptionFromPortal',
  tags,
  summary: 'Cancel at the end of the period (the portal\'s form)',
  description: `Cancels the subscription as POST /admin/v1/subscriptions/{id}/cancel does (its period is billed, then it expires), as the
customer (audited as \`subscription.cancelled\` with actor \`customer\`), and answers 303 to the portal. Another customer's
subscription is 404 \`subscription_not_found\`; a plan whose metadata has \`portal_cancellation\` = \`disabled\` 422
\`portal_cancellation_disabled\`; a subscription that cannot be cancelled 409 \`invalid_state_transition\`. ${FORM_RULES} ${LINK_ERRORS}`,
  security: [],
  request: { params: PortalTokenIdParamSchema, body: form },
  responses: { 303: redirect('To the portal page') },
});

export const portalSignOutRoute = createRoute({
  method: 'post',
  path: '/portal/{token}/sign-out',
  operationId: 'signOutOfPortal',
  tags,
  summary: "Sign out (the portal's form)",
  description: `Revokes the session (audited as \`portal_session.revoked\` by the customer): its link answers 410 \`portal_session_revoked\` from
then on. ${FORM_RULES} ${LINK_ERRORS}`,
  security: [],
  request: { params: PortalTokenParamSchema, body: form },
  responses: { 200: html('The signed-out page') },
});
