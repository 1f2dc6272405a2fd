// How the sandbox misbehaves like a real provider: a token bucket per company (429 with
// Retry-After above the rate limit), injected faults answered before or after the posting is
// committed, and transient 503s on postings at a configurable rate.
import type { ServerResponse } from 'node:http';
import { json } from './http';
import type { SandboxFault, SandboxStats } from './types';

export class SandboxLimits {
  private readonly faults: Array<Required<SandboxFault>> = [];
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private ratePerSecond: number,
    private transientRate: number,
    private readonly stats: SandboxStats,
  ) {}

  get queuedFaults(): number {
    return this.faults.length;
  }

  injectFaults(f: SandboxFault): void {
    this.faults.push({ status: f.status, count: f.count, retryAfterSeconds: f.retryAfterSeconds ?? 1, afterCommit: f.afterCommit ?? false });
  }

  setRateLimit(perSecond: number): void {
    this.ratePerSecond = perSecond;
    this.buckets.clear();
  }

  setTransientFailureRate(rate: number): void {
    this.transientRate = rate;
  }

  /** Answers the request (and returns true) when the company is over its rate or a fault is due. */
  refuseBeforeWork(res: ServerResponse, company: string, isPosting: boolean): boolean {
    const wait = this.takeToken(company);
    if (wait > 0) {
      this.stats.rateLimited++;
      json(res, 429, { message: 'rate limit exceeded' }, { 'Retry-After': String(wait) });
      return true;
    }
    const fault = this.faults[0];
    if (fault && !fault.afterCommit) {
      this.consume(fault);
      if (fault.status === 429) this.stats.rateLimited++;
      json(
        res,
        fault.status,
        { message: fault.status === 429 ? 'rate limit exceeded' : 'temporarily unavailable' },
        fault.status === 429 ? { 'Retry-After': String(fault.retryAfterSeconds) } : {},
      );
      return true;
    }
    if (isPosting && this.transientRate > 0 && Math.random() < this.transientRate) {
      this.stats.failed++;
      json(res, 503, { message: 'temporarily unavailable' });
      return true;
    }
    return false;
  }

  /** After a posting is kept: answers with a fault (and returns true) when one is due, so the answer is lost. */
  loseAnswer(res: ServerResponse): boolean {
    const fault = this.faults[0];
    if (!fault || !fault.afterCommit) return false;
    // The record is kept but the answer is lost: the caller must retry with the same reference.
    this.consume(fault);
    json(res, fault.status, { message: 'temporarily unavailable' });
    return true;
  }

  private consume(fault: Required<SandboxFault>): void {
    if (--fault.count <= 0) this.faults.shift();
    this.stats.failed++;
  }

  private takeToken(company: string): number {
    const now = Date.now();
    const rate = this.ratePerSecond;
    const b = this.buckets.get(company) ?? { tokens: rate, at: now };
    b.tokens = Math.min(rate, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    this.buckets.set(company, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / rate));
  }
}
