// Constellate's few lines of browser code: letter keys, copying the link, the countdown.
// Everything else is server-rendered HTML swapped by htmx.
(() => {
  "use strict";
  const word = () => document.getElementById("word");

  // A dropped socket retries with jitter, but never waits more than 4 s (htmx-ext-ws's
  // default grows to 64 s): a phone back on the network shows the table again quickly.
  if (window.htmx) {
    window.htmx.config.wsReconnectDelay = (retries) =>
      Math.min(1000 * 2 ** Math.min(retries, 6), 4000) * Math.random();
  }

  function type(letter) {
    const input = word();
    if (input && input.value.length < 10) input.value += letter.toUpperCase();
  }

  function backspace() {
    const input = word();
    if (input) input.value = input.value.slice(0, -1);
  }

  document.addEventListener("click", (event) => {
    const key = event.target.closest("[data-letter], [data-backspace]");
    if (key) {
      if (key.hasAttribute("data-backspace")) backspace();
      else type(key.dataset.letter);
      return;
    }
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const field = document.querySelector(copy.dataset.copy);
      const done = () => { copy.textContent = "Copied!"; setTimeout(() => { copy.textContent = "Copy link"; }, 2000); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done);
      else { field.select(); document.execCommand("copy"); done(); }
    }
  });

  // A push that re-renders the same naming step (someone joined, a seat changed) must not
  // wipe the word being spelled or the number picked: carry them into the new board.
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const input = word();
    const incoming = event.detail.fragment?.querySelector?.("#word");
    if (!input || !incoming || !input.value) return;
    const version = (el) => el.closest("form")?.querySelector("input[name=version]")?.value;
    if (version(input) !== version(incoming)) return;  // a new step: a fresh word
    incoming.setAttribute("value", input.value);
    const picked = input.form.querySelector("input[name=number]:checked");
    const number = picked && incoming.closest("form").querySelector(`input[name=number][value="${picked.value}"]`);
    if (number) {
      incoming.closest("form").querySelectorAll("input[name=number]").forEach((radio) => radio.removeAttribute("checked"));
      number.setAttribute("checked", "");
    }
  });

  // A physical keyboard spells the word too, wherever the focus is (T2).
  document.addEventListener("keydown", (event) => {
    const input = word();
    if (!input || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target === input || (target.tagName === "INPUT" && target.type === "text")) return;
    if (/^[a-zA-Z]$/.test(event.key)) { type(event.key); event.preventDefault(); }
    else if (event.key === "Backspace") { backspace(); event.preventDefault(); }
  });

  // The countdown: the server sends its deadline and its own "now", so a client clock
  // that is off does not matter. At zero it asks the server to check (the server decides).
  const offsets = new WeakMap();
  function tick() {
    const el = document.getElementById("countdown");
    if (!el) return;
    if (!offsets.has(el)) {
      offsets.set(el, Date.parse(el.dataset.now) - Date.now());
    }
    const left = Date.parse(el.dataset.deadline) - (Date.now() + offsets.get(el));
    const seconds = Math.max(0, Math.ceil(left / 1000));
    const shown = el.querySelector(".countdown-seconds");
    if (shown && shown.textContent !== String(seconds)) shown.textContent = String(seconds);
    el.classList.toggle("urgent", seconds <= 10);
    const announce = el.querySelector(".countdown-announce");
    if (announce && [30, 10, 5].includes(seconds) && announce.dataset.said !== String(seconds)) {
      announce.dataset.said = String(seconds);
      announce.textContent = `${seconds} seconds left`;
    }
    if (left <= 0 && !el.dataset.asked && window.htmx) {
      el.dataset.asked = "1";
      window.htmx.ajax("POST", el.dataset.tick, { source: el, swap: "none" });
    }
  }
  // Turn changes, the word and the result, said politely. Pushes replace the whole board,
  // live regions inside it included, so the one that speaks stays outside it (room.html).
  function summary() {
    const status = document.getElementById("status");
    if (!status) return "";
    return [".result", ".turn", ".clue"]
      .map((part) => status.querySelector(part)?.textContent.replace(/\s+/g, " ").trim())
      .filter(Boolean)
      .join(". ");
  }
  let said = summary();  // what the page showed when it opened is not news
  function announce() {
    const out = document.getElementById("announcer");
    const text = summary();
    if (out && text && text !== said) out.textContent = text;
    said = text;
  }

  setInterval(() => { tick(); announce(); }, 250);
  document.addEventListener("htmx:afterSettle", tick);
  document.addEventListener("htmx:load", announce);
})();
