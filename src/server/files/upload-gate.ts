// Who waits for whom among uploads (docs/decisions/061-upload-queue.md). A member has at most one
// upload in flight (parse and apply): a second, sent before the first is answered, is refused at
// once with HTTP 429 A00001 UPLOAD_BUSY and changes nothing, so one member cannot fill the parse
// queue with files (12 parallel member files once made an admin's 1-row file wait 20 s). The
// admin side (admin, lowerAdmin) is not bounded per user (their concurrent confirms are part of
// the money workflow) and is never queued behind members: see parse-sheet.ts's ParseSlots.
import { AppError, Code } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { isAdminSide } from '../boards/visibility.ts';

export const UPLOAD_BUSY = '已有上传正在处理，请稍后再试';

/** HTTP 429 with A00001: the request is fine, only its timing is not (SPEC section 8 has no code of its own for it). */
export const uploadBusy = () => new AppError(Code.badParam, 429, UPLOAD_BUSY);

/** Members with an upload in flight, in this process (per process with several: docs/decisions/152-several-instances.md). */
const inFlight = new Set<number>();

/** Runs one upload of `actor`; a member's second upload while one is in flight is refused (uploadBusy). */
export async function oneUploadPerMember<T>(actor: SessionUser, upload: () => Promise<T>): Promise<T> {
  if (isAdminSide(actor)) return upload();
  if (inFlight.has(actor.id)) throw uploadBusy();
  inFlight.add(actor.id);
  try {
    return await upload();
  } finally {
    inFlight.delete(actor.id);
  }
}
