// The room's websocket (htmx-ext-ws on the element with ws-connect), the same for every game.
// The socket only pushes; on every (re)connect the server sends the whole current view, so
// a page that reconnects shows the board as it is now, without a reload.
(() => {
  "use strict";
  if (!window.htmx) return;

  // A dropped socket retries with jitter, but never waits more than 4 s (htmx-ext-ws's
  // default grows to 64 s): a phone back on the network shows the table again quickly.
  window.htmx.config.wsReconnectDelay = (retries) =>
    Math.min(1000 * 2 ** Math.min(retries, 6), 4000) * Math.random();

  // htmx-ext-ws retries only these abnormal closes by itself.
  const RETRIED_BY_HTMX = [1006, 1011, 1012, 1013];
  // The server's deliberate refusals (lobby/consumers.py, lobby/limits.py): no such room,
  // and over a socket cap. Asking again would be refused again, and adds to the load.
  const REFUSED = [4404, 4429];

  let leaving = false;  // a page being left closes its socket: that is no reason to reopen
  window.addEventListener("pagehide", () => { leaving = true; });
  window.addEventListener("pageshow", () => { leaving = false; });

  // The newest board of a game wins, whatever order boards arrive in: two pushes sent at
  // once, or an action's own answer landing after the push of the next action, may come in
  // either order, and the older one would hide a turn that has begun (a seat could not act
  // until the next push). A board older than the one shown, of the same game, is dropped;
  // a rematch (another game) and the replay's steps swap as they come.
  //
  // A change that only some areas of a board show (a touch, a word, a turn's end; another
  // seat's submission: the top bar and the score strip) comes as those areas alone (data-area, games/definition.py Areas),
  // each with the version it shows and the version it was changed from (data-since). An
  // area older than the one shown is dropped; a board arriving after a newer area keeps
  // that area; an area changed from a version this page has not got yet is held a moment
  // (two seats' pushes may overtake each other) and shown once that change arrives; if it
  // does not, the page asks the server for the whole board over the socket ("resync").
  //
  // An area that is the same for every version a while (a sky's card, the log: rendered once
  // and reused) carries no version of its own inside a board: it is as new as its board.
  const version = (element) =>
    Number(element.dataset.version ?? element.parentElement?.closest("[data-version]")?.dataset.version);

  function newest(board) {
    let seen = version(board);
    for (const area of board.querySelectorAll("[data-area]")) seen = Math.max(seen, version(area));
    return seen;
  }

  function keepNewerAreas(next) {
    const upTo = version(next);
    for (const area of [...next.querySelectorAll("[data-area]")]) {
      const shown = document.getElementById(area.id);
      if (shown && version(shown) > upTo) area.replaceWith(shown);
    }
  }

  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const shown = event.detail.target;
    const fragment = event.detail.fragment;
    const next = fragment instanceof DocumentFragment ? fragment.firstElementChild : fragment;
    if (!shown || !next || shown.id !== next.id) return;
    if (shown.id === "board") {
      const game = shown.dataset.game;
      if (!game || game !== next.dataset.game) return;
      if (version(next) < version(shown)) event.detail.shouldSwap = false;
      else keepNewerAreas(next);
      return;
    }
    if (!("area" in next.dataset) || !("since" in next.dataset)) return;
    const board = document.getElementById("board");
    if (!board || board.dataset.game !== next.dataset.game || !board.contains(shown)) {
      event.detail.shouldSwap = false;  // a late push of another game (a rematch began)
      return;
    }
    if (version(next) <= version(shown)) {
      event.detail.shouldSwap = false;  // this area is already as new
    } else if (newest(board) < Number(next.dataset.since)) {
      event.detail.shouldSwap = false;  // the change before this one has not arrived yet
      hold(next.cloneNode(true));
    } else {
      keepNewerAreas(next);  // a whole sky keeps a card a later touch lit, already shown
    }
  });

  // An area with no place on the page yet (one a later board has, that the board of the
  // change before brings) never reaches htmx:oobBeforeSwap: htmx drops it. Changed
  // from a version this page has not got, it is held like any early area; else it is late
  // for a board that no longer has it, and dropped.
  document.addEventListener("htmx:oobErrorNoTarget", (event) => {
    const next = event.detail.content;
    if (!(next instanceof Element) || !("area" in next.dataset) || !("since" in next.dataset)) return;
    const board = document.getElementById("board");
    if (!board || board.dataset.game !== next.dataset.game) return;
    if (newest(board) < Number(next.dataset.since)) hold(next.cloneNode(true));
  });

  const HOLD_MS = 400;
  let held = [];

  function hold(area) {
    held.push(area);
    if (held.length === 1) setTimeout(settle, HOLD_MS);
  }

  function settle() {
    const waiting = held.sort((a, b) => version(a) - version(b));
    held = [];
    let missing = false;
    for (const area of waiting) {
      const board = document.getElementById("board");
      const shown = document.getElementById(area.id);
      if (!board || board.dataset.game !== area.dataset.game) continue;
      if (!shown) {  // its place never came: only the whole board can say what it was
        if (version(area) > newest(board)) missing = true;
        continue;
      }
      if (version(area) <= version(shown)) continue;  // as new came meanwhile (a board)
      if (newest(board) < Number(area.dataset.since)) {
        missing = true;  // lost: only the whole board can say what it was
        continue;
      }
      area.removeAttribute("hx-swap-oob");
      keepNewerAreas(area);
      window.htmx.swap(shown, area.outerHTML, { swapStyle: "outerHTML" });
    }
    if (missing) resync();
  }

  const retries = new WeakMap();  // per ws-connect element, reset when a socket opens
  let open = null;  // the open socket's htmx-ext-ws wrapper, to ask for the whole board
  // The server answers one ask a half second at most (lobby/consumers.py); the page asks
  // once every 1.5 s at most, and a change missed after an ask asks once more when that
  // time is over (its answer may have been drawn before the change).
  const ASK_EVERY_MS = 1500;
  let asked = -Infinity;
  let again = 0;

  function resync() {
    if (!open) return;  // a socket that opens is sent the whole view anyway
    const wait = asked + ASK_EVERY_MS - Date.now();
    if (wait > 0) {
      if (!again) again = setTimeout(() => { again = 0; resync(); }, wait);
      return;
    }
    asked = Date.now();
    open.send("resync");
  }

  document.addEventListener("htmx:wsOpen", (event) => {
    retries.delete(event.target);
    open = event.detail.socketWrapper;
  });
  document.addEventListener("htmx:wsClose", () => { open = null; });

  // A seated player's action goes over the open socket instead of a POST (lobby/socket_actions.py):
  // the same form's fields, as htmx gathered them, with its action's name from the POST's
  // address (/r/<code>/play/<action>). Only on a board that takes its actions so
  // (data-over-socket: Constellate's), and only an action whose whole answer is out of
  // band (hx-swap="none"): its answer (after a refusal the board, then always the notice,
  // alone in its frame) comes back on this socket alone; the change comes with the push
  // every screen gets. Listened for on window, so taps.js (on document) has marked the tap
  // pending, or refused it, first. With the socket down the POST goes as before.
  const ACTION = /^\/r\/[^/]+\/play\/([-\w]+)$/;

  function actionOf(detail) {
    const config = detail.requestConfig;
    if (!config || config.verb !== "post") return null;
    const found = ACTION.exec(new URL(config.path, window.location.href).pathname);
    const swapped = detail.elt?.closest?.("[hx-swap]")?.getAttribute("hx-swap");
    const board = detail.elt?.closest?.("#board[data-over-socket]");
    return found && board && swapped === "none" ? found[1] : null;
  }

  window.addEventListener("htmx:beforeRequest", (event) => {
    const act = actionOf(event.detail);
    if (!open || !act || event.defaultPrevented) return;
    const fields = [];
    for (const [name, value] of event.detail.requestConfig.formData.entries()) {
      if (typeof value === "string") fields.push([name, value]);
    }
    try {
      open.sendImmediately(JSON.stringify({ act, fields }));
    } catch {
      return;  // the socket is not open after all: the POST goes
    }
    event.preventDefault();  // htmx sends no POST
    document.dispatchEvent(new CustomEvent("room:actionSent", { detail: { xhr: event.detail.xhr } }));
  });

  // The socket's answer to an action, once swapped in: the frame of the notice alone.
  document.addEventListener("htmx:wsAfterMessage", (event) => {
    const message = event.detail.message;
    if (typeof message === "string" && message.startsWith('<p id="notice"')) {
      document.dispatchEvent(new CustomEvent("room:actionAnswered"));
    }
  });

  // A clean close (a server restart during a deploy: 1000, 1001, or none) leaves
  // htmx-ext-ws closed for good; reopen it here, with the same jittered backoff.
  document.addEventListener("htmx:wsClose", (event) => {
    const element = event.target;
    const code = event.detail.event.code;
    if (leaving || RETRIED_BY_HTMX.includes(code) || REFUSED.includes(code)) return;
    if (!document.body.contains(element)) return;  // the room left the page
    const count = retries.get(element) || 0;
    retries.set(element, count + 1);
    setTimeout(() => {
      if (!leaving && document.body.contains(element)) event.detail.socketWrapper.reconnect();
    }, window.htmx.config.wsReconnectDelay(count));
  });

  // What the player is told about the connection (#connection in lobby/room.html, a polite
  // live region): nothing while it works, "Reconnecting…" while the socket is down,
  // "Offline…" while the browser has no network. The state is also on <html
  // data-connection>, where taps.js reads it to refuse taps that could not be sent.
  let socket = "connecting";  // the first open is not news; then "open", "down", "refused"
  let shown = "";
  let clearing = 0;
  const TEXT = {
    offline: "Offline: your taps will not be sent",
    down: "Reconnecting…",
    refused: "Live updates stopped: reload the page",
    back: "Connected again",
  };

  function show() {
    const state = !navigator.onLine ? "offline" : socket;
    document.documentElement.dataset.connection = state;
    const out = document.getElementById("connection");
    if (!out || leaving) return;
    const was = shown;
    shown = TEXT[state] ? state : "";
    if (shown === was) return;
    clearTimeout(clearing);
    if (!shown && (was === "down" || was === "offline")) {
      shown = "back";  // said once, politely, then the line goes quiet again
      clearing = setTimeout(() => {
        if (shown !== "back") return;
        shown = "";
        out.textContent = "";
        out.dataset.state = "";
      }, 2500);
    }
    out.textContent = TEXT[shown] || "";
    out.dataset.state = shown;
  }

  document.addEventListener("htmx:wsOpen", () => { socket = "open"; show(); });
  document.addEventListener("htmx:wsClose", (event) => {
    if (leaving) return;
    socket = REFUSED.includes(event.detail.event.code) ? "refused" : "down";
    show();
  });
  document.addEventListener("htmx:wsError", () => {
    if (leaving || socket === "refused") return;
    socket = "down";
    show();
  });
  window.addEventListener("online", show);
  window.addEventListener("offline", show);
  document.addEventListener("DOMContentLoaded", show);
  show();
})();
