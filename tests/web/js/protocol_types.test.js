// client/web/js/protocol.d.ts, the wire types the browser's code is
// type-checked against, is generated from docs/protocol-schema.json
// (tools/maintenance/protocol_types.mjs, run by make docs) and must match it.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { SCHEMA_PATH, TYPES_PATH, declarations } from "../../../tools/maintenance/protocol_types.mjs";

const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8"));

test("the committed protocol.d.ts is the one the schema gives (else: make docs)", () => {
  assert.equal(readFileSync(TYPES_PATH, "utf8"), declarations(schema));
});

test("every message of the schema has a type, and each direction is a union of its messages", () => {
  const text = declarations(schema);
  for (const name of Object.keys(schema.$defs)) assert.match(text, new RegExp(`^export type ${name} = `, "m"));
  assert.match(text, /^export type ServerMessage = Welcome \| Ok \| Error \| Seated/m);
  assert.match(text, /^export type ClientMessage = Hello \| /m);
});

/** The fields of ``name``'s declaration, as written. */
function fieldsOf(text, name) {
  const body = text.split(`export type ${name} = {\n`)[1].split("\n};")[0];
  return body.split("\n").filter((l) => /^ {2}\w/.test(l)).map((l) => l.trim());
}

test("a field the server always sends is required, one it may leave out is optional", () => {
  const view = fieldsOf(declarations(schema), "SeatView");
  // Defaults other than null are dumped with the model.
  assert.ok(view.includes("hand: string[];"));
  assert.ok(view.includes("hearts_broken: boolean;"));
  // A null default may be left out of the frame (exclude_if), or be null.
  assert.ok(view.includes("turn?: number | null;"));
  assert.ok(view.includes('status: "waiting" | "playing" | "between_hands" | "game_over";'));
});

test("what a client sends may leave out every field the schema does not require", () => {
  const create = fieldsOf(declarations(schema), "CreateTable");
  assert.ok(create.includes("id: number | string;"));
  assert.ok(create.some((f) => f.startsWith("rules?: ")));
  assert.ok(create.some((f) => f.startsWith("approval?: boolean")));
});
