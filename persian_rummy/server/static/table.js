// The page of a seat or spectator: draws the table from each frame the server sends over the
// WebSocket (the seat's view as the library's JSON, its legal actions and the log in words) and
// turns taps, clicks and keys into the seat's actions. The server decides everything: an
// action the page is unsure of is sent, and a refusal shows the server's reason. The
// protocol's names and numbers (its version, the seats, the teams, the cards' notation, the
// close codes) are the server's, read from the page: this script keeps no copy of them.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const main = $("table");
  const names = JSON.parse(main.dataset.protocol);
  const PROTOCOL = names.protocol;
  const SEATS = names.seats;
  const TEAMS = names.teams;
  const CLOSED = names.close_codes;
  const JOKER = names.joker;
  // By letter, each with its place in the library's order (for sorting a hand).
  const SUITS = Object.fromEntries(names.suits.map((suit, order) => [suit.letter, { ...suit, order }]));
  const RANKS = Object.fromEntries(names.ranks.map((rank, order) => [rank.letter, { ...rank, order }]));
  const token = location.pathname.split("/").pop();
  const mySeat = main.dataset.seat === "" ? null : Number(main.dataset.seat);
  const status = $("status");
  const sheet = $("sheet");
  const orderKey = "persian-rummy-order-" + token;
  let frame = null;
  let view = null;
  let selected = new Set();  // indices into the hand as drawn
  let handCards = [];  // the hand's cards in the order shown
  let socket = null;
  let retry = 500;
  let requests = 0;
  let lost = false;
  let fresh = true;
  let lastAction = null;  // the log's latest action entry
  let sound = false;
  let drag = null;
  let fingerDrag = null;
  let noTapUntil = 0;

  // --- cards as text ---------------------------------------------------------------------
  // A card's text is its rank's letter and its suit's (the library's notation), or the joker's.
  const isJoker = (card) => card === JOKER.text;
  const face = (card) => (isJoker(card) ? JOKER.face : RANKS[card[0]].face + SUITS[card[1]].symbol);
  const spoken = (card) => (isJoker(card) ? JOKER.name : RANKS[card[0]].name + " of " + SUITS[card[1]].name);
  const cardsOf = (text) => (text ? text.split(" ").filter(Boolean) : []);
  const rankOrder = (card) => (isJoker(card) ? 99 : RANKS[card[0]].order);
  const suitOrder = (card) => (isJoker(card) ? 9 : SUITS[card[1]].order);

  function cardElement(card, tag, extra) {
    const element = document.createElement(tag || "span");
    element.className = "card " + (isJoker(card) ? JOKER.name : SUITS[card[1]].name) + (extra ? " " + extra : "");
    element.dataset.card = card;
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = isJoker(card) ? "★" : RANKS[card[0]].face;
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = isJoker(card) ? JOKER.face : SUITS[card[1]].symbol;
    element.append(rank, suit);
    if (tag !== "button") element.setAttribute("aria-label", spoken(card));
    return element;
  }

  function button(id, text, handler) {
    const element = document.createElement("button");
    element.type = "button";
    if (id) element.id = id;
    element.textContent = text;
    element.addEventListener("click", handler);
    return element;
  }

  // --- talking to the server -------------------------------------------------------------
  function say(text, kind) {
    status.textContent = text;
    status.className = kind || "";
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/" + token);
    fresh = true;
    socket.onopen = () => { retry = 500; lost = false; $("retake").hidden = true; };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (frame && frame.phase === "game_over" && event.code === 1000) return;
      if (event.code === CLOSED.unknown_token || event.code === CLOSED.expired) { say(event.code === CLOSED.unknown_token ? "This link opens no table." : "This table expired.", "error"); loseSeat(false); return; }
      if (event.code === CLOSED.superseded) { say("This seat was opened in another window: play there, or take it back here.", "error"); loseSeat(true); return; }
      say("The connection dropped: reconnecting…", "error");
      loseSeat(true);
      setTimeout(() => { if (lost) connect(); }, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  function loseSeat(offer) {
    lost = true;
    $("retake").hidden = !offer || mySeat === null;
    draw();
  }

  function receive(message) {
    if (message.type === "welcome" || message.type === "state") {
      if (message.protocol !== PROTOCOL) { say("This page is out of date: reload it.", "error"); return; }
    }
    if (message.type === "state") {
      if (fresh) { $("log").replaceChildren(); lastAction = null; fresh = false; }  // a connection's first frame holds the whole log
      frame = message;
      view = message.view;
      if (!lost) status.className = "";  // something happened: an earlier refusal is old news
      message.log.forEach(addLog);
      selected = new Set();
      draw();
      if (frame.sheet) showSheet();  // it stays open over the next deal until the person closes it
    } else if (message.type === "error") {
      say(message.reason, "error");
    } else if (message.type === "ack") {
      $("action").value = "";
    }
  }

  function send(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN || lost) { say("You are not connected to your seat.", "error"); return; }
    requests += 1;
    socket.send(JSON.stringify({ type: "action", action: action, id: requests }));
  }

  // --- what may be done ------------------------------------------------------------------
  const legal = () => (frame ? frame.legal : []);
  const isLegal = (action) => legal().includes(action);
  const myTurn = () => frame && !lost && mySeat !== null && frame.turn === mySeat && legal().length > 0;
  const chosen = () => [...selected].sort((a, b) => a - b).map((index) => handCards[index]);
  const sameCards = (a, b) => a.slice().sort().join(" ") === b.slice().sort().join(" ");

  function meldAction() {
    const cards = chosen();
    return legal().find((action) => action.startsWith("meld ") && sameCards(action.split(" ").slice(1), cards));
  }

  function layOffTargets() {
    const cards = chosen();
    if (cards.length !== 1) return new Set();
    return new Set(legal().filter((action) => action.startsWith("layoff " + cards[0] + " ")).map((action) => Number(action.split(" ")[2])));
  }

  // --- drawing ---------------------------------------------------------------------------
  function orderedHand() {
    const cards = cardsOf(view && view.hand);
    let saved = [];
    try { saved = JSON.parse(localStorage.getItem(orderKey) || "[]"); } catch (error) { saved = []; }
    const left = cards.slice();
    const ordered = [];
    saved.forEach((card) => { const at = left.indexOf(card); if (at >= 0) { ordered.push(card); left.splice(at, 1); } });
    return ordered.concat(left);
  }

  function keepOrder(cards) {
    try { localStorage.setItem(orderKey, JSON.stringify(cards)); } catch (error) { /* private browsing */ }
  }

  function draw() {
    if (!frame) return;
    main.dataset.seq = String(frame.seq);
    main.dataset.phase = frame.phase;
    $("board").dataset.seq = String(frame.seq);
    $("board").dataset.phase = frame.phase;
    drawScores();
    drawSeats();
    drawCentre();
    drawMelds();
    if (mySeat !== null) { drawHand(); drawControls(); }
    markLast();
    if (status.className !== "error" || myTurn()) say(describe(), "");
    document.title = (myTurn() ? "● Your turn · " : "") + "Persian Rummy";
    main.classList.toggle("lost", lost);
    cue();
  }

  function drawScores() {
    const parts = TEAMS.map((team, index) => {
      const item = document.createElement("span");
      item.className = "team";
      item.dataset.team = String(index);
      item.textContent = team + ": " + frame.scores[index] + (frame.phase === "game_over" ? "" : " (on the table this deal: " + frame.on_table[index] + ")");
      return item;
    });
    const deal = document.createElement("span");
    deal.textContent = "Deal " + frame.deal + " of " + frame.deals;
    $("scores").replaceChildren(deal, ...parts);
  }

  function drawSeats() {
    const seats = [];
    for (let offset = 1; offset < 4; offset += 1) {
      const seat = ((mySeat === null ? 2 : mySeat) + offset) % 4;
      seats.push(seat);
    }
    if (mySeat === null) seats.push(2);
    $("seats").replaceChildren(...seats.map((seat) => {
      const box = document.createElement("div");
      box.className = "seat" + (frame.turn === seat && frame.phase !== "game_over" ? " to-move" : "");
      box.dataset.seat = String(seat);
      const name = document.createElement("span");
      name.className = "name";
      const bot = frame.seats[seat] !== names.human ? " (" + frame.seats[seat] + " bot)" : "";
      name.textContent = SEATS[seat] + (frame.names[seat] !== SEATS[seat] ? ": " + frame.names[seat] : "") + bot;
      const count = document.createElement("span");
      count.className = "count";
      const size = view.hand_sizes[seat];
      count.textContent = size + (size === 1 ? " card" : " cards") + " · " + TEAMS[seat % 2];
      const backs = document.createElement("span");
      backs.className = "backs";
      backs.setAttribute("aria-hidden", "true");
      const revealed = view.revealed_hands ? view.revealed_hands[seat] : null;
      if (revealed !== null && revealed !== undefined) cardsOf(revealed).forEach((card) => backs.append(cardElement(card)));
      else for (let i = 0; i < Math.min(size, 14); i += 1) { const back = document.createElement("span"); back.className = "back"; backs.append(back); }
      box.append(name, count, backs);
      return box;
    }));
  }

  function drawCentre() {
    const stock = $("stock");
    stock.dataset.stock = String(view.stock_size);
    stock.textContent = "Stock: " + view.stock_size;
    const canDraw = isLegal("draw");
    stock.classList.toggle("lit", canDraw);
    stock.disabled = !myTurn() || frame.phase !== "draw";
    stock.setAttribute("aria-label", "Stock, " + view.stock_size + " cards" + (canDraw ? ": draw a card" : ""));
    const pile = cardsOf(view.discard_pile);
    $("pile").replaceChildren(...pile.map((card, index) => {
      const take = "take " + index;
      const element = cardElement(card, "button", isLegal(take) ? "lit" : "");
      element.type = "button";
      element.dataset.pile = String(index);
      element.disabled = !myTurn() || frame.phase !== "draw";
      const above = pile.length - index - 1;
      element.setAttribute("aria-label", spoken(card) + ", discard pile card " + (index + 1) + (above ? ": take it and the " + above + " above it" : ": take it"));
      element.addEventListener("click", () => send(take));
      return element;
    }));
    if (!pile.length) $("pile").textContent = "(empty)";
  }

  function drawMelds() {
    const targets = layOffTargets();
    const melds = (view.melds || []).map((text, index) => {
      const parts = cardsOf(text);
      const cards = parts.map((part) => part.slice(0, 2));
      const element = document.createElement("button");
      element.type = "button";
      element.className = "meld" + (targets.has(index) ? " lit" : "");
      element.dataset.meld = String(index);
      const owner = Number(parts[0].slice(3));
      const label = document.createElement("span");
      label.className = "owner";
      label.textContent = "#" + index + " " + SEATS[owner];
      element.append(label, ...cards.map((card) => cardElement(card)));
      const one = chosen();
      element.setAttribute("aria-label", (targets.has(index) ? "Lay off " + face(one[0]) + " on " : "") + "meld " + index + " of " + SEATS[owner] + ": " + cards.map(face).join(" "));
      element.disabled = !myTurn() || frame.phase !== "meld";
      element.addEventListener("click", () => {
        const cards = chosen();
        if (cards.length !== 1) { say("Select one card of your hand to lay off on meld " + index + ".", "error"); return; }
        send("layoff " + cards[0] + " " + index);
      });
      return element;
    });
    if (!melds.length) { const none = document.createElement("p"); none.textContent = "No melds yet."; melds.push(none); }
    $("melds").replaceChildren(...melds);
  }

  function moveCard(from, to) {
    // The hand's card at ``from`` moves to ``to``; the order is kept in the browser.
    if (from === to || to < 0 || to >= handCards.length) return;
    const cards = handCards.slice();
    const [moved] = cards.splice(from, 1);
    cards.splice(to, 0, moved);
    keepOrder(cards);
    selected = new Set();
    draw();
  }

  function drawHand() {
    handCards = orderedHand();
    const must = view.must_meld;
    let mustMarked = false;
    let drawnMarked = false;
    const drawn = lastAction && lastAction.seat === mySeat && lastAction.action === "draw" && frame.turn === mySeat ? lastAction.cards : [];
    $("hand").replaceChildren(...handCards.map((card, index) => {
      let extra = "";
      if (must && card === must && !mustMarked) { extra += " must"; mustMarked = true; }
      if (drawn.includes(card) && !drawnMarked) { extra += " drawn"; drawnMarked = true; }
      const element = cardElement(card, "button", extra.trim());
      element.type = "button";
      element.draggable = true;
      element.dataset.index = String(index);
      element.setAttribute("aria-pressed", String(selected.has(index)));
      element.setAttribute("aria-label", spoken(card) + (extra.includes("must") ? " (must be melded now)" : "") + (extra.includes("drawn") ? " (just drawn)" : ""));
      element.addEventListener("click", () => {
        if (performance.now() < noTapUntil) return;
        if (selected.has(index)) selected.delete(index); else selected.add(index);
        element.setAttribute("aria-pressed", String(selected.has(index)));
        drawMelds();
        drawControls();
        markLast();
      });
      element.addEventListener("dragstart", (event) => { drag = index; event.dataTransfer.effectAllowed = "move"; });
      element.addEventListener("dragover", (event) => event.preventDefault());
      element.addEventListener("drop", (event) => {
        event.preventDefault();
        const from = drag;
        drag = null;
        if (from !== null) moveCard(from, index);
      });
      // A finger drags a card sideways to move it (HTML drag and drop is a mouse's): the
      // cards scroll the page up and down only (touch-action: pan-y), so a sideways move
      // reaches the card, and the card under the finger where it lifts is the new place.
      element.addEventListener("pointerdown", (event) => {
        if (event.pointerType === "touch") fingerDrag = { from: index, x: event.clientX, moved: false };
      });
      element.addEventListener("pointermove", (event) => {
        if (fingerDrag && fingerDrag.from === index && Math.abs(event.clientX - fingerDrag.x) > 12) fingerDrag.moved = true;
      });
      element.addEventListener("pointercancel", () => { fingerDrag = null; });
      element.addEventListener("pointerup", (event) => {
        const dragged = fingerDrag;
        fingerDrag = null;
        if (!dragged || dragged.from !== index || !dragged.moved) return;
        noTapUntil = performance.now() + 500;  // the lift is a move, not a tap that selects
        const under = document.elementFromPoint(event.clientX, event.clientY);
        const target = under && under.closest("#hand [data-index]");
        if (target) moveCard(index, Number(target.dataset.index));
      });
      element.addEventListener("keydown", (event) => {
        if (!event.altKey || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
        event.preventDefault();  // Alt+arrow moves a card within the hand
        const to = index + (event.key === "ArrowLeft" ? -1 : 1);
        if (to < 0 || to >= handCards.length) return;
        const cards = handCards.slice();
        [cards[index], cards[to]] = [cards[to], cards[index]];
        keepOrder(cards);
        selected = new Set();
        draw();
        const moved = $("hand").querySelector('[data-index="' + to + '"]');
        if (moved) moved.focus();
      });
      return element;
    }));
  }

  function drawControls() {
    const turn = myTurn();
    const cards = chosen();
    $("draw").disabled = !turn || frame.phase !== "draw";
    $("draw").classList.toggle("lit", isLegal("draw"));
    $("pass").disabled = !isLegal("pass");
    $("meld").disabled = !turn || frame.phase !== "meld" || cards.length < 3;
    $("meld").classList.toggle("lit", Boolean(meldAction()));
    $("meld").textContent = cards.length >= 3 ? "Meld " + cards.map(face).join(" ") : "Meld";
    $("discard").disabled = !turn || frame.phase !== "meld" || cards.length !== 1;
    $("discard").classList.toggle("lit", cards.length === 1 && isLegal("discard " + cards[0]));
    $("discard").textContent = cards.length === 1 ? "Discard " + face(cards[0]) : "Discard";
    $("clear").disabled = cards.length === 0;
    const said = frame.legal_text || [];
    $("legal").replaceChildren(...legal().map((action, index) => {
      const option = document.createElement("option");
      option.value = action;
      if (said[index]) option.label = said[index];
      return option;
    }));
    if (turn && cards.length === 1) {
      const targets = layOffTargets();
      const hint = [];
      if (targets.size) hint.push("lay it off on meld " + [...targets].join(" or "));
      if (isLegal("discard " + cards[0])) hint.push("discard it");
      $("hint").textContent = hint.length ? face(cards[0]) + ": you may " + hint.join(", or ") + "." : "";
    } else if (turn && cards.length >= 3) {
      $("hint").textContent = meldAction() ? "These cards make a meld: press Meld." : "";
    } else {
      $("hint").textContent = "";
    }
  }

  function markLast() {
    document.querySelectorAll(".last").forEach((element) => element.classList.remove("last"));
    if (!lastAction || !lastAction.cards.length) return;
    const words = lastAction.action.split(" ");
    let scope = [];
    if (words[0] === "discard") scope = [...$("pile").querySelectorAll("[data-card]")].slice(-1);
    else if (words[0] === "meld") scope = [...$("melds").querySelectorAll("[data-meld]")].slice(-1).flatMap((meld) => [...meld.querySelectorAll("[data-card]")]);
    else if (words[0] === "layoff") scope = [...$("melds").querySelectorAll('[data-meld="' + words[2] + '"] [data-card]')];
    else if (lastAction.seat === mySeat) scope = [...$("hand").querySelectorAll("[data-card]")];
    const left = lastAction.cards.slice();
    scope.forEach((element) => {
      const at = left.indexOf(element.dataset.card);
      if (at >= 0) { element.classList.add("last"); left.splice(at, 1); }
    });
  }

  function describe() {
    if (lost) return status.textContent;
    if (frame.phase === "game_over") {
      const [ns, ew] = frame.scores;
      return "Game over: " + TEAMS[0] + " " + ns + ", " + TEAMS[1] + " " + ew + (ns === ew ? ": a draw." : ": " + TEAMS[ns > ew ? 0 : 1] + " win.");
    }
    if (frame.phase === "round_over") return "Deal " + frame.deal + " is over.";
    if (myTurn()) {
      if (view.must_meld) return "Your turn: meld or lay off " + face(view.must_meld) + " (taken from the pile), then discard.";
      return frame.phase === "draw" ? "Your turn: draw from the stock or take from the discard pile." : "Your turn: meld, lay off, or discard one card.";
    }
    return "Waiting for " + SEATS[frame.turn] + (frame.names[frame.turn] !== SEATS[frame.turn] ? " (" + frame.names[frame.turn] + ")" : "") + ".";
  }

  // --- the log -----------------------------------------------------------------------------
  function addLog(entry) {
    const log = $("log");
    if (entry.kind === "deal") {
      const section = document.createElement("section");
      section.dataset.deal = String(entry.deal);
      const heading = document.createElement("h3");
      heading.textContent = entry.text;
      section.append(heading, document.createElement("ol"));
      log.append(section);
    } else {
      let section = log.lastElementChild;
      if (!section) { section = document.createElement("section"); section.append(document.createElement("ol")); log.append(section); }
      if (entry.kind === "score") {
        const score = document.createElement("p");
        score.className = "score";
        score.textContent = entry.text;
        section.append(score);
      } else {
        const item = document.createElement("li");
        item.dataset.seq = String(entry.seq);
        item.dataset.seat = String(entry.seat);
        item.dataset.action = entry.action;
        item.textContent = entry.text;
        section.querySelector("ol").append(item);
        log.querySelectorAll("li.latest").forEach((old) => old.classList.remove("latest"));
        item.classList.add("latest");
        lastAction = entry;
      }
    }
    log.scrollTop = log.scrollHeight;
  }

  // --- the end of a deal ---------------------------------------------------------------------
  function showSheet() {
    const rows = [["", "melded", "laid off", "doubles", "in hand", "going out", "deal total"]];
    frame.sheet.forEach((team) => rows.push([team.name, team.melded, team.laid_off, team.doubles, -team.in_hand, team.going_out, team.total]));
    rows.push(["Game totals", "", "", "", "", "", frame.scores[0] + " / " + frame.scores[1]]);
    $("sheet-table").replaceChildren(...rows.map((row, index) => {
      const tr = document.createElement("tr");
      row.forEach((cell) => { const td = document.createElement(index === 0 ? "th" : "td"); td.textContent = String(cell); tr.appendChild(td); });
      return tr;
    }));
    const over = frame.phase === "game_over";
    $("sheet-title").textContent = "Score sheet: deal " + frame.deal + " of " + frame.deals;
    $("sheet-result").textContent = over ? describe() : "The next deal has started: close this to play it.";
    $("end").hidden = !over;
    $("sheet-close").textContent = over ? "Look at the table" : "Play the next deal";
    if (!sheet.open) sheet.showModal();
  }

  async function rematch() {
    say("Setting up the rematch…", "");
    try {
      const response = await fetch("/api/rematch/" + token, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      const answer = await response.json();
      if (!response.ok) { say(answer.error || "The rematch could not be set up.", "error"); return; }
      location.assign(answer.url);
    } catch (error) {
      say("The rematch could not be set up: the server did not answer.", "error");
    }
  }

  // --- the turn cue ----------------------------------------------------------------------------
  let wasMyTurn = false;
  function cue() {
    const now = myTurn();
    if (now && !wasMyTurn && sound && window.AudioContext) {
      const context = new AudioContext();
      const tone = context.createOscillator();
      const gain = context.createGain();
      gain.gain.value = 0.08;
      tone.frequency.value = 660;
      tone.connect(gain).connect(context.destination);
      tone.start();
      tone.stop(context.currentTime + 0.15);
    }
    wasMyTurn = now;
  }

  // --- wiring --------------------------------------------------------------------------------
  const record = $("record");
  if (record) record.href = "/record/" + token;
  sheet.addEventListener("close", () => draw());
  $("sheet-close").addEventListener("click", () => sheet.close());
  if ($("rematch")) $("rematch").addEventListener("click", rematch);
  $("retake").addEventListener("click", () => { say("Taking the seat back…", ""); if (socket) socket.onclose = null; connect(); });
  if (mySeat !== null) {
    $("stock").addEventListener("click", () => send("draw"));
    $("draw").addEventListener("click", () => send("draw"));
    $("pass").addEventListener("click", () => send("pass"));
    $("meld").addEventListener("click", () => {
      const cards = chosen();
      const action = meldAction();
      send(action || "meld " + cards.join(" "));
    });
    $("discard").addEventListener("click", () => { const cards = chosen(); if (cards.length === 1) send("discard " + cards[0]); });
    $("clear").addEventListener("click", () => { selected = new Set(); draw(); });
    $("by-suit").addEventListener("click", () => { keepOrder(handCards.slice().sort((a, b) => suitOrder(a) - suitOrder(b) || rankOrder(a) - rankOrder(b))); selected = new Set(); draw(); });
    $("by-rank").addEventListener("click", () => { keepOrder(handCards.slice().sort((a, b) => rankOrder(a) - rankOrder(b) || suitOrder(a) - suitOrder(b))); selected = new Set(); draw(); });
    $("sound").addEventListener("click", () => { sound = !sound; $("sound").setAttribute("aria-pressed", String(sound)); $("sound").textContent = sound ? "Sound: on" : "Sound: off"; });
    $("typed").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("action").value.trim();
      if (text === "help" || text === "?") {
        const said = frame && frame.legal_text ? frame.legal_text : legal();
        say(said.length ? "You may " + said.join("; ") + "." : "It is not your turn: nothing to play now.", "");
        return;
      }
      if (text) send(text);  // kept in the box until the server accepts it
    });
  }
  connect();
})();
