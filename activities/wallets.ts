/** Wallet activities: the auto-recharge workflow's charge of its top-up, and its failure when it cannot be charged. */
import type { ServiceDeps } from '../src/services/deps.js';
import type { Logger } from '../src/logger.js';
import type { PaymentProcessor } from '../src/processor/index.js';
import { abandonTopUp, chargeTopUp } from '../src/services/wallets/wallets.js';
import type { WalletRechargeResult } from '../workflows/wallet-recharge/messages.js';
import { classified } from './failures.js';

export interface WalletActivityDeps {
  db: ServiceDeps['db'];
  logger: Logger;
  processor: PaymentProcessor;
}

export function createWalletActivities(deps: WalletActivityDeps) {
  const wallets = { ...deps, clock: () => new Date() };
  return {
    chargeWalletTopUp: (topUpId: string): Promise<WalletRechargeResult> =>
      classified(async () => {
        const topUp = await chargeTopUp(wallets, topUpId);
        return { topUpId, status: topUp.status as WalletRechargeResult['status'] };
      }),

    abandonWalletTopUp: (topUpId: string, reason: string): Promise<WalletRechargeResult> =>
      classified(async () => {
        const topUp = await abandonTopUp(wallets, topUpId, reason);
        return { topUpId, status: topUp.status as WalletRechargeResult['status'] };
      }),
  };
}
