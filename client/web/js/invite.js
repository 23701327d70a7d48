// Invite codes and invite links.
//
// A table's code (six characters, easy to read aloud) finds it within the
// server's budget of wrong guesses per network. Its invite link is
// /t/CODE#k=INVITE: whoever holds INVITE sits at once, never throttled and
// without knocking. INVITE lives in the URL's fragment, which browsers never
// put in an HTTP request (nor in a Referer), so it reaches the server only
// inside the join_table or watch frame that carries it. Nothing here stores
// or logs it.

/** The code in what someone typed or pasted: a link, "abc-def" or "ABC DEF".
 * @param {string} text */
export function codeFrom(text) {
  const match = String(text).match(/\/t\/([A-Za-z0-9-]+)/);
  const raw = match ? match[1] : String(text);
  return raw.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** The invite secret of a link's fragment ("#k=…"), or null.
 * @param {string | null | undefined} hash
 * @returns {string | null} */
export function inviteFromHash(hash) {
  const match = String(hash || "").match(/^#k=([^&\s]+)/);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]) || null;
  } catch {
    return null; // a mangled link: the code alone may still be used
  }
}

/** {code, invite} of what someone pasted: a whole invite link (invite is
 * its secret), a /t/CODE link or a bare code (invite null).
 * @param {string} text */
export function parseLink(text) {
  const s = String(text).trim();
  const at = s.indexOf("#");
  return {
    code: codeFrom(at >= 0 ? s.slice(0, at) : s),
    invite: at >= 0 ? inviteFromHash(s.slice(at)) : null,
  };
}

/** The fragment that carries ``invite`` in a link. @param {string} invite */
export const linkHash = (invite) => `#k=${encodeURIComponent(invite)}`;

/** The whole link to share, from a ``seated`` reply's ``join_path``. @param {string} joinPath */
export const shareLink = (joinPath) => `${location.origin}${joinPath}`;
