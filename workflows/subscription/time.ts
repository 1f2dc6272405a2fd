// The workflow's time. Inside the Temporal workflow sandbox `Date.now()` does not read the
// machine clock: the SDK replaces it with the current workflow task's start time, recorded in
// history, so it is the same on every replay. All workflow code reads time through this one
// function so that nothing else in workflows/ touches Date.
export function workflowTime(): number {
  return Date.now();
}
