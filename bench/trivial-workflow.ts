// The baseline of bench/subscriptions.ts: the smallest workflow there is (no activity, no timer).
export async function trivialWorkflow(n: number): Promise<number> {
  return n;
}
