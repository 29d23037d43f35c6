// The page of a seat or spectator: draws each frame the server sends over the WebSocket and
// turns clicks (and keys) into the seat's legal actions. The server decides everything; this
// script only offers what the frame's "legal" list allows.
"use strict";
(() => {
  const main = document.getElementById("table");
  const token = location.pathname.split("/").pop();
  const mySeat = main.dataset.seat === "" ? null : Number(main.dataset.seat);
  const board = document.getElementById("board");
  const status = document.getElementById("status");
  const sheet = document.getElementById("sheet");
  const $ = (id) => document.getElementById(id);
  let frame = null;
  let selected = [];
  let queued = null;
  let socket = null;
  let retry = 500;
  let requests = 0;
  let final = false;
  let pieces = [];  // the last picture's pieces: a frame's numbers refer to them

  const record = $("record");
  if (record) record.href = "/record/" + token;

  function say(text, isError) {
    status.textContent = text;
    status.classList.toggle("error", Boolean(isError));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/" + token);
    pieces = [];  // a new connection's first frame writes its picture whole
    socket.onopen = () => { retry = 500; };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (event.code === 4409) { say("This seat was opened in another window.", true); return; }
      if (event.code === 4404) { say("This link opens no table.", true); return; }
      if (final) return;
      say("Connection lost: reconnecting…", true);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  function receive(message) {
    if (message.type === "state") {
      // Each piece is its SVG text, or the index of an equal piece in the last picture.
      pieces = message.picture.map((piece) => (typeof piece === "number" ? pieces[piece] : piece));
      message.svg = pieces.join("");
      if (sheet.open) queued = message; else show(message);
    } else if (message.type === "error") {
      say(message.reason, true);
    }
  }

  function send(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { say("Not connected.", true); return; }
    requests += 1;
    socket.send(JSON.stringify({ type: "action", action: action, id: requests }));
  }

  const legal = () => (frame ? frame.legal : []);
  const isLegal = (action) => legal().includes(action);
  const names = (seat) => frame.names[seat];

  function activate(element, label, handler) {
    element.setAttribute("tabindex", "0");
    element.setAttribute("role", "button");
    element.setAttribute("aria-label", label);
    element.classList.add("clickable");
    element.addEventListener("click", handler);
    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); handler(event); }
      if (event.key === "Delete" && element.dataset.card && isLegal("discard " + element.dataset.card)) {
        send("discard " + element.dataset.card);
      }
    });
  }

  function wire() {
    const stock = board.querySelector("g.stock");
    if (stock && isLegal("draw")) activate(stock, "Draw from the stock", () => send("draw"));
    board.querySelectorAll("g.discard-pile g.card").forEach((card, index) => {
      if (isLegal("take " + index)) {
        activate(card, "Take " + card.dataset.card + " and every card above it", () => send("take " + index));
      }
    });
    board.querySelectorAll("g.meld").forEach((meld) => {
      const number = meld.dataset.meld;
      if (legal().some((action) => action.startsWith("layoff ") && action.endsWith(" " + number))) {
        activate(meld, "Lay the selected card off on meld " + number, () => {
          const action = selected.length === 1 ? "layoff " + selected[0].dataset.card + " " + number : null;
          if (action && isLegal(action)) send(action);
          else say("Select one card that fits meld " + number + " first.", true);
        });
      }
    });
    if (mySeat === null || !frame.phase.match(/draw|meld/) || frame.turn !== mySeat) return;
    board.querySelectorAll('g.hand[data-seat="' + mySeat + '"] g.card[data-card]').forEach((card) => {
      activate(card, "Select " + card.dataset.card, () => {
        const at = selected.indexOf(card);
        if (at >= 0) selected.splice(at, 1); else selected.push(card);
        card.classList.toggle("selected", at < 0);
        card.setAttribute("aria-pressed", String(at < 0));
        controls();
      });
      card.addEventListener("dblclick", () => {
        if (isLegal("discard " + card.dataset.card)) send("discard " + card.dataset.card);
      });
    });
  }

  function selectedMeld() {
    const chosen = selected.map((card) => card.dataset.card).sort().join(" ");
    return legal().find((action) => action.startsWith("meld ") && action.split(" ").slice(1).sort().join(" ") === chosen);
  }

  function controls() {
    if (mySeat === null) return;
    $("draw").disabled = !isLegal("draw");
    $("pass").disabled = !isLegal("pass");
    $("meld").disabled = !selectedMeld();
    $("discard").disabled = !(selected.length === 1 && isLegal("discard " + selected[0].dataset.card));
    $("clear").disabled = selected.length === 0;
    const list = $("legal");
    list.replaceChildren(...legal().map((action) => { const option = document.createElement("option"); option.value = action; return option; }));
  }

  function describe() {
    const last = frame.last && frame.last.seat !== null ? names(frame.last.seat) + ": " + frame.last.action + ". " : "";
    if (frame.phase === "game_over") {
      const [ns, ew] = frame.scores;
      return "Game over: North-South " + ns + ", East-West " + ew + (ns === ew ? ", a draw." : ns > ew ? ": North-South win." : ": East-West win.");
    }
    if (frame.phase === "round_over") return last + "Deal " + frame.deal + " is over.";
    if (frame.turn === mySeat) return last + (frame.phase === "draw" ? "Your turn: draw (stock or discard pile)." : "Your turn: meld, lay off or discard.");
    return last + "Waiting for " + names(frame.turn) + ".";
  }

  function show(next) {
    frame = next;
    selected = [];
    board.innerHTML = frame.svg;
    board.dataset.seq = String(frame.seq);
    board.dataset.phase = frame.phase;
    wire();
    controls();
    say(describe(), false);
    final = frame.phase === "game_over";
    if (frame.sheet) showSheet();
  }

  function showSheet() {
    const rows = [["", "melded", "laid off", "doubles", "in hand", "going out", "deal total"]];
    frame.sheet.forEach((team) => rows.push([team.name, team.melded, team.laid_off, team.doubles, -team.in_hand, team.going_out, team.total]));
    rows.push(["Game totals", "", "", "", "", "", frame.scores[0] + " / " + frame.scores[1]]);
    $("sheet-table").replaceChildren(...rows.map((row, index) => {
      const tr = document.createElement("tr");
      row.forEach((cell) => { const td = document.createElement(index === 0 ? "th" : "td"); td.textContent = String(cell); tr.appendChild(td); });
      return tr;
    }));
    $("sheet-title").textContent = "Score sheet: deal " + frame.deal + " of " + frame.deals;
    $("sheet-result").textContent = frame.phase === "game_over" ? describe() : "The next deal starts when you continue.";
    if (!sheet.open) sheet.showModal();
  }

  sheet.addEventListener("close", () => {
    if (queued) { const next = queued; queued = null; show(next); }
  });

  if (mySeat !== null) {
    $("draw").addEventListener("click", () => send("draw"));
    $("pass").addEventListener("click", () => send("pass"));
    $("meld").addEventListener("click", () => { const action = selectedMeld(); if (action) send(action); });
    $("discard").addEventListener("click", () => { if (selected.length === 1) send("discard " + selected[0].dataset.card); });
    $("clear").addEventListener("click", () => { selected.forEach((card) => card.classList.remove("selected")); selected = []; controls(); });
    $("typed").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("action").value.trim();
      if (text) { send(text); $("action").value = ""; }
    });
  }
  connect();
})();
