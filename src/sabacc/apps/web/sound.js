// Turn and deal sounds, made with WebAudio (no files). A mute switch per browser; spectators
// start muted, players hear them unless they mute.
import { store } from "./dom.js";

let ctx = null;

function beep(freq, duration, when = 0, gain = 0.06) {
  ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
  const t0 = ctx.currentTime + when;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.frequency.value = freq;
  osc.type = "sine";
  amp.gain.setValueAtTime(gain, t0);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + duration);
  osc.connect(amp).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + duration);
}

const SOUNDS = {
  turn: () => {
    beep(660, 0.16);
    beep(880, 0.22, 0.12);
  },
  deal: () => beep(1400, 0.05, 0, 0.035),
};

export const sound = {
  /** Muted? A player hears sounds by default, a spectator does not. */
  muted(seated) {
    const saved = store.get(seated ? "sabacc:mute" : "sabacc:mute:watch");
    return saved == null ? !seated : saved === "1";
  },
  toggle(seated) {
    store.set(seated ? "sabacc:mute" : "sabacc:mute:watch", this.muted(seated) ? "0" : "1");
  },
  play(name, seated) {
    if (this.muted(seated)) return;
    try {
      SOUNDS[name]?.();
    } catch {
      /* no audio (autoplay policy, headless) */
    }
  },
};
