// What a tap in the room shows before the server answers, the same for every game: the
// pressed control is marked pending (aria-busy and .pending) until the answer or the push
// replaces the board; a tap that cannot reach the server (the socket is down, the browser is
// offline, or the request fails on the network) is not silently lost: it says "Not sent —
// tap again" on what was tapped and in the notice line, until the player taps again (a
// board pushed meanwhile, as on every reconnect, shows it again). socket.js keeps the
// connection's state on <html data-connection>.
(() => {
  "use strict";
  const NOT_SENT = "Not sent — tap again";
  const TAPPABLE = "button, label, a";
  const taps = new WeakMap();  // a request (its XMLHttpRequest) -> the tap that started it
  let unsent = null;  // the last tap not sent, as it can be found again in a new board

  const cannotSend = () =>
    !navigator.onLine || document.documentElement.dataset.connection === "down";

  const textOf = (control) => {
    const copy = control.cloneNode(true);
    copy.querySelectorAll(".tap-note").forEach((note) => note.remove());
    return copy.textContent.replace(/\s+/g, " ").trim();
  };

  // What a control is, whichever copy of the board holds it: its form's action, its name,
  // value and words (a card, a space, "Stop and bank a touch").
  function describe(control) {
    const form = control.closest("form");
    return {
      form: form?.getAttribute("hx-post") || form?.id || "",
      tag: control.tagName,
      name: control.getAttribute("name") || "",
      value: control.getAttribute("value") || "",
      text: textOf(control),
    };
  }

  function find(described) {
    const room = document.getElementById("room");
    const all = room ? room.querySelectorAll(described.tag === "FORM" ? "form" : TAPPABLE) : [];
    return [...all].find((el) => {
      const now = describe(el);
      return Object.keys(described).every((key) => now[key] === described[key]);
    });
  }

  // A player's tap: a request a person's click, submit or change started (not the
  // countdown's own check at zero), that asks the server to do something, in the room.
  function tapOf(detail) {
    const started = detail.requestConfig?.triggeringEvent;
    const verb = (detail.requestConfig?.verb || "get").toLowerCase();
    const source = detail.elt;
    if (!started || verb === "get" || !source?.closest?.("#room")) return null;
    const target = started.target instanceof Element ? started.target : null;
    const control = started.submitter || target?.closest(TAPPABLE) || source;
    const notice = source.closest("#lobby") ? "lobby-notice" : "notice";
    return { control, notice };
  }

  function settle(control) {
    control.classList.remove("pending", "worded");
    control.removeAttribute("aria-busy");
  }

  function noteOf(control) {
    const next = control.nextElementSibling;
    return control.querySelector(":scope > .tap-note") ||
      (next?.classList.contains("tap-note") ? next : null);
  }

  function unsay(control) {
    control.classList.remove("tap-failed");
    const note = noteOf(control);
    if (!note) return;
    const described = (control.getAttribute("aria-describedby") || "").split(" ")
      .filter((id) => id && id !== note.id);
    if (described.length) control.setAttribute("aria-describedby", described.join(" "));
    else control.removeAttribute("aria-describedby");
    note.remove();
  }

  // The message goes on the tapped card, space or button itself (a band over a picture, a
  // line under a button's words), or under a form submitted without a button.
  function say(control) {
    if (noteOf(control)) return;
    const note = document.createElement("span");
    note.id = "tap-note";
    note.className = "tap-note";
    note.textContent = NOT_SENT;
    if (control.matches(TAPPABLE)) {
      note.setAttribute("aria-hidden", "true");  // read as the control's description
      if (!textOf(control)) note.classList.add("over");
      control.append(note);
    } else {
      note.classList.add("line");
      control.after(note);
    }
    control.classList.add("tap-failed");
    const described = control.getAttribute("aria-describedby");
    control.setAttribute("aria-describedby", described ? `${described} ${note.id}` : note.id);
  }

  function tell(notice, again) {
    const line = document.getElementById(notice) || document.getElementById("notice");
    if (!line || (!again && line.textContent === NOT_SENT)) return;
    line.classList.add("error");
    line.textContent = "";  // said again, even when the last tap was refused the same way
    setTimeout(() => { line.textContent = NOT_SENT; }, 50);
  }

  function notSent({ control, notice }) {
    settle(control);
    document.querySelectorAll(".tap-failed").forEach(unsay);  // only the latest tap says so
    const described = describe(control);
    const here = control.isConnected ? control : find(described);  // a push replaced it
    if (here) {
      say(here);
      unsent = { described, notice };
    }
    tell(notice, true);
  }

  // A board pushed meanwhile (a reconnect sends the whole view) still says it, as long as
  // what was tapped is there to tap again.
  document.addEventListener("htmx:load", () => {
    if (!unsent) return;
    const control = find(unsent.described);
    if (!control || control.disabled) { unsent = null; return; }
    say(control);
    tell(unsent.notice, false);
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const tap = tapOf(event.detail);
    if (!tap) return;
    if (cannotSend()) {
      event.preventDefault();  // htmx sends nothing
      notSent(tap);
      return;
    }
    unsent = null;
    document.querySelectorAll(".tap-failed").forEach(unsay);
    const worded = tap.control.matches(TAPPABLE) && Boolean(textOf(tap.control));
    tap.control.classList.add("pending");
    tap.control.classList.toggle("worded", worded);  // its spinner after its words, not over them
    tap.control.setAttribute("aria-busy", "true");
    if (event.detail.xhr) taps.set(event.detail.xhr, tap);
  });

  // The answer came (the board it carries has replaced the control, or a notice alone came
  // back): whatever is still on the page is no longer pending.
  document.addEventListener("htmx:afterRequest", (event) => {
    const tap = taps.get(event.detail.xhr);
    if (tap) settle(tap.control);
  });

  // A tap sent over the room's socket instead (socket.js) is answered there, in the order
  // the taps were sent: its notice settles it. A socket that closes first, or a socket
  // that stays silent (a phone that changed networks keeps a dead socket "open" for
  // minutes), leaves it unsent: a board pushed later shows whether it was taken (what was
  // tapped is gone). Answers still owed to taps given up on are skipped when they come.
  const ANSWER_WITHIN_MS = 8000;
  const overSocket = [];  // the taps sent over the socket and not yet answered, oldest first
  let owed = 0;  // answers to taps given up on while the socket stayed open
  let silence = 0;

  function giveUp() {
    silence = 0;
    owed += overSocket.length;
    for (const tap of overSocket.splice(0)) if (tap) notSent(tap);
  }

  document.addEventListener("room:actionSent", (event) => {
    overSocket.push(taps.get(event.detail.xhr) || null);  // null: an action no one tapped
    if (!silence) silence = setTimeout(giveUp, ANSWER_WITHIN_MS);
  });
  document.addEventListener("room:actionAnswered", () => {
    if (owed > 0) { owed -= 1; return; }
    const tap = overSocket.shift();
    if (tap) settle(tap.control);
    clearTimeout(silence);
    silence = overSocket.length ? setTimeout(giveUp, ANSWER_WITHIN_MS) : 0;
  });
  document.addEventListener("htmx:wsClose", () => {
    giveUp();
    owed = 0;  // a closed socket's answers never come
  });

  // The request never reached the server, or no answer came back in time.
  for (const failed of ["htmx:sendError", "htmx:timeout"]) {
    document.addEventListener(failed, (event) => {
      const tap = taps.get(event.detail.xhr);
      if (tap) notSent(tap);
    });
  }
})();
