// Sound effects, synthesised with WebAudio (no files to fetch or license):
// a card put down, a trick taken, the queen of spades, hearts broken, your
// turn. Off until the player turns them on; the choice is remembered.

import { loadSound, saveSound } from "./storage.js";

let enabled = loadSound();
/** @type {AudioContext | null} */
let context = null;
/** The names of the sounds played, newest last (the last few only): what
 * the page meant to be heard, for the player's tools and the tests.
 * @type {string[]} */
export const played = [];

export const soundOn = () => enabled;

/** Turn sound on or off (and remember it). Turning it on is a click, which
 * is what lets a browser start audio.
 * @param {boolean} on */
export function setSound(on) {
  enabled = Boolean(on);
  saveSound(enabled);
  if (enabled) audio();
}

function audio() {
  // Browsers let a page start audio only after the player has used it (a
  // click, a key): until then stay silent rather than ask and be refused.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return null;
  if (!context) {
    // Safari before 14.1 names it webkitAudioContext.
    const Context = window.AudioContext || /** @type {{webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** One note: ``freq`` Hz from ``at`` s for ``length`` s, with a quick attack
 * and an exponential fade (no clicks).
 * @param {AudioContext} ctx
 * @param {number} freq
 * @param {number} at
 * @param {number} length
 * @param {{type?: OscillatorType, volume?: number, slide?: number | null}} [options]
 */
function note(ctx, freq, at, length, { type = "sine", volume = 0.12, slide = null } = {}) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A short burst of filtered noise: a card landing on cloth.
 * @param {AudioContext} ctx
 * @param {number} [volume] */
function snap(ctx, volume = 0.25) {
  const length = 0.06;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start();
}

/** @type {{[name: string]: (ctx: AudioContext) => void}} */
const SOUNDS = {
  card: (ctx) => snap(ctx),
  trick: (ctx) => {
    note(ctx, 660, 0, 0.12);
    note(ctx, 880, 0.08, 0.18);
  },
  queen: (ctx) => {
    snap(ctx);
    note(ctx, 220, 0.02, 0.5, { type: "triangle", volume: 0.18, slide: 110 });
  },
  hearts: (ctx) => {
    note(ctx, 523, 0, 0.14, { type: "triangle" });
    note(ctx, 392, 0.12, 0.14, { type: "triangle" });
    note(ctx, 330, 0.24, 0.24, { type: "triangle" });
  },
  turn: (ctx) => note(ctx, 988, 0, 0.16, { volume: 0.08 }),
};

/** Play the sound ``name`` (card, trick, queen, hearts, turn) if sound is on.
 * @param {string} name */
export function playSound(name) {
  if (!enabled || !SOUNDS[name]) return;
  played.push(name);
  if (played.length > 50) played.shift();
  const ctx = audio();
  if (ctx) SOUNDS[name](ctx);
}
