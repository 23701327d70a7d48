// Hooks for the presenter (state.js setPresenterHooks) that write down what
// it asked the page to do, and a promise for "this many snapshots shown".

import { app, setPresenterHooks } from "../../../client/web/js/state.js";

/** Install recording hooks; returns the log and ``shown(n)``, which resolves
 * once the n-th snapshot since then has been drawn. */
export function recordPresenter() {
  const log = { renders: [], announced: [], snapshots: [], covered: [] };
  const waiters = [];
  setPresenterHooks({
    render: () => {
      log.renders.push({ view: app.view, linger: app.linger, collecting: app.collecting });
      for (const w of [...waiters]) {
        if (log.snapshots.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    },
    announceEvents: (events, view, previous) => log.announced.push({ events, view, previous }),
    onSnapshot: (view, previous) => log.snapshots.push({ view, previous }),
    botCovered: (event, view) => log.covered.push({ event, view }),
  });
  const shown = (n) =>
    log.snapshots.length >= n && log.renders.length ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }));
  return { log, shown };
}
