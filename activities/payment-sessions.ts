// Payment-session activities: thin wrappers over src/domain/payment-sessions.
import type { Db } from '../src/db/client';
import { expirePaymentSessionWithEvents } from '../src/domain/payment-sessions/expire-payment-session';
import { dispatchEventsFromActivity } from '../src/events';
import type {
  ExpirePaymentSessionInput,
  ExpirePaymentSessionResult,
  SweepPaymentSessionsInput,
  SweepPaymentSessionsResult,
} from '../src/contracts/payment-sessions';

export interface PaymentSessionActivityDeps {
  db: Db;
  log: (line: string) => void;
}

export function createPaymentSessionActivities(deps: PaymentSessionActivityDeps) {
  return {
    /** Idempotent: re-reads the locked row; see src/domain/payment-sessions/expire-payment-session.ts. */
    async expirePaymentSession(input: ExpirePaymentSessionInput): Promise<ExpirePaymentSessionResult> {
      const { result, events } = await expirePaymentSessionWithEvents(deps.db, input);
      if (result.outcome === 'expired' && result.paymentCanceled) deps.log(`payment session ${input.sessionId} expired; its payment was canceled`);
      // After commit; never throws (an event it could not dispatch is left to the reconciler).
      if (events.length > 0) await dispatchEventsFromActivity(deps.db, events, deps.log);
      return result;
    },
    /**
     * Expires sessions left `open` well past `expires_at` (their expiry workflow never started:
     * Temporal was unreachable after the commit). Each one goes through the same idempotent,
     * row-locking expirePaymentSession as the workflow, so a race with it changes nothing twice.
     */
    async sweepOverduePaymentSessions(input: SweepPaymentSessionsInput): Promise<SweepPaymentSessionsResult> {
      const cutoff = new Date(Date.now() - input.graceSeconds * 1000);
      const overdue = await deps.db.$queryRaw<Array<{ id: string; merchant_id: string; mode: 'test' | 'live' }>>`
        SELECT id, merchant_id, mode::text AS mode FROM payment_sessions
        WHERE status = 'open' AND expires_at < ${cutoff}
        ORDER BY expires_at LIMIT ${input.batchSize}`;
      let expired = 0;
      for (const s of overdue) {
        const { result: r, events } = await expirePaymentSessionWithEvents(deps.db, { sessionId: s.id, merchantId: s.merchant_id, mode: s.mode });
        if (events.length > 0) await dispatchEventsFromActivity(deps.db, events, deps.log);
        if (r.outcome === 'expired') expired++;
      }
      if (expired > 0) deps.log(`payment session sweeper: expired ${expired} overdue session(s)`);
      return { looked: overdue.length, expired };
    },
  };
}

export type PaymentSessionActivities = ReturnType<typeof createPaymentSessionActivities>;
