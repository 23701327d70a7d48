// Invite codes and links (client/web/js/invite.js): the code in whatever was
// typed or pasted, and the secret of a link's #k= fragment.

import assert from "node:assert/strict";
import { test } from "node:test";

import { codeFrom, inviteFromHash, linkHash, parseLink } from "../../../client/web/js/invite.js";

test("a code is read from a link, with a dash or spaces, in any case", () => {
  assert.equal(codeFrom("abc-def"), "ABCDEF");
  assert.equal(codeFrom("ABC DEF"), "ABCDEF");
  assert.equal(codeFrom("https://hearts.example/t/abc-def"), "ABCDEF");
  assert.equal(codeFrom("/t/XYZ123#k=secret"), "XYZ123");
});

test("a link's secret comes from #k=, decoded; a mangled or missing one is null", () => {
  assert.equal(inviteFromHash("#k=s3cr%2Bt"), "s3cr+t");
  assert.equal(inviteFromHash("#k=abc&x=1"), "abc");
  assert.equal(inviteFromHash("#rules"), null);
  assert.equal(inviteFromHash("#k=%E0%A4%A"), null);
  assert.equal(inviteFromHash(""), null);
  assert.equal(inviteFromHash(null), null);
});

test("a pasted whole link gives its code and secret; a bare code no secret", () => {
  assert.deepEqual(parseLink("  https://h.example/t/ABC-DEF#k=s%2F1  "), { code: "ABCDEF", invite: "s/1" });
  assert.deepEqual(parseLink("abc-def"), { code: "ABCDEF", invite: null });
  assert.deepEqual(parseLink("/t/ABCDEF#rules"), { code: "ABCDEF", invite: null });
});

test("the fragment written for a secret reads back as that secret", () => {
  for (const secret of ["plain", "with/slash+plus", "ünï cödé"]) {
    assert.equal(inviteFromHash(linkHash(secret)), secret);
  }
});
