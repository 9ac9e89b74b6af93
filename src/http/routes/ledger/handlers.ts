/**
 * The ledger handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import type { Context } from 'hono';
import { customerLedger, listLedgerEntries, trialBalance } from '../../../services/ledger/ledger.js';
import { configureAutoRecharge, getWallet, grantPromotionalCredit, listTopUps, listTransactions, listWallets, retryTopUp, topUpWallet } from '../../../services/wallets/wallets.js';
import type { AppEnv } from '../../context.js';
import type { App } from '../../context.js';
import { requestContext, sendPage } from '../../helpers.js';
import { accountsRoute, entriesRoute, trialBalanceRoute, listWalletsRoute, getWalletRoute, transactionsRoute, listTopUpsRoute, topUpRoute, retryTopUpRoute, grantRoute, autoRechargeRoute, disableAutoRechargeRoute } from './routes.js';

const walletDeps = (c: Context<AppEnv>) => {
  const deps = c.get('deps');
  return { db: deps.db, processor: deps.processor, logger: deps.logger, clock: deps.clock };
};

export function registerLedger(app: App): void {
  app.openapi(accountsRoute, async (c) => {
    const { as_of } = c.req.valid('query');
    return c.json(await customerLedger(c.get('deps').db, c.req.valid('param').id, as_of ? new Date(as_of) : null), 200);
  });

  app.openapi(entriesRoute, async (c) => {
    const { limit, starting_after, created_gte, created_lt, account, currency, from, to, source_id } = c.req.valid('query');
    const filter = {
      customerId: c.req.valid('param').id,
      account,
      currency,
      from: from ? new Date(from) : undefined,
      to: to ? new Date(to) : undefined,
      sourceId: source_id,
    };
    return sendPage(c, await listLedgerEntries(c.get('deps').db, filter, { limit, starting_after, created_gte, created_lt }));
  });

  app.openapi(trialBalanceRoute, async (c) => {
    const { customer_id, as_of } = c.req.valid('query');
    return c.json(await trialBalance(c.get('deps').db, { customerId: customer_id ?? null, asOf: as_of ? new Date(as_of) : null }), 200);
  });

  app.openapi(listWalletsRoute, async (c) => sendPage(c, await listWallets(c.get('deps').db, c.req.valid('param').id, c.req.valid('query'))));

  app.openapi(getWalletRoute, async (c) => {
    const { id, currency } = c.req.valid('param');
    return c.json(await getWallet(c.get('deps').db, id, currency), 200);
  });

  app.openapi(transactionsRoute, async (c) => {
    const { id, currency } = c.req.valid('param');
    return sendPage(c, await listTransactions(c.get('deps').db, id, currency, c.req.valid('query')));
  });

  app.openapi(listTopUpsRoute, async (c) => {
    const { id, currency } = c.req.valid('param');
    return sendPage(c, await listTopUps(c.get('deps').db, id, currency, c.req.valid('query')));
  });

  app.openapi(topUpRoute, async (c) => {
    const { id, currency } = c.req.valid('param');
    const body = c.req.valid('json');
    const topUp = await topUpWallet(walletDeps(c), id, { currency, amountNanos: BigInt(body.amount_nanos), paymentMethodId: body.payment_method_id }, requestContext(c));
    return c.json(topUp, 201);
  });

  app.openapi(retryTopUpRoute, async (c) => {
    const { id, currency, top_up_id } = c.req.valid('param');
    return c.json(await retryTopUp(c.get('deps'), id, currency, top_up_id, requestContext(c)), 200);
  });

  app.openapi(grantRoute, async (c) => {
    const { id, currency } = c.req.valid('param');
    const body = c.req.valid('json');
    const wallet = await grantPromotionalCredit(
      walletDeps(c),
      id,
      { currency, amountNanos: BigInt(body.amount_nanos), expiresAt: body.expires_at ? new Date(body.expires_at) : null, description: body.description },
      requestContext(c),
    );
    return c.json(wallet, 201);
  });

  app.openapi(autoRechargeRoute, async (c) => {
    const { id, currency } = c.req.valid('param');
    const body = c.req.valid('json');
    const settings = { threshold: BigInt(body.threshold_nanos), target: BigInt(body.target_nanos) };
    return c.json(await configureAutoRecharge(walletDeps(c), id, currency, settings, requestContext(c)), 200);
  });

  app.openapi(disableAutoRechargeRoute, async (c) => {
    const { id, currency } = c.req.valid('param');
    return c.json(await configureAutoRecharge(walletDeps(c), id, currency, null, requestContext(c)), 200);
  });
}
