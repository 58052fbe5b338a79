// Constellate's few lines of browser code: letter keys, and keeping a half-spelled word
// through a push. Everything else is server-rendered HTML swapped by htmx; the room's socket,
// countdown, announcer, "Copy link" and folding "Invite friends" when a game starts are the
// platform's (static/platform/).
(() => {
  "use strict";
  const word = () => document.getElementById("word");

  // The word's length is the input's maxlength (W1: 10): at it, the player is told so, and
  // a letter more is refused aloud rather than dropped in silence.
  function hint(text) {
    const out = document.getElementById("word-hint");
    if (out && out.textContent !== text) out.textContent = text;
  }

  function full(input) {
    return input.maxLength > 0 && input.value.length >= input.maxLength;
  }

  function refuseLetter(input, letter) {
    hint(`A word has at most ${input.maxLength} letters: ${letter.toUpperCase()} was not added.`);
  }

  function type(letter) {
    const input = word();
    if (!input) return;
    if (full(input)) { refuseLetter(input, letter); return; }
    input.value += letter.toUpperCase();
    hint(full(input) ? `${input.value.length} letters: the longest a word can be.` : "");
  }

  function backspace() {
    const input = word();
    if (!input) return;
    input.value = input.value.slice(0, -1);
    hint("");
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

  // A notice (a refused word, a stale touch, a flag's thanks) is shown where it was caused:
  // the acting player's #panel holds #notice beside the controls, and a flag's answer is
  // repeated on the flag's own line. It is said politely by the page's live region that no
  // push replaces (#announcer, lobby/room.html), not shouted as an alert.
  function say(text) {
    const out = document.getElementById("announcer");
    if (!out || !text) return;
    out.textContent = "";
    setTimeout(() => { out.textContent = text; }, 50);
  }

  document.addEventListener("htmx:oobAfterSwap", (event) => {
    if (event.target?.id === "notice") say(event.target.textContent.trim());
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const said = event.detail.elt?.closest?.(".flag")?.querySelector(".said");
    if (said) said.textContent = document.getElementById("notice")?.textContent.trim() || "";
  });

  // A physical keyboard spells the word too, wherever the focus is (T2).
  document.addEventListener("keydown", (event) => {
    const input = word();
    if (!input || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target === input) {  // typed into the word itself: the browser keeps its maxlength
      const replacing = input.selectionStart !== input.selectionEnd;
      if (/^[a-zA-Z]$/.test(event.key) && full(input) && !replacing) refuseLetter(input, event.key);
      else if (event.key === "Backspace") hint("");
      return;
    }
    if (target.tagName === "INPUT" && target.type === "text") return;
    if (/^[a-zA-Z]$/.test(event.key)) { type(event.key); event.preventDefault(); }
    else if (event.key === "Backspace") { backspace(); event.preventDefault(); }
  });
})();
