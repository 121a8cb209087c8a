// SPEC §8 for a silent state-changing call: the page words its own toast, the server's words when it
// gave some, else the page's: green on success, red on failure.
import { toast } from '../components/ui/toast';

export interface OutcomeWords {
  done: string;
  failed: string;
}

/** Toasts what a call came to; true when it succeeded. */
export function toastOutcome(outcome: { ok: boolean; msg: string }, words: OutcomeWords): boolean {
  if (outcome.ok) toast.success(outcome.msg || words.done);
  else toast.error(outcome.msg || words.failed);
  return outcome.ok;
}
