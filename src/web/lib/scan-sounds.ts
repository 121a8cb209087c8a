// The sound of each scan, so a clerk knows without looking whether it went in: short WebAudio tones
// (no audio files). One pattern per outcome, told apart by pitch and rhythm:
//   accepted   one short high beep
//   matched    three rising notes (a chime)
//   duplicate  two quick mid beeps
//   unknown    two falling notes (product not in the catalog)
//   unmatched  a low-high-low wobble (parcel in, but it matches no purchase)
//   failed     one long low buzz (refused or not sent)
//   productCode three short low buzzes (a product's code where a tracking id was expected)
// The AudioContext is created on the first sound (a scan's key press is the user gesture browsers
// want). Tests and other callers replace the player with setScanSoundPlayer.
import type { FeedbackKind } from '../../../machines/scan2.machine';

export type ScanSound = FeedbackKind;

export interface ScanSoundPlayer {
  play(sound: ScanSound): void;
}

interface Note {
  hz: number;
  ms: number;
  wave?: OscillatorType;
}

export const SCAN_SOUND_PATTERNS: Record<ScanSound, readonly Note[]> = {
  accepted: [{ hz: 1760, ms: 70 }],
  matched: [
    { hz: 1047, ms: 80 },
    { hz: 1319, ms: 80 },
    { hz: 1568, ms: 140 },
  ],
  duplicate: [
    { hz: 880, ms: 90, wave: 'square' },
    { hz: 880, ms: 90, wave: 'square' },
  ],
  unknown: [
    { hz: 660, ms: 140, wave: 'triangle' },
    { hz: 440, ms: 220, wave: 'triangle' },
  ],
  unmatched: [
    { hz: 523, ms: 110, wave: 'triangle' },
    { hz: 784, ms: 110, wave: 'triangle' },
    { hz: 523, ms: 160, wave: 'triangle' },
  ],
  failed: [{ hz: 160, ms: 500, wave: 'sawtooth' }],
  productCode: [
    { hz: 220, ms: 120, wave: 'square' },
    { hz: 220, ms: 120, wave: 'square' },
    { hz: 220, ms: 120, wave: 'square' },
  ],
};

const GAP_MS = 40;

type AudioContextClass = typeof AudioContext;

/** The browser's player; silent where WebAudio is missing. */
export function createWebAudioPlayer(): ScanSoundPlayer {
  let context: AudioContext | null = null;
  return {
    play(sound) {
      const Ctor: AudioContextClass | undefined =
        typeof window === 'undefined'
          ? undefined
          : (window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext);
      if (!Ctor) return;
      try {
        context ??= new Ctor();
        if (context.state === 'suspended') void context.resume();
        let at = context.currentTime + 0.01;
        for (const note of SCAN_SOUND_PATTERNS[sound]) {
          const osc = context.createOscillator();
          const gain = context.createGain();
          osc.type = note.wave ?? 'sine';
          osc.frequency.value = note.hz;
          const end = at + note.ms / 1000;
          gain.gain.setValueAtTime(0.0001, at);
          gain.gain.exponentialRampToValueAtTime(0.3, at + 0.01);
          gain.gain.setValueAtTime(0.3, end - 0.02);
          gain.gain.exponentialRampToValueAtTime(0.0001, end);
          osc.connect(gain).connect(context.destination);
          osc.start(at);
          osc.stop(end + 0.01);
          at = end + GAP_MS / 1000;
        }
      } catch {
        // No sound is better than a broken scan.
      }
    },
  };
}

let player: ScanSoundPlayer = createWebAudioPlayer();

/** Replaces the player (tests record the sounds; null restores the browser's). */
export function setScanSoundPlayer(next: ScanSoundPlayer | null): void {
  player = next ?? createWebAudioPlayer();
}

export function playScanSound(sound: ScanSound): void {
  player.play(sound);
}
