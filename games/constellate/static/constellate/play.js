// Constellate's few lines of browser code: letter keys, and keeping a half-spelled word
// through a push. Everything else is server-rendered HTML swapped by htmx; the room's socket,
// countdown, announcer and "Copy link" are the platform's (static/platform/).
(() => {
  "use strict";
  const word = () => document.getElementById("word");

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
    if (!key) return;
    if (key.hasAttribute("data-backspace")) backspace();
    else type(key.dataset.letter);
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
})();
