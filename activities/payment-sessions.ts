// Payment-session activities: thin wrappers over src/domain/payment-sessions.
import type { Db } from '../src/db/client';
import { expirePaymentSessionWithEvents } from '../src/domain/payment-sessions/expire-payment-session';
import { dispatchEventsFromActivity } from '../src/events';
import type { ExpirePaymentSessionInput, ExpirePaymentSessionResult, SweepPaymentSessionsInput, SweepPaymentSessionsResult } from '../src/contracts/payment-sessions';

export interface PaymentSessionActivityDeps {
  db: Db;
  log: (line: string) => void;
}

export function createPaymentSessionActivities(deps: PaymentSessionActivityDeps) {
  /** Expires (one transaction), then dispatches its events after commit (never throws). */
  const expireAndDispatch = async (input: ExpirePaymentSessionInput): Promise<ExpirePaymentSessionResult> => {
    const { result, events } = await expirePaymentSessionWithEvents(deps.db, input);
    if (events.length > 0) await dispatchEventsFromActivity(deps.db, events, deps.log);
    return result;
  };
  return {
    /** Idempotent: re-reads the locked row; see src/domain/payment-sessions/expire-payment-session.ts. */
    async expirePaymentSession(input: ExpirePaymentSessionInput): Promise<ExpirePaymentSessionResult> {
      const result = await expireAndDispatch(input);
      if (result.outcome === 'expired' && result.paymentCanceled) deps.log(`payment session ${input.sessionId} expired; its payment was canceled`);
      return result;
    },
    /**
     * Expires sessions left `open` well past `expires_at` (their expiry workflow never started:
     * Temporal was unreachable after the commit). Each one goes through the same idempotent,
     * row-locking expiry as the workflow, so a race with it changes nothing twice.
     */
    async sweepOverduePaymentSessions(input: SweepPaymentSessionsInput): Promise<SweepPaymentSessionsResult> {
      const cutoff = new Date(Date.now() - input.graceSeconds * 1000);
      const overdue = await deps.db.$queryRaw<Array<{ id: string; merchant_id: string; mode: 'test' | 'live' }>>`
        SELECT id, merchant_id, mode::text AS mode FROM payment_sessions
        WHERE status = 'open' AND expires_at < ${cutoff}
        ORDER BY expires_at LIMIT ${input.batchSize}`;
      let expired = 0;
      for (const s of overdue) {
        const r = await expireAndDispatch({ sessionId: s.id, merchantId: s.merchant_id, mode: s.mode });
        if (r.outcome === 'expired') expired++;
      }
      if (expired > 0) deps.log(`payment session sweeper: expired ${expired} overdue session(s)`);
      return { looked: overdue.length, expired };
    },
  };
}

export type PaymentSessionActivities = ReturnType<typeof createPaymentSessionActivities>;
