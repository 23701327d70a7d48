// Where each seat sits (client/web/js/seats_layout.js): play order round
// the table from the bottom seat, for 3 to 10 seats and for a spectator.

import assert from "node:assert/strict";
import { test } from "node:test";

import { bottomSeat, inPlayOrder, isClassic, opponents, passTarget, posOf, ringPoint, seatAt, slotOf } from "../../../client/web/js/seats_layout.js";

/** What the layout reads of a view: ``n`` seats, ours ``seat`` (null: watching). */
const table = (n, seat) => ({ seats: Array.from({ length: n }, (_, k) => ({ seat: k })), seat });

test("you sit at the bottom and the next seat in play order is on your left", () => {
  const view = table(4, 2);
  assert.equal(posOf(view, 2), "bottom");
  assert.equal(posOf(view, 3), "left");
  assert.equal(posOf(view, 0), "top");
  assert.equal(posOf(view, 1), "right");
  assert.equal(seatAt(view, "left"), 3);
  assert.equal(seatAt(view, "right"), 1);
});

test("a spectator sees seat 0 at the bottom", () => {
  const view = table(4, null);
  assert.equal(bottomSeat(view), 0);
  assert.equal(posOf(view, 0), "bottom");
  assert.equal(posOf(view, 1), "left");
});

test("four seats keep the classic places, any other count a ring", () => {
  assert.equal(isClassic(table(4, 0)), true);
  for (const n of [3, 5, 6, 7, 8, 9, 10]) {
    const view = table(n, 1);
    assert.equal(isClassic(view), false);
    assert.equal(posOf(view, 1), "bottom");
    assert.deepEqual(
      Array.from({ length: n }, (_, s) => posOf(view, s)).filter((p) => p === "ring").length,
      n - 1,
    );
  }
});

test("opponents come in play order from your left, and the score table starts with you", () => {
  const view = table(6, 4);
  assert.deepEqual(opponents(view), [5, 0, 1, 2, 3]);
  assert.deepEqual(inPlayOrder(view), [4, 5, 0, 1, 2, 3]);
  assert.deepEqual(opponents(view).map((s) => slotOf(view, s)), [1, 2, 3, 4, 5]);
});

test("a pass goes left to the next seat, right to the previous, across half the table on", () => {
  const view = table(6, 0);
  assert.equal(passTarget(view, 5, "left"), 0);
  assert.equal(passTarget(view, 0, "right"), 5);
  assert.equal(passTarget(view, 1, "across"), 4);
  assert.equal(passTarget(view, 1, "hold"), 1);
  assert.equal(passTarget(view, 1, null), 1);
  assert.equal(passTarget(table(5, 0), 4, "across"), 1, "across at five seats: two seats on");
});

test("the ring puts you at the bottom and the others clockwise from your left", () => {
  // (+ 0 turns a rounded -0 into 0: the same place on screen.)
  const point = (slot, n) => Object.fromEntries(Object.entries(ringPoint(slot, n)).map(([k, v]) => [k, v + 0]));
  assert.deepEqual(point(0, 4), { x: 0, y: 1 }, "you: bottom");
  assert.deepEqual(point(1, 4), { x: -1, y: 0 }, "next: left");
  assert.deepEqual(point(2, 4), { x: 0, y: -1 }, "then: top");
  assert.deepEqual(point(3, 4), { x: 1, y: 0 }, "last: right");
  for (const n of [3, 7, 10]) {
    for (let slot = 0; slot < n; slot++) {
      const { x, y } = ringPoint(slot, n);
      assert.ok(Math.abs(Math.hypot(x, y) - 1) < 0.002, `slot ${slot} of ${n} on the unit circle`);
    }
  }
});
