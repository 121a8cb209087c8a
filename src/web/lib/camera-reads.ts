// One read per presentation (docs/decisions/082): a camera decodes the barcode held in
// front of it several times a second, and each of those frames is not a scan. A code counts when it
// comes into view; it stays in view while the decoder keeps finding it, and it has left only after
// it was missing from GONE_FRAMES consecutive decoded frames spanning at least GONE_MS. Both, because
// a decoder misses a held code now and then (blur, glare), and a stalled page decodes no frames at
// all: time alone would let a code held through a stall count again. A different code counts at once.
// Pure, on plain data: the camera component feeds it each decoded frame.

/** Consecutive decoded frames without a code after which it has left the view. */
export const GONE_FRAMES = 5;
/** ...and at least this long since it was last decoded. */
export const GONE_MS = 1000;

/** The codes in view: when each was last decoded, and in how many frames since it was missing. */
export type CameraView = ReadonlyMap<string, { readonly lastSeen: number; readonly missed: number }>;

export const EMPTY_VIEW: CameraView = new Map();

/**
 * One decoded frame (the codes found in it, possibly none, at `now` ms): the view after it, and the
 * codes that have just come into view, which are the frame's scans.
 */
export function readFrame(view: CameraView, codes: readonly string[], now: number): { view: CameraView; fresh: string[] } {
  const found = new Set(codes.map((code) => code.trim()).filter((code) => code !== ''));
  const next = new Map<string, { lastSeen: number; missed: number }>();
  const fresh: string[] = [];
  for (const code of found) {
    if (!view.has(code)) fresh.push(code);
    next.set(code, { lastSeen: now, missed: 0 });
  }
  for (const [code, seen] of view) {
    if (found.has(code)) continue;
    const missed = seen.missed + 1;
    if (missed >= GONE_FRAMES && now - seen.lastSeen >= GONE_MS) continue;
    next.set(code, { lastSeen: seen.lastSeen, missed });
  }
  return { view: next, fresh };
}
